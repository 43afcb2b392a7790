package io.lifeline.faults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Actions through the REST API, and what the database says about their steps. */
final class Actions {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(3))
            .build();

    private final Cluster cluster;

    Actions(Cluster cluster) {
        this.cluster = cluster;
    }

    /** Submits an action to {@code baseUrl} (the front address or one replica) and returns its id. */
    String submit(String baseUrl, String kind, String target, int deadlineSeconds) throws Exception {
        String body = "{\"kind\":\"" + kind + "\",\"target\":\"" + target + "\",\"params\":{\"deadlineSeconds\":"
                + deadlineSeconds + "},\"reason\":\"fault suite\"}";
        return Waits.until("the action to be accepted", Duration.ofSeconds(60), () -> {
            HttpResponse<String> r = HTTP.send(
                    HttpRequest.newBuilder(URI.create(baseUrl + "/api/v1/actions"))
                            .header("Authorization", "Bearer " + cluster.token)
                            .header("Content-Type", "application/json")
                            .timeout(Duration.ofSeconds(20))
                            .POST(HttpRequest.BodyPublishers.ofString(body))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 201) {
                return JSON.readTree(r.body()).path("id").asText();
            }
            if (r.statusCode() >= 400 && r.statusCode() < 500 && r.statusCode() != 429) {
                throw new IllegalStateException("action refused: " + r.statusCode() + " " + r.body());
            }
            return null;
        });
    }

    /** The action as one replica answers it, or null. */
    JsonNode get(Replica r, String id) {
        try {
            return r.get("/api/v1/actions/" + id, cluster.token);
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** The state of the action as the database holds it. */
    String state(String id) throws Exception {
        try (Connection c = cluster.db();
                PreparedStatement ps = c.prepareStatement("SELECT state FROM action WHERE id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    /** Waits until the action has ended; returns its final state. */
    String awaitEnd(String id, Duration timeout) throws Exception {
        return Waits.until("action " + id + " to end", timeout, () -> {
            String s = state(id);
            return s != null && (s.equals("succeeded") || s.equals("failed") || s.equals("cancelled")) ? s : null;
        });
    }

    /** Steps whose end was recorded more than once (each ended step has one audit entry): "ran twice". */
    List<String> stepsEndedTwice(List<String> actionIds) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = cluster.db();
                PreparedStatement ps = c.prepareStatement(
                        "SELECT action_id, before, count(*)"
                                + " FROM audit_log WHERE what = 'action.step' AND action_id = ANY(?) GROUP BY 1, 2 HAVING count(*) > 1")) {
            ps.setArray(1, c.createArrayOf("text", actionIds.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1) + " step '" + rs.getString(2) + "' ended " + rs.getLong(3) + " times");
                }
            }
        }
        return out;
    }

    /** The steps of an action as stored: name, state and detail. */
    List<String> steps(String id) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = cluster.db();
                PreparedStatement ps = c.prepareStatement(
                        "SELECT name, state, detail FROM action_step WHERE action_id = ? ORDER BY seq")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1) + ": " + rs.getString(2)
                            + (rs.getString(3).isEmpty() ? "" : " (" + rs.getString(3) + ")"));
                }
            }
        }
        return out;
    }
}
