package io.lifeline.faults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * kill -9 of the quick start (the packaged application with its embedded PostgreSQL, as {@code ./lifeline} runs it),
 * then starting it again on the same data: it must come back, with every event it acknowledged before the kill.
 */
final class QuickStartScenario {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Cluster cluster;

    QuickStartScenario(Cluster cluster) {
        this.cluster = cluster;
    }

    Outcome run() {
        Outcome o = new Outcome(
                "quickstart-kill",
                "kill -9 of the quick start (embedded PostgreSQL) after 1,000 "
                        + "acknowledged events, then started again on the same data directory");
        Path dir = cluster.settings.work().resolve("quickstart");
        Replica q = new Replica(
                "quickstart",
                dir,
                cluster.settings.jar(),
                cluster.settings.base() + 20,
                dir.resolve(".lifeline/admin-token"),
                List.of("-Dlifeline.demo.enabled=false"));
        Path pidFile = dir.resolve(".lifeline/pgdata/postmaster.pid");
        Child.atEnd(() -> killServerOf(pidFile));
        List<String> acked = new ArrayList<>();
        try {
            q.start();
            q.awaitReady(Duration.ofMinutes(5));
            String token = q.token();
            HttpClient http = HttpClient.newHttpClient();
            for (int b = 0; b < 20; b++) {
                StringBuilder body = new StringBuilder("[");
                List<String> ids = new ArrayList<>();
                for (int i = 0; i < 50; i++) {
                    String node = "qs-node-" + (b * 50 + i);
                    ids.add(node);
                    body.append(i == 0 ? "" : ",")
                            .append(Events.nodeRegistered("qs-reg-" + node, node, "qs-pool", Instant.now()));
                }
                HttpResponse<String> r = http.send(
                        HttpRequest.newBuilder(URI.create(q.url() + "/api/v1/events"))
                                .header("Authorization", "Bearer " + token)
                                .header("Content-Type", "application/cloudevents-batch+json")
                                .POST(HttpRequest.BodyPublishers.ofString(
                                        body.append(']').toString()))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    acked.addAll(ids);
                }
            }
            long killed = System.nanoTime();
            q.kill();
            long orphan = serverPid(pidFile);
            boolean orphaned = orphan > 0
                    && ProcessHandle.of(orphan).map(ProcessHandle::isAlive).orElse(false);
            o.details.put("embeddedServerLeftRunning", orphaned);
            q.start();
            try {
                q.awaitReady(Duration.ofMinutes(3));
                o.recoverySeconds = Waits.seconds(killed, System.nanoTime());
            } catch (IllegalStateException e) {
                o.fail("did not start again after kill -9: " + why(q.process().log()));
            }
            Set<String> found = new HashSet<>();
            if (q.alive()) {
                JsonNode page = q.get("/api/v1/nodes?pool=qs-pool&limit=5000", token);
                for (JsonNode n : page == null ? JSON.createArrayNode() : page.path("items")) {
                    found.add(n.path("name").asText());
                }
            }
            long applied = acked.stream().filter(found::contains).count();
            long lost = q.alive() ? acked.size() - applied : 0;
            List<String> problems = new ArrayList<>();
            if (lost > 0) {
                problems.add(lost + " acknowledged events missing after the restart");
            }
            o.accounted(new Checker.Accounting(acked.size(), applied, 0, lost, 0, 0, true, problems));
            if (!q.alive()) {
                o.details.put(
                        "unverified", acked.size() + " acknowledged events could not be checked: it did not start");
            }
            q.stop();
        } catch (Exception e) {
            o.fail("the scenario could not complete: " + e);
        } finally {
            try {
                if (q.process() != null && q.alive()) {
                    q.kill();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            killServerOf(pidFile);
        }
        return o;
    }

    private static long serverPid(Path pidFile) {
        try {
            return Files.exists(pidFile)
                    ? Long.parseLong(Files.readAllLines(pidFile).get(0).trim())
                    : -1;
        } catch (Exception e) {
            return -1;
        }
    }

    /** Stops a PostgreSQL server the quick start left running on its data directory (it outlives a kill -9). */
    private static void killServerOf(Path pidFile) {
        long pid = serverPid(pidFile);
        if (pid > 0) {
            ProcessHandle.of(pid).ifPresent(h -> {
                if (h.isAlive()
                        && h.info().command().map(c -> c.endsWith("postgres")).orElse(false)) {
                    Child.signal(pid, "INT");
                }
            });
        }
    }

    /** The lines of the log that say why it did not start. */
    private static String why(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return lines.stream()
                    .filter(l -> l.contains("ERROR") || l.contains("postmaster.pid") || l.contains("Exception"))
                    .limit(3)
                    .map(String::trim)
                    .reduce((a, b) -> a + " | " + b)
                    .orElse("see " + log);
        } catch (Exception e) {
            return "see " + log;
        }
    }
}
