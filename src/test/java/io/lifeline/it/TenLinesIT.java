package io.lifeline.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The "Ten lines" of docs/trainer-agent.md, taken from the document itself, run for real: a tiny model and training
 * step around them, two torchrun agents through {@code python -m lifeline_agent.run} on CPU, against the packaged
 * Lifeline with the notice policy on (the quick start's way, the Kubernetes connector against the fabric8 mock API
 * server). The spot drill of that document, with the checkpoint directory shared by the nodes and again on each node's own
 * disk: a checkpoint-now, a spot notice for one node, that node killed at the notice's deadline; then the whole job
 * stopped and launched again with the same rdzv id on another node, and the drill again. The steps lost are read from
 * the script's own output, and must be none.
 */
class TenLinesIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path DOC = Path.of("docs", "trainer-agent.md");
    /** The literal the Ten lines name their checkpoint directory with; the test points it elsewhere. */
    private static final String DOC_DIRECTORY = "\"/shared/checkpoints\"";

    private static final String DOC_DURABLE = "durable=True";
    /** Seconds between a spot notice and its deadline, when the node is killed. */
    private static final long NOTICE_SECONDS = 45;

    private static KubernetesServer cluster;
    private static Path work;
    private static LifelineProcess app;
    private static String token;

    private final List<TorchrunAgent> agents = new ArrayList<>();

    @BeforeAll
    static void startLifeline() throws Exception {
        cluster = new KubernetesServer(false, true, java.net.InetAddress.getLoopbackAddress(), 0, List.of());
        cluster.before();
        for (String node : List.of("ten-a", "ten-b", "ten-c", "ten-d", "ten-e", "ten-f")) {
            cluster.getClient()
                    .nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName(node)
                            .endMetadata()
                            .build())
                    .create();
        }
        work = Files.createTempDirectory("lifeline-ten-lines-it");
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
        app = LifelineProcess.start(
                LifelineProcess.freePort(), work, work.resolve("lifeline.log"), props.toArray(String[]::new));
        app.awaitReady(Duration.ofSeconds(120));
        token = Files.readString(work.resolve(".lifeline/admin-token")).trim();
        app.useToken(token);
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
        if (cluster != null) {
            cluster.after();
        }
    }

    // ------------------------------------------------------------------------------------------------ the Ten lines

    /** The code block under "## Ten lines" in docs/trainer-agent.md, as written there. */
    static String tenLines() throws Exception {
        String doc = Files.readString(DOC, StandardCharsets.UTF_8);
        int section = doc.indexOf("\n## Ten lines\n");
        assertThat(section).as("a \"## Ten lines\" section in %s", DOC).isPositive();
        Matcher m = Pattern.compile("```python\\R(.*?)^```", Pattern.MULTILINE | Pattern.DOTALL)
                .matcher(doc.substring(section));
        assertThat(m.find()).as("a python block in the Ten lines").isTrue();
        return m.group(1);
    }

    /**
     * The Ten lines as a job runs them: the directory they name replaced by the one the test gives each node
     * ({@code TEN_LINES_CHECKPOINTS}), and, for a directory on each node's own disk, {@code durable=True} by
     * {@code durable=False}. Both appear in the document exactly once, or the substitution would not be the document's.
     */
    static String tenLinesFor(boolean shared) throws Exception {
        String lines = tenLines();
        assertThat(occurrences(lines, DOC_DIRECTORY))
                .as("the Ten lines name %s once", DOC_DIRECTORY)
                .isOne();
        assertThat(occurrences(lines, DOC_DURABLE))
                .as("the Ten lines declare %s once", DOC_DURABLE)
                .isOne();
        String out = lines.replace(DOC_DIRECTORY, "os.environ[\"TEN_LINES_CHECKPOINTS\"]");
        return shared ? out : out.replace(DOC_DURABLE, "durable=False");
    }

    private static int occurrences(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }

    /**
     * What the Ten lines need around them (a model, an optimizer, a training step, the number of steps) and what the
     * test reads: the {@code LIFELINE_EXAMPLE} lines of examples/elastic_train.py, said by wrapping the checkpoint
     * manager's save and restore and the agent's hold, so the Ten lines themselves stay as written.
     */
    private static final String HARNESS = """
            import os
            import sys
            import time

            import torch
            import torch.distributed as dist
            import torch.nn as nn

            import lifeline_agent
            import lifeline_agent.checkpoint as _checkpoint

            dist.init_process_group("gloo")
            rank, world = dist.get_rank(), dist.get_world_size()
            total_steps = int(os.environ.get("TEN_LINES_STEPS", "100000"))
            step_seconds = float(os.environ.get("TEN_LINES_STEP_SECONDS", "0.1"))
            global_batch = 8 * world


            def out(line):
                sys.stdout.write("LIFELINE_EXAMPLE " + line + "\\n")
                sys.stdout.flush()


            _save, _restore, _init = (_checkpoint.CheckpointManager.save, _checkpoint.CheckpointManager.restore,
                                      lifeline_agent.init)


            def _said_save(self, step, *args, **kwargs):
                info = _save(self, step, *args, **kwargs)
                out("saved step=%d checkpoint=%s reason=%s rank=%d" % (step, info.checkpoint_id,
                                                                       kwargs.get("reason", "periodic"), rank))
                return info


            def _said_restore(self, *args, **kwargs):
                r = _restore(self, *args, **kwargs)
                out("resumed step=%d checkpoint=%s world=%d rank=%d" % (r.step if r else 0,
                                                                        r.checkpoint_id if r else "none", world, rank))
                return r


            def _said_init(*args, **kwargs):
                a = _init(*args, **kwargs)
                a.on("hold", lambda s: out("holding step=%d rank=%d" % (s, rank)))
                a.on("resume", lambda s: out("hold_ended step=%d rank=%d" % (s, rank)))
                return a


            _checkpoint.CheckpointManager.save = _said_save
            _checkpoint.CheckpointManager.restore = _said_restore
            lifeline_agent.init = _said_init

            torch.manual_seed(0)
            net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
            model = nn.parallel.DistributedDataParallel(net) if world > 1 else net
            opt = torch.optim.SGD(model.parameters(), lr=0.01)


            def train_one_step():
                x = torch.randn(8, 16)
                loss = model(x).pow(2).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
                time.sleep(step_seconds)
                out("step=%d rank=%d world=%d" % (step, rank, world))    # step: the Ten lines' loop variable


            # ---- the Ten lines of docs/trainer-agent.md ----
            {TEN_LINES}
            # ----
            out("done step=%d rank=%d" % (step, rank))
            lifeline_agent.shutdown()
            dist.destroy_process_group()
            """;

    private static Path script(Path dir, boolean shared) throws Exception {
        Path p = dir.resolve("ten_lines.py");
        Files.writeString(p, HARNESS.replace("{TEN_LINES}", tenLinesFor(shared)), StandardCharsets.UTF_8);
        return p;
    }

    // ------------------------------------------------------------------------------------------------ the drill

    @Test
    void theSpotDrillLosesNoStepWithTheTenLinesOnADirectoryTheNodesShare() throws Exception {
        String job = "ml/ten-lines-shared";
        launch(job, "ten-a", "ten-b", true);
        Drill d = drill(job, "ten-a", "ten-b");
        assertThat(d.durability()).isEqualTo("shared-filesystem");
        assertThat(d.lostSteps()).as("%s", d).isZero();

        Relaunch r = stopAndRelaunch(job, "ten-a", "ten-e", true);
        assertThat(r.lostSteps()).as("%s", r).isZero();
        Drill again = drill(job, "ten-e", "ten-a");
        assertThat(again.lostSteps()).as("%s", again).isZero();
    }

    @Test
    void theSpotDrillLosesNoStepWithTheTenLinesOnEachNodesOwnDisk() throws Exception {
        String job = "ml/ten-lines-local";
        Path dir = launch(job, "ten-c", "ten-d", false);
        Drill d = drill(job, "ten-c", "ten-d");
        assertThat(d.durability()).isEqualTo("replicated");
        assertThat(d.lostSteps()).as("%s", d).isZero();
        assertThat(Files.isDirectory(dir.resolve("ten-d-checkpoints").resolve(d.checkpoint())))
                .as("the killed node had its own copy too")
                .isTrue();

        // The relaunch's new node has an empty disk: restore agrees on the newest copy ten-c holds and hands it over.
        Relaunch r = stopAndRelaunch(job, "ten-c", "ten-f", false);
        assertThat(r.lostSteps()).as("%s", r).isZero();
        Drill again = drill(job, "ten-f", "ten-c");
        assertThat(again.durability()).isEqualTo("replicated");
        assertThat(again.lostSteps()).as("%s", again).isZero();
    }

    /** What a whole-job stop and relaunch measured, from the script's output and Lifeline's API. */
    record Relaunch(
            String job, long lastStepBeforeStop, String checkpoint, long resumedStep, int round, int worldSize) {
        long lostSteps() {
            return lastStepBeforeStop - resumedStep;
        }
    }

    /** What a drill measured, from the script's output and Lifeline's API. */
    record Drill(
            String job,
            String checkpoint,
            long savedStep,
            long lastStepBeforeRestart,
            long resumedStep,
            String durability,
            double noticeToSaveSeconds,
            double killToResumeSeconds,
            String drainOutcome) {
        long lostSteps() {
            return lastStepBeforeRestart - resumedStep;
        }
    }

    /**
     * Two agents run the Ten lines (a periodic save every 3 s through {@code LIFELINE_CHECKPOINT_INTERVAL}), the first
     * hosting the c10d rendezvous, until Lifeline shows the job training at world size 2.
     */
    private Path launch(String job, String hostNode, String otherNode, boolean shared) throws Exception {
        Path dir = Files.createDirectories(work.resolve(job.replace('/', '-')));
        Path program = script(dir, shared);
        // Each job's nodes in a pool of their own: the two tests' four drills within ten minutes, in one pool of a few
        // live nodes, would rightly engage the automation brake (docs/policies.md), which is not what they are about.
        String pool = "spot-cpu-" + job.substring(job.indexOf('/') + 1);
        for (String node : List.of(hostNode, otherNode)) {
            postEvent(
                    "node.registered",
                    node,
                    Instant.now(),
                    "{\"pool\":\"" + pool + "\",\"capacityType\":\"spot\"," + "\"gpuCount\":0}");
            postEvent("node.ready", node, Instant.now(), "{}");
        }
        int rdzv = LifelineProcess.freePort();
        for (String node : List.of(hostNode, otherNode)) {
            Path checkpoints = dir.resolve(shared ? "checkpoints" : node + "-checkpoints");
            agents.add(TorchrunAgent.start(
                    "1:2",
                    dir,
                    app.url(),
                    token,
                    job,
                    node,
                    rdzv,
                    List.of("--max-restarts=3"),
                    program,
                    List.of(),
                    TorchrunAgent.env(
                            "TEN_LINES_CHECKPOINTS", checkpoints.toString(), "LIFELINE_CHECKPOINT_INTERVAL", "3")));
            if (node.equals(hostNode)) {
                // The first agent hosts the c10d rendezvous: the node a notice is for is never its host.
                await(
                        "the rendezvous store on " + hostNode,
                        Duration.ofSeconds(90),
                        () -> listening(rdzv) ? true : null);
            }
        }
        await(job + " training at world size 2 on " + hostNode + " and " + otherNode, Duration.ofSeconds(150), () -> {
            JsonNode d = getJson("/api/v1/jobs/" + job);
            JsonNode m = getJson("/api/v1/jobs/" + job + "/membership");
            return d != null
                            && m != null
                            && d.path("summary").path("worldSize").asInt() == 2
                            && d.path("summary").path("lastStep").asLong() > 0
                            && nodes(m).equals(Set.of(hostNode, otherNode))
                    ? true
                    : null;
        });
        return dir;
    }

    /**
     * The whole job stopped (SIGTERM to the agent left, as a scheduler stops a job) and launched again with the same
     * rdzv id, now hosted on {@code newNode} with {@code keptNode} beside it: a new c10d store whose rounds start at 0
     * again. Lifeline must show the new launch (its round, world size and nodes), and the relaunch resumes from the
     * step the stop saved.
     */
    private Relaunch stopAndRelaunch(String job, String keptNode, String newNode, boolean shared) throws Exception {
        TorchrunAgent old = agent(keptNode);
        old.terminate();
        assertThat(old.awaitExit(Duration.ofSeconds(90))).as(old.tail()).isNotNull();
        agents.remove(old);
        long lastBeforeStop = old.lastStep();
        launch(job, newNode, keptNode, shared);
        TorchrunAgent host = agent(newNode);
        TorchrunAgent.Line resumed = await(
                "the relaunch resuming",
                Duration.ofSeconds(60),
                () -> host.last("resumed", l -> "2".equals(l.get("world"))));
        JsonNode m = getJson("/api/v1/jobs/" + job + "/membership");
        Relaunch r = new Relaunch(
                job,
                lastBeforeStop,
                resumed.get("checkpoint"),
                resumed.step(),
                m.path("current").path("round").asInt(-1),
                m.path("worldSize").asInt());
        System.out.println("TEN_LINES_RELAUNCH " + r);
        assertThat(r.round())
                .as("the relaunch's own round 0, not the first launch's last: %s", m)
                .isZero();
        assertThat(r.worldSize()).isEqualTo(2);
        return r;
    }

    /**
     * On a job that {@link #launch trains} on two nodes: a checkpoint-now; a spot notice for {@code noticedNode}, whose
     * drain (the notice policy) has every rank save and hold; that node killed (SIGKILL, agent and workers) at the
     * notice's deadline; {@code keptNode} goes on alone from the hold's checkpoint.
     */
    private Drill drill(String job, String keptNode, String noticedNode) throws Exception {
        TorchrunAgent kept = agent(keptNode);
        TorchrunAgent noticed = agent(noticedNode);
        // The periodic checkpoints count as protection against losing a node, with nothing configured on the server.
        JsonNode periodic = await("a periodic checkpoint that survives a node", Duration.ofSeconds(90), () -> {
            JsonNode f = getJson("/api/v1/jobs/" + job + "/freshness");
            return f != null && f.path("checkpointId").isTextual() ? f : null;
        });
        String durability = checkpoint(job, periodic.path("checkpointId").asText())
                .path("durability")
                .asText();

        String now = postAction("{\"kind\":\"checkpoint-now\",\"target\":\"" + job + "\",\"reason\":\"drill\"}");
        JsonNode done = awaitActionEnd(now, Duration.ofSeconds(120));
        assertThat(done.path("state").asText()).as(done.toString()).isEqualTo("succeeded");
        assertThat(kept.last("saved", l -> "command".equals(l.get("reason"))))
                .as(kept.tail())
                .isNotNull();
        assertThat(noticed.last("saved", l -> "command".equals(l.get("reason"))))
                .as(noticed.tail())
                .isNotNull();

        Instant deadline = Instant.now().plusSeconds(NOTICE_SECONDS).truncatedTo(ChronoUnit.SECONDS);
        long noticeAt = System.nanoTime();
        postEvent(
                "node.interruption_notice",
                noticedNode,
                Instant.now(),
                "{\"kind\":\"spot_reclaim\"," + "\"provider\":\"aws\",\"deadline\":\"" + deadline + "\"}");
        TorchrunAgent.Line save = await(
                "the prepare_exit save",
                Duration.ofSeconds(NOTICE_SECONDS),
                () -> kept.last("saved", l -> "prepare_exit".equals(l.get("reason"))));
        await(
                "both nodes holding",
                Duration.ofSeconds(NOTICE_SECONDS),
                () -> kept.last("holding", l -> true) != null && noticed.last("holding", l -> true) != null
                        ? true
                        : null);
        JsonNode landed = await(
                "the save reported",
                Duration.ofSeconds(30),
                () -> checkpoint(job, save.get("checkpoint")).path("good").asBoolean()
                        ? checkpoint(job, save.get("checkpoint"))
                        : null);
        assertThat(Instant.parse(landed.path("completedAt").asText())).isBefore(deadline);

        Thread.sleep(Math.max(0, Duration.between(Instant.now(), deadline).toMillis()));
        long killedAt = System.nanoTime();
        noticed.killNode();
        postEvent("node.terminated", noticedNode, Instant.now(), "{\"reason\":\"spot reclaimed\"}");

        TorchrunAgent.Line resumed = await(
                "the survivor resuming alone",
                Duration.ofSeconds(180),
                () -> kept.last("resumed", l -> "1".equals(l.get("world"))));
        long lastBefore = kept.lines("step").stream()
                .filter(l -> l.atNanos() < resumed.atNanos())
                .mapToLong(TorchrunAgent.Line::step)
                .max()
                .orElseThrow();
        await(
                "training again at world size 1",
                Duration.ofSeconds(60),
                () -> kept.lastStep() > resumed.step() + 5 ? true : null);
        JsonNode drain = await("the drain ended", Duration.ofSeconds(120), () -> {
            JsonNode a = firstAction("drain", noticedNode);
            return a != null
                            && List.of("succeeded", "failed")
                                    .contains(a.path("state").asText())
                    ? a
                    : null;
        });
        assertThat(drain.path("requestedBy").asText()).isEqualTo("policy:notice-checkpoint-drain");
        assertThat(drain.path("outcome").asText()).as(drain.toString()).doesNotContain("no checkpoint that survives");
        assertThat(resumed.get("checkpoint")).isEqualTo(save.get("checkpoint"));

        Drill d = new Drill(
                job,
                save.get("checkpoint"),
                save.step(),
                lastBefore,
                resumed.step(),
                durability,
                (save.atNanos() - noticeAt) / 1e9,
                (resumed.atNanos() - killedAt) / 1e9,
                drain.path("outcome").asText());
        System.out.println("TEN_LINES_DRILL " + d);
        return d;
    }

    // ------------------------------------------------------------------------------------------------ helpers

    private TorchrunAgent agent(String node) {
        return agents.stream().filter(a -> a.node().equals(node)).findFirst().orElseThrow();
    }

    /** The nodes of a membership's current round. */
    private static Set<String> nodes(JsonNode membership) {
        return StreamSupport.stream(
                        membership.path("current").path("participants").spliterator(), false)
                .map(p -> p.path("node").asText())
                .collect(Collectors.toSet());
    }

    private static boolean listening(int port) {
        try (java.net.Socket s = new java.net.Socket()) {
            s.connect(new java.net.InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    private static void postEvent(String type, String subject, Instant time, String data) throws Exception {
        String id = type + "-" + subject + "-" + System.nanoTime();
        HttpResponse<String> r = app.post(
                "/api/v1/events",
                "application/cloudevents+json",
                "{\"specversion\":\"1.0\","
                        + "\"id\":\"" + id + "\",\"source\":\"it/ten-lines\",\"type\":\"" + type + "\",\"subject\":\""
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

    private JsonNode awaitActionEnd(String id, Duration timeout) {
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

    private static JsonNode checkpoint(String job, String id) throws Exception {
        JsonNode h = getJson("/api/v1/jobs/" + job + "/checkpoints");
        for (JsonNode c : h == null ? JSON.createArrayNode() : h.path("checkpoints")) {
            if (id.equals(c.path("id").asText())) {
                return c;
            }
        }
        return JSON.createObjectNode();
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
