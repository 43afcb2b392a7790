package io.lifeline.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.StreamSupport;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A job stopped and launched again with the same rdzv id on another node, as a user relaunches a job: the packaged
 * Lifeline, a real torchrun agent through {@code python -m lifeline_agent.run} running {@code examples/elastic_train.py}
 * on "node-a", stopped with SIGTERM, then a new one on "node-b" with the same {@code --rdzv-id} (a new c10d store:
 * its round is round 0 again, its restart count 0 again, its steps the same again). Lifeline must show the new
 * launch's round, world size and node, and a drain of node-b must find the job.
 */
class RelaunchIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String JOB = "train/relaunch";

    private static Path work;
    private static LifelineProcess app;

    private final List<TorchrunAgent> agents = new ArrayList<>();

    @BeforeAll
    static void startLifeline() throws Exception {
        work = Files.createTempDirectory("lifeline-relaunch-it");
        app = LifelineProcess.start(
                LifelineProcess.freePort(),
                work,
                work.resolve("lifeline.log"),
                "-Dlifeline.demo.enabled=false",
                "-Dlifeline.policies.default-mode=off");
        app.awaitReady(Duration.ofSeconds(120));
        app.useToken(Files.readString(work.resolve(".lifeline/admin-token")).trim());
    }

    @AfterEach
    void stopAgents() {
        agents.forEach(TorchrunAgent::close);
    }

    @AfterAll
    static void stopLifeline() throws Exception {
        if (app != null) {
            app.stop();
            app.close();
        }
    }

    @Test
    void aRelaunchWithTheSameRdzvIdOnAnotherNodeShowsItsRoundWorldSizeAndNode() throws Exception {
        for (String node : List.of("node-a", "node-b")) {
            postEvent("node.registered", node, "{\"pool\":\"spot-cpu\",\"capacityType\":\"spot\",\"gpuCount\":0}");
            postEvent("node.ready", node, "{}");
        }
        Path dir = Files.createDirectories(work.resolve("relaunch"));
        List<String> script = List.of(
                "--steps",
                "100000",
                "--step-time",
                "0.1",
                "--checkpoint-dir",
                dir.resolve("checkpoints").toString(),
                "--checkpoint-every",
                "20");

        TorchrunAgent first = start(dir, "node-a", script);
        await("the first launch training on node-a", () -> placedOn("node-a") && lastStep() > 0 ? true : null);
        first.terminate();
        assertThat(first.awaitExit(Duration.ofSeconds(90))).as(first.tail()).isNotNull();
        TorchrunAgent.Line saved = first.last("saved", l -> true);
        assertThat(saved).as(first.tail()).isNotNull();

        TorchrunAgent second = start(dir, "node-b", script);
        TorchrunAgent.Line resumed = await("the second launch resuming", () -> second.last("resumed", l -> true));
        assertThat(resumed.get("checkpoint")).isEqualTo(saved.get("checkpoint"));
        await("the second launch shown on node-b", () -> placedOn("node-b") ? true : null);

        JsonNode membership = getJson("/api/v1/jobs/" + JOB + "/membership");
        assertThat(membership.path("current").path("round").asInt())
                .as(membership.toString())
                .isZero();
        assertThat(membership.path("worldSize").asInt()).isEqualTo(1);
        assertThat(StreamSupport.stream(membership.path("rounds").spliterator(), false)
                        .map(r -> r.path("round").asInt())
                        .toList())
                .as("each launch's round 0")
                .containsExactly(0, 0);
        JsonNode detail = await("the job training again past the restored step", () -> {
            JsonNode d = getJson("/api/v1/jobs/" + JOB);
            return "running".equals(d.path("summary").path("state").asText())
                            && d.path("summary").path("lastStep").asLong() > resumed.step()
                    ? d
                    : null;
        });
        assertThat(detail.path("summary").path("worldSize").asInt()).isEqualTo(1);
        assertThat(drainDryRun("node-b").path("impact").path("jobs"))
                .as("a drain of node-b finds the job")
                .extracting(JsonNode::asText)
                .containsExactly(JOB);
        assertThat(drainDryRun("node-a").path("impact").path("jobs"))
                .as("node-a holds nothing of it now")
                .isEmpty();
        // The second launch's own checkpoint, not dropped as one of the first launch's.
        long past = resumed.step();
        TorchrunAgent.Line next =
                await("a periodic save of the second launch", () -> second.last("saved", l -> l.step() > past));
        await("that save reported", () -> hasCheckpoint(next.get("checkpoint")) ? true : null);
        assertThat(next.get("checkpoint")).isNotEqualTo(saved.get("checkpoint"));
    }

    private TorchrunAgent start(Path dir, String node, List<String> script) throws Exception {
        TorchrunAgent a = TorchrunAgent.start(
                "1",
                dir,
                app.url(),
                appToken(),
                JOB,
                node,
                LifelineProcess.freePort(),
                List.of("--max-restarts=1"),
                script,
                Map.of());
        agents.add(a);
        return a;
    }

    private static String appToken() throws Exception {
        return Files.readString(work.resolve(".lifeline/admin-token")).trim();
    }

    private static boolean placedOn(String node) throws Exception {
        JsonNode m = getJson("/api/v1/jobs/" + JOB + "/membership");
        if (m == null) {
            return false;
        }
        List<String> nodes = StreamSupport.stream(
                        m.path("current").path("participants").spliterator(), false)
                .map(p -> p.path("node").asText())
                .toList();
        return nodes.equals(List.of(node));
    }

    private static long lastStep() throws Exception {
        JsonNode d = getJson("/api/v1/jobs/" + JOB);
        return d == null ? -1 : d.path("summary").path("lastStep").asLong(-1);
    }

    private static boolean hasCheckpoint(String id) throws Exception {
        JsonNode h = getJson("/api/v1/jobs/" + JOB + "/checkpoints");
        for (JsonNode c : h == null ? JSON.createArrayNode() : h.path("checkpoints")) {
            if (id.equals(c.path("id").asText())) {
                return true;
            }
        }
        return false;
    }

    private static JsonNode drainDryRun(String node) throws Exception {
        HttpResponse<String> r = app.post(
                "/api/v1/actions",
                "application/json",
                "{\"kind\":\"drain\",\"target\":\"" + node
                        + "\",\"params\":{\"deadlineSeconds\":120},\"dryRun\":true}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    private static void postEvent(String type, String subject, String data) throws Exception {
        String id = type + "-" + subject + "-" + System.nanoTime();
        HttpResponse<String> r = app.post(
                "/api/v1/events",
                "application/cloudevents+json",
                "{\"specversion\":\"1.0\","
                        + "\"id\":\"" + id + "\",\"source\":\"it/relaunch\",\"type\":\"" + type + "\",\"subject\":\""
                        + subject
                        + "\",\"time\":\"" + Instant.now().truncatedTo(ChronoUnit.MILLIS) + "\",\"data\":" + data
                        + "}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    }

    private static JsonNode getJson(String path) throws Exception {
        HttpResponse<String> r = app.get(path);
        return r.statusCode() == 200 ? JSON.readTree(r.body()) : null;
    }

    /** Polls {@code probe} until it answers non-null (3 minutes at most); fails with the agents' log tails. */
    private <T> T await(String what, Callable<T> probe) {
        Object[] seen = new Object[1];
        try {
            Awaitility.await(what)
                    .atMost(Duration.ofMinutes(3))
                    .pollInterval(Duration.ofMillis(500))
                    .ignoreExceptions()
                    .until(() -> (seen[0] = probe.call()) != null);
        } catch (ConditionTimeoutException e) {
            StringBuilder logs = new StringBuilder();
            agents.forEach(
                    a -> logs.append("\n--- ").append(a.node()).append(" ---\n").append(a.tail()));
            throw new AssertionError("timed out waiting for " + what + logs, e);
        }
        @SuppressWarnings("unchecked")
        T value = (T) seen[0];
        return value;
    }
}
