package io.lifeline.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Stragglers end to end: the packaged application and real torchrun elastic agents (two "nodes" on 127.0.0.1, one
 * rank each, gloo on CPU) running {@code examples/elastic_train.py}, whose rank 1 is slowed on purpose in one run and
 * not in the other. The agents report every rank's step times every 2 s; Lifeline compares them per 5 s window and
 * flags after 3 slow windows (the defaults are 10 s, 30 s and 3).
 */
class StragglerIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final double STEP_SECONDS = 0.1;
    /** What the slowed rank sleeps more per step: it takes 2.5 times as long as its peer. */
    private static final double SLOW_SECONDS = 0.15;

    private static Path work;
    private static LifelineProcess app;
    private static String token;

    private final List<TorchrunAgent> agents = new ArrayList<>();

    @BeforeAll
    static void startLifeline() throws Exception {
        work = Files.createTempDirectory("lifeline-straggler-it");
        app = LifelineProcess.start(
                LifelineProcess.freePort(),
                work,
                work.resolve("lifeline.log"),
                "-Dlifeline.demo.enabled=false",
                "-Dlifeline.policies.default-mode=off",
                "-Dlifeline.stragglers.window=5s",
                "-Dlifeline.alerts.evaluation-interval=2s");
        app.awaitReady(Duration.ofSeconds(120));
        token = Files.readString(work.resolve(".lifeline/admin-token")).trim();
        app.useToken(token);
    }

    @AfterEach
    void stopAgents() throws Exception {
        for (TorchrunAgent a : agents) {
            a.close();
        }
        agents.clear();
    }

    @AfterAll
    static void stopLifeline() throws Exception {
        if (app != null) {
            app.stop();
            app.close();
        }
    }

    @Test
    void theSlowedRankIsFoundWithinTwoMinutesOnItsNodeAndTheDrainOfItsNodeIsOffered() throws Exception {
        String job = "train/slow-rank";
        startJob(
                job,
                Map.of(
                        "LIFELINE_EXAMPLE_SLOW_RANK",
                        "1",
                        "LIFELINE_EXAMPLE_SLOW_SECONDS",
                        Double.toString(SLOW_SECONDS)));
        awaitTraining(job);
        long t0 = System.nanoTime();
        JsonNode found = await("the straggler of " + job, Duration.ofMinutes(2), () -> {
            JsonNode v = getJson("/api/v1/jobs/" + job + "/stragglers");
            return v != null && v.path("stragglers").size() > 0 ? v : null;
        });
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.out.printf("StragglerIT: straggler found %.1f s after training began%n", seconds);

        JsonNode s = found.path("stragglers").get(0);
        assertThat(found.path("stragglers")).as(found.toString()).hasSize(1);
        assertThat(s.path("rank").asInt()).as(found.toString()).isEqualTo(1);
        String slowNode = nodeOfRank(job, 1);
        assertThat(slowNode).as("the membership places rank 1").isNotNull();
        assertThat(s.path("node").asText()).isEqualTo(slowNode);
        assertThat(agent(slowNode).lines("step").stream().anyMatch(l -> "1".equals(l.get("rank"))))
                .as("the node named is the one whose worker is rank 1")
                .isTrue();
        assertThat(s.path("gpuIndex").asInt()).isZero();
        assertThat(s.path("slowdown").asDouble()).as(found.toString()).isBetween(1.5, 4.0);
        assertThat(found.path("nodes").get(0).asText()).isEqualTo(slowNode);
        assertThat(found.path("suggestion").path("node").asText()).isEqualTo(slowNode);
        assertThat(found.path("suggestion").path("withinElasticBounds").asBoolean())
                .as("--nnodes=1:2: the job may lose one of its two nodes")
                .isTrue();
        assertThat(found.path("gpuHoursLost").asDouble()).isPositive();
        // The job detail carries the same, and the metric counts it.
        JsonNode detail = getJson("/api/v1/jobs/" + job);
        assertThat(detail.path("stragglers")
                        .path("stragglers")
                        .get(0)
                        .path("rank")
                        .asInt())
                .isEqualTo(1);
        // /metrics is published from the model's snapshots on their own interval: it follows the REST read shortly.
        java.util.regex.Pattern one =
                java.util.regex.Pattern.compile("lifeline_job_stragglers\\{[^}]*job_name=\"" + job + "\"[^}]*\\} 1");
        await(
                "lifeline_job_stragglers 1",
                Duration.ofSeconds(30),
                () -> one.matcher(app.get("/metrics").body()).find() ? true : null);
        JsonNode alerts = await("the straggler alert", Duration.ofSeconds(30), () -> {
            for (JsonNode a : getJson("/api/v1/alerts?rule=straggler").path("alerts")) {
                if ("JobStraggler".equals(a.path("labels").path("alertname").asText())
                        && slowNode.equals(a.path("labels").path("node").asText())) {
                    return a;
                }
            }
            return null;
        });
        assertThat(alerts.path("labels").path("job").asText()).isEqualTo(job);
    }

    @Test
    void aHealthyRunOfTheSameJobReportsNoStraggler() throws Exception {
        String job = "train/healthy";
        startJob(job, Map.of());
        awaitTraining(job);
        long end = System.nanoTime() + Duration.ofSeconds(50).toNanos();
        JsonNode v = null;
        while (System.nanoTime() < end) {
            v = getJson("/api/v1/jobs/" + job + "/stragglers");
            assertThat(v.path("stragglers"))
                    .as("no straggler in a healthy run: " + v)
                    .isEmpty();
            Thread.sleep(1000);
        }
        assertThat(v.path("windows").asLong()).as("windows were judged: " + v).isGreaterThanOrEqualTo(6);
        assertThat(v.path("ranksReporting").asInt()).isEqualTo(2);
        assertThat(v.path("gpuHoursLost").asDouble()).isZero();
        assertThat(v.path("suggestion").isNull()).isTrue();
    }

    // ------------------------------------------------------------------------------------------------ helpers

    private void startJob(String job, Map<String, String> slow) throws Exception {
        int rdzv = LifelineProcess.freePort();
        Path dir = Files.createDirectories(work.resolve(job.replace('/', '-')));
        List<String> args = List.of(
                "--steps",
                "100000",
                "--step-time",
                Double.toString(STEP_SECONDS),
                "--checkpoint-every",
                "0",
                "--checkpoint-dir",
                dir.resolve("checkpoints").toString());
        Map<String, String> env = new java.util.HashMap<>(slow);
        env.put("LIFELINE_STEP_TIMES_INTERVAL", "2");
        // Each rank stands for a GPU (the agent finds none on CPU and would declare a CPU job, which holds no GPU-hours
        // to lose): the job is declared as the GPU job it plays.
        env.put("LIFELINE_GPUS_PER_NODE", "1");
        agents.add(TorchrunAgent.start(
                dir, app.url(), token, job, "node-a", rdzv, List.of("--max-restarts=3"), args, env));
        await("the rendezvous store", Duration.ofSeconds(90), () -> listening(rdzv) ? true : null);
        agents.add(TorchrunAgent.start(
                dir, app.url(), token, job, "node-b", rdzv, List.of("--max-restarts=3"), args, env));
    }

    private void awaitTraining(String job) {
        await(job + " training at world size 2", Duration.ofSeconds(150), () -> {
            JsonNode d = getJson("/api/v1/jobs/" + job);
            return d != null
                            && d.path("summary").path("worldSize").asInt() == 2
                            && d.path("summary").path("lastStep").asLong() > 0
                    ? true
                    : null;
        });
    }

    private static String nodeOfRank(String job, int rank) throws Exception {
        JsonNode m = getJson("/api/v1/jobs/" + job + "/membership");
        for (JsonNode p : m.path("placement")) {
            int first = p.path("firstRank").asInt();
            if (rank >= first && rank < first + p.path("rankCount").asInt()) {
                return p.path("node").asText();
            }
        }
        return null;
    }

    private TorchrunAgent agent(String node) {
        return agents.stream().filter(a -> a.node().equals(node)).findFirst().orElseThrow();
    }

    private static boolean listening(int port) {
        try (java.net.Socket s = new java.net.Socket()) {
            s.connect(new java.net.InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    private static JsonNode getJson(String path) throws Exception {
        HttpResponse<String> r = app.get(path);
        return r.statusCode() == 200 ? JSON.readTree(r.body()) : null;
    }

    private <T> T await(String what, Duration timeout, Callable<T> probe) {
        Object[] seen = new Object[1];
        try {
            Awaitility.await(what)
                    .atMost(timeout)
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
