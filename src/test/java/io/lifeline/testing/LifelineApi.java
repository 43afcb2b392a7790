package io.lifeline.testing;

import static io.lifeline.testing.TestTokens.api;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What the connector tests read and write through Lifeline's own API: stored events, counters, registrations. */
public final class LifelineApi {

    private LifelineApi() {}

    /** The stored events of a subject, optionally of one type (wire name), oldest first. */
    public static List<Map<String, Object>> stored(String subject, String type) {
        var req = api().queryParam("subject", subject).queryParam("limit", 1000);
        if (type != null) {
            req = req.queryParam("type", type);
        }
        return req.get("/api/v1/events")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("events");
    }

    /** Whether an event with this id is stored for some subject among the events of a type. */
    public static boolean storedId(String type, String id) {
        String cursor = null;
        do {
            var req = api().queryParam("type", type).queryParam("limit", 1000);
            if (cursor != null) {
                req = req.queryParam("cursor", cursor);
            }
            var page =
                    req.get("/api/v1/events").then().statusCode(200).extract().jsonPath();
            if (page.getList("events.id").contains(id)) {
                return true;
            }
            cursor = page.getString("nextCursor");
        } while (cursor != null);
        return false;
    }

    /** Registers a node with a provider id through the event API, as any registration source would. */
    public static void registerNode(String node, String providerId, Instant time) {
        String data =
                "{\"pool\":\"spot-a\",\"capacityType\":\"spot\",\"gpuCount\":8,\"providerId\":\"" + providerId + "\"}";
        api().contentType("application/cloudevents+json")
                .body(CloudEvents.event(CloudEvents.uniqueId(), "test/registrar", "node.registered", node, time, data))
                .post("/api/v1/events")
                .then()
                .statusCode(200);
    }

    /** The value of a Prometheus sample of {@code /metrics} whose labels include all of {@code labels}; 0 when absent. */
    public static double metric(String name, Map<String, String> labels) {
        String body = api().get("/metrics").then().statusCode(200).extract().asString();
        Pattern line = Pattern.compile("^" + Pattern.quote(name) + "\\{([^}]*)\\} (\\S+)$", Pattern.MULTILINE);
        Matcher m = line.matcher(body);
        double sum = 0;
        while (m.find()) {
            String set = m.group(1);
            boolean all =
                    labels.entrySet().stream().allMatch(e -> set.contains(e.getKey() + "=\"" + e.getValue() + "\""));
            if (all) {
                sum += Double.parseDouble(m.group(2));
            }
        }
        return sum;
    }

    public static String unique(String prefix) {
        return prefix + "-" + CloudEvents.uniqueId().substring(0, 8);
    }
}
