package io.lifeline.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.quarkus.test.kubernetes.client.KubernetesServer;
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
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The trainer agent end to end: the packaged Lifeline (as the quick start runs it, demo off, the notice policy on,
 * the Kubernetes connector against the fabric8 mock API server), real torchrun elastic agents running
 * {@code examples/elastic_train.py} through {@code python -m lifeline_agent.run}, two "nodes" on 127.0.0.1 per job.
 * Everything Lifeline knows is read through its REST API; what the trainers really did, from the script's own log.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TrainerAgentIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NS = "train";
    /** Seconds one training step takes (the example sleeps that long per step). */
    private static final double STEP_SECONDS = 0.1;

    private static KubernetesServer cluster;
    private static Path work;
    private static LifelineProcess app;
    private static String token;

    private final List<TorchrunAgent> agents = new ArrayList<>();

    @BeforeAll
    static void startLifeline() throws Exception {
        cluster = new KubernetesServer(false, true, java.net.InetAddress.getLoopbackAddress(), 0, List.of());
        cluster.before();
        for (String node : List.of(
                "node-a", "node-b", "node-c", "node-d", "node-e", "node-f", "node-g", "node-h", "node-i", "node-j")) {
            cluster.getClient()
                    .nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName(node)
                            .endMetadata()
                            .build())
                    .create();
        }
        work = Files.createTempDirectory("lifeline-agent-it");
        app = startApp(LifelineProcess.freePort());
        token = Files.readString(work.resolve(".lifeline/admin-token")).trim();
        app.useToken(token);
    }

    private static LifelineProcess startApp(int port) throws Exception {
        List<String> props = new ArrayList<>(List.of(
                "-Dlifeline.demo.enabled=false",
                "-Dlifeline.policies.default-mode=off",
                "-Dlifeline.policies.mode.notice-checkpoint-drain=on",
                "-Dlifeline.connectors.kubernetes.enabled=true",
                "-Dquarkus.kubernetes-client.api-server-url="
                        + cluster.getKubernetesMockServer().url("/"),
                "-Dquarkus.kubernetes-client.trust-certs=true"));
        for (String kind : List.of("nodes", "pods", "events", "pytorchjobs", "kueue", "volcano")) {
            props.add("-Dlifeline.connectors.kubernetes." + kind + ".enabled=false");
        }
        LifelineProcess p =
                LifelineProcess.start(port, work, work.resolve("lifeline.log"), props.toArray(String[]::new));
        p.awaitReady(Duration.ofSeconds(120));
        if (token != null) {
            p.useToken(token);
        }
        return p;
    }

    @AfterEach
    void stopAgents() throws Exception {
        for (TorchrunAgent a : agents) {
            a.close();
        }
    }

    @AfterAll
    static void stopLifeline() throws Exception {
        if (app != null) {
            app.stop();
            app.close();
        }
        if (cluster != null) {
            cluster.after();
        }
    }

    // ------------------------------------------------------------------------------------------------ scenarios

    /** Two agents: the job, its rendezvous rounds, world size and ranks per node, progress, periodic checkpoints. */
    @Test
    @Order(1)
    void twoAgentsShowTheJobItsMembershipProgressAndCheckpointsAndObeyACheckpointNow() throws Exception {
        String job = NS + "/basic";
        startJob(job, "node-a", "node-b", List.of("--checkpoint-every", "30"));

        JsonNode detail = await("the job training at world size 2", Duration.ofSeconds(120), () -> {
            JsonNode d = getJson("/api/v1/jobs/" + job);
            return d != null
                            && d.path("summary").path("worldSize").asInt() == 2
                            && d.path("summary").path("lastStep").asLong() > 0
                    ? d
                    : null;
        });
        assertThat(detail.path("summary").path("state").asText()).isEqualTo("running");
        JsonNode membership = getJson("/api/v1/jobs/" + job + "/membership");
        assertThat(membership.path("rounds").size()).isGreaterThanOrEqualTo(1);
        List<String> placed = StreamSupport.stream(
                        membership.path("current").path("participants").spliterator(), false)
                .map(p -> p.path("node").asText() + ":" + p.path("firstRank").asInt() + "+"
                        + p.path("rankCount").asInt())
                .sorted()
                .toList();
        assertThat(placed).hasSize(2).allMatch(s -> s.endsWith("+1"));
        assertThat(placed.stream().map(s -> s.substring(0, s.indexOf(':'))).toList())
                .containsExactly("node-a", "node-b");
        assertThat(placed.stream()
                        .map(s -> s.substring(s.indexOf(':') + 1, s.indexOf('+')))
                        .sorted()
                        .toList())
                .containsExactly("0", "1");

        // Periodic checkpoints, with the time the trainers were blocked by each save.
        JsonNode periodic = await("a periodic checkpoint", Duration.ofSeconds(90), () -> goodCheckpoint(job, 0));
        assertThat(periodic.path("blockingMillis").isNumber())
                .as(periodic.toString())
                .isTrue();
        assertThat(periodic.path("durationMillis").isNumber()).isTrue();
        assertThat(periodic.path("bytes").asLong()).isPositive();
        assertThat(periodic.path("uri").asText()).startsWith("file:");
        assertThat(periodic.path("worldSize").asInt()).isEqualTo(2);
        assertThat(agent("node-a").lines("saved")).anyMatch(l -> "periodic".equals(l.get("reason")));

        // checkpoint-now through the REST API reaches the agent; a real file is written, verified and reported.
        long before = newestGoodStep(job);
        String action = postAction("{\"kind\":\"checkpoint-now\",\"target\":\"" + job + "\",\"reason\":\"it\"}");
        JsonNode done = awaitActionEnd(action, Duration.ofSeconds(120));
        assertThat(done.path("state").asText()).as(done.toString()).isEqualTo("succeeded");
        JsonNode saved = goodCheckpoint(job, before + 1);
        assertThat(saved).isNotNull();
        TorchrunAgent.Line onDisk = agent("node-a").last("saved", l -> "command".equals(l.get("reason")));
        assertThat(onDisk).as(agent("node-a").tail()).isNotNull();
        assertThat(saved.path("id").asText()).isEqualTo(onDisk.get("checkpoint"));
        Path file = Path.of(java.net.URI.create(saved.path("uri").asText()));
        assertThat(file).exists();
        await(
                "the checkpoint verified",
                Duration.ofSeconds(30),
                () -> "verified"
                                .equals(checkpoint(job, saved.path("id").asText())
                                        .path("status")
                                        .asText())
                        ? true
                        : null);
        JsonNode freshness = getJson("/api/v1/jobs/" + job + "/freshness");
        assertThat(freshness.path("ageMillis").asLong())
                .as(freshness.toString())
                .isLessThan(30_000);
    }

    /**
     * A spot-notice drill: the notice policy drains the node; {@code prepare_exit} reaches the ranks, the save lands
     * before the deadline; the node's torchrun is then stopped as an eviction would; the job goes on on the other node
     * at world size 1 from that very checkpoint: no step lost, by the script's log and by Lifeline's accounting.
     */
    @Test
    @Order(2)
    void aSpotNoticeIsAnsweredBySaveAndDrainAndNoStepIsLost() throws Exception {
        String job = NS + "/drill";
        startJob(job, "node-c", "node-d", List.of("--checkpoint-every", "100000"));
        awaitTraining(job, 2);

        Instant deadline = Instant.now().plusSeconds(120).truncatedTo(ChronoUnit.SECONDS);
        postEvent(
                "node.interruption_notice",
                "node-d",
                Instant.now(),
                "{\"kind\":\"spot_reclaim\",\"provider\":\"aws\"," + "\"deadline\":\"" + deadline + "\"}");
        TorchrunAgent going = agent("node-d");
        TorchrunAgent staying = agent("node-c");
        TorchrunAgent.Line save = await(
                "the prepare_exit save",
                Duration.ofSeconds(60),
                () -> staying.last("saved", l -> "prepare_exit".equals(l.get("reason"))));
        long savedStep = save.step();
        JsonNode landed = await(
                "the save reported",
                Duration.ofSeconds(30),
                () -> checkpoint(job, save.get("checkpoint")).path("good").asBoolean()
                        ? checkpoint(job, save.get("checkpoint"))
                        : null);
        assertThat(Instant.parse(landed.path("completedAt").asText())).isBefore(deadline);
        await(
                "both nodes holding",
                Duration.ofSeconds(30),
                () -> going.last("holding", l -> true) != null && staying.last("holding", l -> true) != null
                        ? true
                        : null);
        long lastBeforeStop = staying.lastStep();

        going.terminate();
        assertThat(going.awaitExit(Duration.ofSeconds(60))).as(going.tail()).isNotNull();
        postEvent("node.terminated", "node-d", Instant.now(), "{\"reason\":\"spot reclaimed\"}");

        TorchrunAgent.Line resumed = await(
                "the survivor resuming alone",
                Duration.ofSeconds(180),
                () -> staying.last("resumed", l -> "1".equals(l.get("world"))));
        assertThat(resumed.get("checkpoint")).isEqualTo(save.get("checkpoint"));
        assertThat(resumed.step()).isEqualTo(savedStep);
        assertThat(lastBeforeStop).as("no step past the save before the stop").isEqualTo(savedStep);
        await(
                "training again at world size 1",
                Duration.ofSeconds(60),
                () -> staying.lastStep() > savedStep + 5 ? true : null);

        JsonNode action = await("the drain action", Duration.ofSeconds(10), () -> firstAction("drain", "node-d"));
        assertThat(action.path("requestedBy").asText()).isEqualTo("policy:notice-checkpoint-drain");
        JsonNode incident = await("the incident", Duration.ofSeconds(60), () -> closedIncident(job));
        assertThat(incident.path("lostReworkMillis").asLong())
                .as(incident.toString())
                .isZero();
        assertThat(incident.path("checkpointBeforeExit").asBoolean()).isTrue();
        // The script's own record: training stopped when the ranks began to hold, and moved again at the survivor's
        // first step after its restore; the incident's downtime is that, within a second.
        ScriptRecord.Interruption truth = record(job)
                .interruption(record(job).last("resumed", e -> e.path("world").asInt() == 1));
        assertThat(truth.lostSteps()).isZero();
        assertMatches(job, incident, truth);
        assertThat(getJson("/api/v1/jobs/" + job)
                        .path("summary")
                        .path("worldSize")
                        .asInt())
                .isEqualTo(1);
    }

    /** SIGKILL of one node, no notice: the other goes on; the incident's lost rework is the steps since the save. */
    @Test
    @Order(3)
    void aNodeKilledWithoutNoticeLosesTheStepsSinceTheLastCheckpoint() throws Exception {
        String job = NS + "/kill";
        startJob(job, "node-e", "node-f", List.of("--checkpoint-every", "40"));
        awaitTraining(job, 2);
        TorchrunAgent victim = agent("node-f");
        TorchrunAgent survivor = agent("node-e");
        TorchrunAgent.Line ckpt = await(
                "a periodic save",
                Duration.ofSeconds(90),
                () -> survivor.last("saved", l -> "periodic".equals(l.get("reason")) && l.step() > 0));
        // Some steps past that save, but well before the next one.
        await(
                "steps past the save",
                Duration.ofSeconds(60),
                () -> survivor.lastStep() >= ckpt.step() + 15 ? true : null);
        long killedAt = System.nanoTime();
        victim.killNode();
        TorchrunAgent.Line resumed = await(
                "the survivor resuming alone",
                Duration.ofSeconds(180),
                () -> survivor.last("resumed", l -> "1".equals(l.get("world"))));
        // The work thrown away: every step the survivor finished before its restart, past the checkpoint.
        long lastStep = survivor.lines("step").stream()
                .filter(l -> l.atNanos() < resumed.atNanos())
                .mapToLong(TorchrunAgent.Line::step)
                .max()
                .orElseThrow();
        long resumedFrom = resumed.step();
        long newestSave = survivor.lines("saved").stream()
                .filter(l -> l.atNanos() < resumed.atNanos())
                .mapToLong(TorchrunAgent.Line::step)
                .max()
                .orElseThrow();
        assertThat(resumedFrom).isEqualTo(newestSave);
        long lostSteps = lastStep - resumedFrom;
        assertThat(lostSteps).isPositive();

        JsonNode incident = await("the incident with its lost rework", Duration.ofSeconds(90), () -> {
            JsonNode i = closedIncident(job);
            return i != null && i.path("lostReworkMillis").asLong() > 0 ? i : null;
        });
        double stepMillis = measuredStepMillis(survivor, ckpt.atNanos(), killedAt);
        double lostByLifeline = incident.path("lostReworkMillis").asLong() / stepMillis;
        assertThat(lostByLifeline)
                .as(
                        "Lifeline's lost rework in steps (%s ms a step) vs the log's %s steps; %s",
                        stepMillis, lostSteps, incident)
                .isBetween(lostSteps - 1.5, lostSteps + 1.5);
        assertThat(incident.path("checkpointBeforeExit").asBoolean()).isFalse();
        // The script's own record: training stopped at the survivor's last step before its restart (the kill), and
        // moved again at its first step after the restore; the steps thrown away took as long as Lifeline says.
        ScriptRecord.Interruption truth = record(job)
                .interruption(record(job).last("resumed", e -> e.path("world").asInt() == 1));
        assertThat(truth.lostSteps()).isEqualTo(lostSteps);
        assertMatches(job, incident, truth);
    }

    /** SIGTERM only, as a scheduler preempts: the emergency save lands, is verified, and the incident says so. */
    @Test
    @Order(4)
    void aSigtermAloneGetsAnEmergencyCheckpointThatIsVerified() throws Exception {
        String job = NS + "/sigterm";
        startJob(job, "node-g", "node-h", List.of("--checkpoint-every", "100000"));
        awaitTraining(job, 2);
        TorchrunAgent preempted = agent("node-h");
        TorchrunAgent other = agent("node-g");
        await("a few steps", Duration.ofSeconds(60), () -> other.lastStep() >= 20 ? true : null);

        preempted.terminate();
        TorchrunAgent.Line emergency = await(
                "the emergency save",
                Duration.ofSeconds(60),
                () -> firstNonNull(
                        preempted.last("saved", l -> "signal".equals(l.get("reason"))),
                        other.last("saved", l -> "signal".equals(l.get("reason")))));
        assertThat(preempted.awaitExit(Duration.ofSeconds(60)))
                .as(preempted.tail())
                .isNotNull();
        JsonNode reported = await("the emergency save verified", Duration.ofSeconds(60), () -> {
            JsonNode c = checkpoint(job, emergency.get("checkpoint"));
            return "verified".equals(c.path("status").asText()) ? c : null;
        });
        assertThat(reported.path("step").asLong()).isEqualTo(emergency.step());
        JsonNode incident = await("the incident", Duration.ofSeconds(120), () -> closedIncident(job));
        assertThat(incident.path("checkpointBeforeExit").asBoolean())
                .as(incident.toString())
                .isTrue();
    }

    /**
     * A save that cannot finish inside torchrun's SIGTERM-to-SIGKILL window is reported as failed, not done: a job of
     * one node whose saves take a minute, stopped with an eight-second window.
     */
    @Test
    @Order(5)
    void anEmergencySaveThatCannotFinishInTheWindowIsReportedFailed() throws Exception {
        String job = NS + "/slow-save";
        postEvent(
                "node.registered",
                "node-i",
                Instant.now(),
                "{\"pool\":\"spot-cpu\",\"capacityType\":\"spot\"," + "\"gpuCount\":0}");
        Path dir = Files.createDirectories(work.resolve(job.replace('/', '-')));
        TorchrunAgent preempted = TorchrunAgent.start(
                "1",
                dir,
                app.url(),
                token,
                job,
                "node-i",
                LifelineProcess.freePort(),
                List.of("--max-restarts=0", "--shutdown-timeout=8"),
                List.of(
                        "--steps",
                        "100000",
                        "--step-time",
                        Double.toString(STEP_SECONDS),
                        "--checkpoint-dir",
                        dir.resolve("checkpoints").toString(),
                        "--checkpoint-every",
                        "100000",
                        "--save-delay",
                        "60"),
                TorchrunAgent.env("LIFELINE_SHUTDOWN_TIMEOUT", "8"));
        agents.add(preempted);
        awaitTraining(job, 1);
        await("a few steps", Duration.ofSeconds(60), () -> preempted.lastStep() >= 10 ? true : null);
        preempted.terminate();
        assertThat(preempted.awaitExit(Duration.ofSeconds(60)))
                .as(preempted.tail())
                .isNotNull();
        JsonNode failed = await("the emergency save reported failed", Duration.ofSeconds(60), () -> {
            for (JsonNode c : getJson("/api/v1/jobs/" + job + "/checkpoints").path("checkpoints")) {
                if ("failed".equals(c.path("status").asText())) {
                    return c;
                }
            }
            return null;
        });
        assertThat(failed.path("error").asText()).isNotBlank();
        assertThat(goodCheckpoint(job, 1))
                .as("no emergency save reported as done")
                .isNull();
        assertThat(preempted.lines("saved"))
                .as("the script never saw the save finish")
                .isEmpty();
    }

    /**
     * Lifeline stopped mid-run: training goes on at the same speed; what the agents buffered arrives once Lifeline
     * is back on the same address.
     */
    @Test
    @Order(6)
    void trainingGoesOnWhileLifelineIsDownAndTheBufferedEventsArriveAfter() throws Exception {
        String job = NS + "/outage";
        startJob(job, "node-a", "node-b", List.of("--checkpoint-every", "25"));
        awaitTraining(job, 2);
        TorchrunAgent a = agent("node-a");
        double before = stepsPerSecond(a, Duration.ofSeconds(8));
        int port = app.port();
        app.stop();
        app.close();
        long downAt = System.nanoTime();
        double during = stepsPerSecond(a, Duration.ofSeconds(15));
        List<TorchrunAgent.Line> savedWhileDown =
                a.lines("saved").stream().filter(l -> l.atNanos() > downAt).toList();
        assertThat(during)
                .as("steps/s while Lifeline is down vs before (%s)", before)
                .isGreaterThan(before * 0.8);
        assertThat(savedWhileDown).as("periodic saves while Lifeline was down").isNotEmpty();
        assertThat(a.alive()).isTrue();

        app = startApp(port);
        for (TorchrunAgent.Line l : savedWhileDown) {
            await(
                    "checkpoint " + l.get("checkpoint") + " delivered after the outage",
                    Duration.ofSeconds(90),
                    () -> checkpoint(job, l.get("checkpoint")).path("good").asBoolean() ? true : null);
        }
    }

    // ------------------------------------------------------------------------------------------------ helpers

    private void startJob(String job, String nodeA, String nodeB, List<String> script) throws Exception {
        startJob(job, nodeA, nodeB, script, List.of(), Map.of());
    }

    private void startJob(
            String job, String nodeA, String nodeB, List<String> script, List<String> torchrun, Map<String, String> env)
            throws Exception {
        for (String node : List.of(nodeA, nodeB)) {
            postEvent(
                    "node.registered",
                    node,
                    Instant.now(),
                    "{\"pool\":\"spot-cpu\",\"capacityType\":\"spot\"," + "\"gpuCount\":0}");
            postEvent("node.ready", node, Instant.now(), "{}");
        }
        int rdzv = LifelineProcess.freePort();
        Path dir = Files.createDirectories(work.resolve(job.replace('/', '-')));
        List<String> args = new ArrayList<>(List.of(
                "--steps",
                "100000",
                "--step-time",
                Double.toString(STEP_SECONDS),
                "--checkpoint-dir",
                dir.resolve("checkpoints").toString(),
                "--record",
                record(job).file().toString()));
        args.addAll(script);
        List<String> opts = new ArrayList<>(List.of("--max-restarts=3"));
        opts.addAll(torchrun);
        // The first agent hosts the rendezvous store (c10d): start it first, so that the node a scenario stops is
        // never the store's host (as in production, where the rendezvous host runs on on-demand capacity).
        agents.add(TorchrunAgent.start(dir, app.url(), token, job, nodeA, rdzv, opts, args, env));
        await("the rendezvous store on " + nodeA, Duration.ofSeconds(90), () -> listening(rdzv) ? true : null);
        agents.add(TorchrunAgent.start(dir, app.url(), token, job, nodeB, rdzv, opts, args, env));
    }

    private static boolean listening(int port) {
        try (java.net.Socket s = new java.net.Socket()) {
            s.connect(new java.net.InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    private TorchrunAgent agent(String node) {
        return agents.stream().filter(a -> a.node().equals(node)).findFirst().orElseThrow();
    }

    private void awaitTraining(String job, int worldSize) throws Exception {
        await(job + " training at world size " + worldSize, Duration.ofSeconds(150), () -> {
            JsonNode d = getJson("/api/v1/jobs/" + job);
            return d != null
                            && d.path("summary").path("worldSize").asInt() == worldSize
                            && d.path("summary").path("lastStep").asLong() > 0
                    ? true
                    : null;
        });
    }

    private static void postEvent(String type, String subject, Instant time, String data) throws Exception {
        String id = type + "-" + subject + "-" + System.nanoTime();
        HttpResponse<String> r = app.post(
                "/api/v1/events",
                "application/cloudevents+json",
                "{\"specversion\":\"1.0\","
                        + "\"id\":\"" + id + "\",\"source\":\"it/agent\",\"type\":\"" + type + "\",\"subject\":\""
                        + subject
                        + "\",\"time\":\"" + time.truncatedTo(ChronoUnit.MILLIS) + "\",\"data\":" + data + "}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(JSON.readTree(r.body()).path("accepted").asInt())
                .as(r.body())
                .isEqualTo(1);
    }

    private static String postAction(String body) throws Exception {
        HttpResponse<String> r = app.post("/api/v1/actions", "application/json", body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        return JSON.readTree(r.body()).path("id").asText();
    }

    private JsonNode awaitActionEnd(String id, Duration timeout) throws Exception {
        return await("action " + id + " ended", timeout, () -> {
            JsonNode a = getJson("/api/v1/actions/" + id);
            return a != null
                            && List.of("succeeded", "failed", "cancelled")
                                    .contains(a.path("state").asText())
                    ? a
                    : null;
        });
    }

    private static JsonNode firstAction(String kind, String target) throws Exception {
        for (JsonNode a : getJson("/api/v1/actions?limit=100").path("items")) {
            if (kind.equals(a.path("kind").asText())
                    && target.equals(a.path("target").asText())) {
                return a;
            }
        }
        return null;
    }

    private static JsonNode getJson(String path) throws Exception {
        HttpResponse<String> r = app.get(path);
        return r.statusCode() == 200 ? JSON.readTree(r.body()) : null;
    }

    /** The newest good checkpoint at or past {@code minStep}, or null. */
    private static JsonNode goodCheckpoint(String job, long minStep) throws Exception {
        JsonNode best = null;
        JsonNode h = getJson("/api/v1/jobs/" + job + "/checkpoints");
        for (JsonNode c : h == null ? JSON.createArrayNode() : h.path("checkpoints")) {
            if (c.path("good").asBoolean()
                    && c.path("step").asLong() >= minStep
                    && (best == null
                            || c.path("step").asLong() > best.path("step").asLong())) {
                best = c;
            }
        }
        return best;
    }

    private static long newestGoodStep(String job) throws Exception {
        JsonNode c = goodCheckpoint(job, 0);
        return c == null ? -1 : c.path("step").asLong();
    }

    private static JsonNode checkpoint(String job, String id) throws Exception {
        JsonNode h = getJson("/api/v1/jobs/" + job + "/checkpoints");
        for (JsonNode c : h == null ? JSON.createArrayNode() : h.path("checkpoints")) {
            if (id.equals(c.path("id").asText())) {
                return c;
            }
        }
        return JSON.createObjectNode();
    }

    private static ScriptRecord record(String job) {
        return new ScriptRecord(work.resolve(job.replace('/', '-')).resolve("record.jsonl"));
    }

    /**
     * The incident's figures against the script's record, within a second each ({@link ScriptRecord#compare}); and the
     * job's goodput buckets, where this incident is all there is to them.
     */
    private static void assertMatches(String job, JsonNode incident, ScriptRecord.Interruption truth) throws Exception {
        JsonNode goodput = getJson("/api/v1/jobs/" + job).path("goodput");
        assertThat(ScriptRecord.compare(job, incident, truth)).isEmpty();
        double lost = incident.path("lostReworkMillis").asLong() / 1000.0;
        String why = incident + " " + goodput;
        // The job's only incident: its lost work is the job's, and its downtime is within the buckets of the job that
        // hold no training (recovery, and the pause of a hold).
        assertThat(goodput.path("lostReworkMillis").asLong() / 1000.0)
                .as("goodput's lost rework; %s", why)
                .isCloseTo(lost, within(1.0));
        assertThat(goodput.path("recoveryMillis").asLong())
                .as("goodput's recovery; %s", why)
                .isGreaterThanOrEqualTo(incident.path("recoveryMillis").asLong());
        assertThat(goodput.path("recoveryMillis").asLong()
                        + goodput.path("rescaleMillis").asLong()
                        + goodput.path("waitingMillis").asLong()
                        + goodput.path("hangMillis").asLong())
                .as("goodput's stopped time; %s", why)
                .isGreaterThanOrEqualTo(incident.path("downtimeMillis").asLong());
    }

    /** The job's newest incident once it is closed (the job trains again), or null. */
    private static JsonNode closedIncident(String job) throws Exception {
        JsonNode list = getJson("/api/v1/jobs/" + job + "/incidents");
        if (list == null || list.isEmpty()) {
            return null;
        }
        JsonNode newest = list.get(list.size() - 1);
        return newest.path("closedAt").isTextual() ? newest : null;
    }

    /** Steps per second seen in the log over the next {@code window}. */
    private static double stepsPerSecond(TorchrunAgent a, Duration window) throws InterruptedException {
        long first = a.lastStep();
        long t0 = System.nanoTime();
        Thread.sleep(window.toMillis());
        return (a.lastStep() - first) / ((System.nanoTime() - t0) / 1e9);
    }

    /** Milliseconds a step took between two moments, from the log's stamps of the steps in between. */
    private static double measuredStepMillis(TorchrunAgent a, long fromNanos, long untilNanos) {
        List<TorchrunAgent.Line> steps = a.lines("step").stream()
                .filter(l -> l.atNanos() >= fromNanos && l.atNanos() <= untilNanos)
                .toList();
        if (steps.size() < 2) {
            return STEP_SECONDS * 1000;
        }
        TorchrunAgent.Line first = steps.get(0);
        TorchrunAgent.Line last = steps.get(steps.size() - 1);
        return (last.atNanos() - first.atNanos()) / 1e6 / Math.max(1, last.step() - first.step());
    }

    private static <T> T firstNonNull(T a, T b) {
        return a != null ? a : b;
    }

    /** Polls {@code probe} until it answers non-null; fails with the agents' log tails when the time runs out. */
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
