package io.lifeline.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
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
 * Recovery drills end to end: the packaged Lifeline with the {@code recovery-ladder} policy on (off for one
 * namespace), the Kubernetes connector against the fabric8 mock API server (nodes and PyTorchJobs watched, so that a
 * cordon and a suspension the ladder asks for come back to Lifeline as they would from a cluster), and real torchrun
 * elastic agents (one rank each, gloo on CPU, "nodes" on 127.0.0.1) running {@code examples/crash_drill.py}, whose
 * workers fail on purpose. Everything Lifeline knows is read through its REST API; what the trainers did, from the
 * script's own record.
 *
 * <p>Nothing runs the pods here: where a cluster's kubelet would stop a pod's processes (the job suspended, a pod
 * evicted), the test stops the matching torchrun agents itself, as soon as the mock API server shows the change.
 *
 * <p>Each drill prints one line {@code RECOVERY-DRILL {json}} (bench/recovery-drills.sh collects them).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RecoveryIT {

    /** Seconds an incident may be off the script's record when nobody reports its stop (see recoveryTimes). */
    private static final double UNREPORTED_STOP_TOLERANCE = 2.0;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String POLICY = "recovery-ladder";
    private static final String ON = "rec-on";
    /** The namespace whose jobs the ladder leaves alone (an override of the policy's mode). */
    private static final String OFF = "rec-off";

    private static final double STEP_SECONDS = 0.1;
    private static final int CHECKPOINT_EVERY = 20;
    /** The step every rank of the workload-error drill fails at: past a checkpoint, in every attempt. */
    private static final int FAIL_STEP = 30;
    /** Steps after each (re)start before the failing node's ranks raise. */
    private static final int NODE_FAIL_AFTER = 40;
    /** torchrun's restarts: enough for the ladder to decide long before they run out. */
    private static final int MAX_RESTARTS = 8;
    /** How long a reached state must last before recovery counts it verified (long enough to give a node back). */
    private static final String HOLD = "120s";

    private static final ResourceDefinitionContext PYTORCHJOBS = new ResourceDefinitionContext.Builder()
            .withGroup("kubeflow.org")
            .withVersion("v1")
            .withPlural("pytorchjobs")
            .withKind("PyTorchJob")
            .withNamespaced(true)
            .build();
    private static final String JOB_LABEL = "training.kubeflow.org/job-name";

    private static KubernetesServer cluster;
    private static KubernetesClient kube;
    private static Path work;
    private static LifelineProcess app;
    private static String token;

    private final List<TorchrunAgent> agents = new ArrayList<>();
    /** The job of the drill under way: what a timed-out wait shows of it (its incidents and timeline). */
    private String drillJob;

    @BeforeAll
    static void startLifeline() throws Exception {
        cluster = new KubernetesServer(false, true, java.net.InetAddress.getLoopbackAddress(), 0, List.of());
        cluster.before();
        kube = cluster.getClient();
        kube.apiextensions()
                .v1()
                .customResourceDefinitions()
                .resource(new CustomResourceDefinitionBuilder()
                        .withNewMetadata()
                        .withName("pytorchjobs.kubeflow.org")
                        .endMetadata()
                        .withNewSpec()
                        .withGroup("kubeflow.org")
                        .withScope("Namespaced")
                        .withNewNames()
                        .withPlural("pytorchjobs")
                        .withKind("PyTorchJob")
                        .endNames()
                        .addNewVersion()
                        .withName("v1")
                        .withServed(true)
                        .withStorage(true)
                        .endVersion()
                        .endSpec()
                        .build())
                .create();
        for (char c = 'a'; c <= 'j'; c++) {
            kube.nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName("node-" + c)
                            .endMetadata()
                            .withNewSpec()
                            .endSpec()
                            .build())
                    .create();
        }
        work = Files.createTempDirectory("lifeline-recovery-it");
        List<String> props = new ArrayList<>(List.of(
                "-Dlifeline.demo.enabled=false",
                "-Dlifeline.policies.default-mode=off",
                "-Dlifeline.policies.mode." + POLICY + "=on",
                "-Dlifeline.policies.interval=2s",
                "-Dlifeline.recovery.hold=" + HOLD,
                "-Dlifeline.connectors.kubernetes.enabled=true",
                "-Dquarkus.kubernetes-client.api-server-url="
                        + cluster.getKubernetesMockServer().url("/"),
                "-Dquarkus.kubernetes-client.trust-certs=true"));
        // Nodes (their cordons) and PyTorchJobs (their suspension) are watched; the rest is not needed here.
        for (String kind : List.of("pods", "events", "trainjobs", "kueue", "volcano")) {
            props.add("-Dlifeline.connectors.kubernetes." + kind + ".enabled=false");
        }
        app = LifelineProcess.start(
                LifelineProcess.freePort(), work, work.resolve("lifeline.log"), props.toArray(String[]::new));
        app.awaitReady(Duration.ofSeconds(120));
        token = Files.readString(work.resolve(".lifeline/admin-token")).trim();
        app.useToken(token);
        HttpResponse<String> r = app.put(
                "/api/v1/policies/" + POLICY,
                "application/json",
                "{\"mode\":\"on\",\"overrides\":{\"namespace:" + OFF + "\":\"off\"}}");
        assertThat(r.statusCode())
                .as("PUT /api/v1/policies/%s: %s", POLICY, r.body())
                .isEqualTo(200);
    }

    @AfterEach
    void stopAgents() {
        agents.forEach(TorchrunAgent::close);
        agents.clear();
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

    // ------------------------------------------------------------------------------------------------ drills

    /**
     * Every rank raises the same error at the same step of every attempt. With the ladder on, the third attempt's
     * failure is advised {@code stop-and-page} by the workload-error rule, the PyTorchJob is suspended and the job
     * stops; with it off, torchrun restarts the workers until its restarts run out. The rank-seconds each held are
     * compared.
     */
    @Test
    @Order(1)
    void aWorkloadErrorIsStoppedAfterThreeAttemptsInsteadOfRunningOutTheRestarts() throws Exception {
        Map<String, Object> drill = drill("workload-error");
        try {
            List<String> fail = List.of("--fail-at-step", Integer.toString(FAIL_STEP));
            Drill on = new Drill(ON + "/crash", "node-a", "node-b");
            on.pytorchJob(false);
            on.start(fail);
            JsonNode advice = awaitAdvice(
                    on.job, a -> "stop-and-page".equals(a.path("remedy").asText()));
            drill.put("onAdvisedAfterAttempts", on.attempts());
            assertThat(advice.path("rule").asText()).as("%s", advice).isEqualTo("workload-error");
            assertThat(advice.path("mode").asText()).isEqualTo("on");
            assertThat(texts(advice.path("evidence")))
                    .as("%s", advice)
                    .hasSize(3)
                    .allMatch(e -> e.contains("RuntimeError: drill: loss is NaN at step " + FAIL_STEP));
            double failedAt = on.events("failure").get(0).path("t").asDouble();
            drill.put("adviceSecondsFromFirstFailure", round(epochSeconds(advice.path("decidedAt")) - failedAt));

            // The stop: a PREEMPT action suspends the PyTorchJob; the kubelet would then stop its pods.
            JsonNode preempt = await("the preempt action", Duration.ofSeconds(60), () -> action("preempt", on.job));
            assertThat(preempt.path("requestedBy").asText()).isEqualTo("policy:" + POLICY);
            await("the PyTorchJob suspended on the API server", Duration.ofSeconds(120), () -> on.suspended());
            awaitSeenSuspended(on.job);
            double stoppedAt = on.stopAllAsTheKubeletWould();
            JsonNode verified = awaitAdvice(
                    on.job,
                    a -> "stop-and-page".equals(a.path("remedy").asText())
                            && !"pending".equals(a.path("verdict").asText()));
            assertThat(verified.path("verdict").asText()).as("%s", verified).isEqualTo("verified");
            drill.put("onVerdict", verified.path("outcome").asText());
            drill.put("onState", jobState(on.job));
            drill.put("onAttempts", on.attempts());
            double onRankSeconds = (stoppedAt - on.firstStart()) * 2;
            drill.put("onRankSeconds", round(onRankSeconds));

            // The same failure with the ladder off: torchrun runs out its restarts.
            Drill off = new Drill(OFF + "/crash", "node-i", "node-j");
            off.pytorchJob(false);
            off.start(fail);
            double offEnded = off.awaitAllExited(Duration.ofMinutes(8));
            int offAttempts = off.attempts();
            drill.put("offAttempts", offAttempts);
            double offRankSeconds = (offEnded - off.firstStart()) * 2;
            drill.put("offRankSeconds", round(offRankSeconds));
            JsonNode offView = getJson("/api/v1/jobs/" + off.job + "/recovery");
            assertThat(offView.path("mode").asText()).isEqualTo("off");
            assertThat(offView.path("advice")).as("%s", offView).isEmpty();
            assertThat(offAttempts).isEqualTo(MAX_RESTARTS + 1);
            drill.put("rankSecondsSaved", round(offRankSeconds - onRankSeconds));
            drill.put("crashloopGpuHoursSaved", (offRankSeconds - onRankSeconds) / 3600.0);
            assertThat(onRankSeconds).isLessThan(offRankSeconds);
        } finally {
            report(drill);
        }
    }

    /**
     * The ranks of one node fail some steps after every start. After two attempts the ladder advises
     * {@code restart-excluding-node} for that node; its drain cordons it and evicts its pod on the API server; the
     * kubelet's part (the pod's processes stopped) is played by the test; torchrun re-forms on the other node alone,
     * and the advice is verified once that has held.
     */
    @Test
    @Order(2)
    void aFailingNodeIsExcludedAndTrainingGoesOnWithoutIt() throws Exception {
        Map<String, Object> drill = drill("failing-node");
        try {
            Drill d = new Drill(ON + "/flaky", "node-c", "node-d");
            ExcludedNode ex = excludeFailingNode(d, drill);
            JsonNode verified = awaitAdvice(
                    d.job,
                    a -> a.path("incident")
                                    .asText()
                                    .equals(ex.advice.path("incident").asText())
                            && a.path("rung").asInt() == 1
                            && !"pending".equals(a.path("verdict").asText()),
                    Duration.ofSeconds(240));
            assertThat(verified.path("verdict").asText()).as("%s", verified).isEqualTo("verified");
            drill.put("verifiedSecondsFromAdvice", round(epochSeconds(verified.path("checkedAt")) - ex.advisedAt));
            drill.put("verdict", verified.path("outcome").asText());
            assertThat(getJson("/api/v1/jobs/" + d.job)
                            .path("summary")
                            .path("worldSize")
                            .asInt())
                    .isEqualTo(1);
            long before = d.lastStep();
            await("steps at world size 1", Duration.ofSeconds(30), () -> d.lastStep() > before + 10 ? true : null);
        } finally {
            report(drill);
        }
    }

    /**
     * As the failing node, but the node comes back (uncordoned, its agent started again) before the advice is
     * verified: the advice fails, naming the node back in the group, and the next rung ({@code stop-and-page}, rule
     * {@code escalation}) is recorded and carried out.
     */
    @Test
    @Order(3)
    void aNodeGivenBackBeforeTheAdviceHeldEscalatesToStopAndPage() throws Exception {
        Map<String, Object> drill = drill("escalation");
        try {
            Drill d = new Drill(ON + "/back", "node-e", "node-f");
            ExcludedNode ex = excludeFailingNode(d, drill);
            kube.nodes().withName("node-f").edit(n -> {
                n.getSpec().setUnschedulable(false);
                return n;
            });
            d.startNode("node-f", List.of());
            JsonNode failed = awaitAdvice(
                    d.job,
                    a -> a.path("incident")
                                    .asText()
                                    .equals(ex.advice.path("incident").asText())
                            && a.path("rung").asInt() == 1
                            && !"pending".equals(a.path("verdict").asText()),
                    Duration.ofSeconds(180));
            assertThat(failed.path("verdict").asText()).as("%s", failed).isEqualTo("failed");
            assertThat(failed.path("outcome").asText()).contains("node-f").contains("group again");
            drill.put("failedSecondsFromAdvice", round(epochSeconds(failed.path("checkedAt")) - ex.advisedAt));
            drill.put("verdict", failed.path("outcome").asText());
            JsonNode next = awaitAdvice(
                    d.job,
                    a -> a.path("incident")
                                    .asText()
                                    .equals(ex.advice.path("incident").asText())
                            && a.path("rung").asInt() == 2);
            assertThat(next.path("remedy").asText()).as("%s", next).isEqualTo("stop-and-page");
            assertThat(next.path("rule").asText()).isEqualTo("escalation");
            drill.put(
                    "next",
                    next.path("remedy").asText() + "/" + next.path("rule").asText());
            await("the PyTorchJob suspended on the API server", Duration.ofSeconds(120), () -> d.suspended());
            awaitSeenSuspended(d.job);
            d.stopAllAsTheKubeletWould();
            JsonNode stopped = awaitAdvice(
                    d.job,
                    a -> a.path("rung").asInt() == 2
                            && !"pending".equals(a.path("verdict").asText()));
            drill.put(
                    "nextVerdict",
                    stopped.path("verdict").asText() + ": "
                            + stopped.path("outcome").asText());
            assertThat(stopped.path("verdict").asText()).isEqualTo("verified");
        } finally {
            report(drill);
        }
    }

    /**
     * The time each rung's restart takes, side by side in one job (ladder off, nothing else acts), from the script's
     * record: a worker failure restarted in place by torchrun, one node's agent replaced (as a recreated pod), and
     * every agent relaunched; each from the failure (or the kill) to the first step after it.
     */
    @Test
    @Order(4)
    void recoveryTimesOfARestartInPlaceAPodRecreationAndAFullRelaunch() throws Exception {
        Map<String, Object> drill = drill("recovery-time");
        try {
            Drill d = new Drill(OFF + "/times", "node-g", "node-h");
            Path once = d.dir.resolve("failed-once");
            d.start(List.of(
                    "--fail-on-node",
                    "node-h",
                    "--fail-after-steps",
                    Integer.toString(NODE_FAIL_AFTER),
                    "--once-file",
                    once.toString()));
            JsonNode failure = await("the failure", Duration.ofSeconds(150), () -> d.first("failure", e -> true));
            double failedAt = failure.path("t").asDouble();
            double inPlace = d.firstStepAfter(failedAt, d.steppingPids(failedAt)) - failedAt;
            drill.put("inPlaceSeconds", round(inPlace));

            // Each interruption only once Lifeline saw the job train after the one before: the next kill takes the
            // reports its workers had not sent yet with it, and an interruption whose recovery Lifeline never heard of
            // is one with the next (the drill wants three).
            awaitIncidentsClosed(d, 1);
            d.awaitStepsPast(d.nowSeconds(), 30);
            double killed = d.nowSeconds();
            Set<String> beforeKill = d.steppingPids(killed);
            d.agent("node-h").killNode();
            d.startNode("node-h", List.of());
            drill.put("podRecreateSeconds", round(d.firstStepAfter(killed, beforeKill) - killed));

            awaitIncidentsClosed(d, 2);
            d.awaitStepsPast(d.nowSeconds(), 30);
            double relaunched = d.nowSeconds();
            Set<String> beforeRelaunch = d.steppingPids(relaunched);
            for (TorchrunAgent a : List.copyOf(d.agents)) {
                a.killNode();
            }
            d.relaunch();
            drill.put("fullRestartSeconds", round(d.firstStepAfter(relaunched, beforeRelaunch) - relaunched));
            JsonNode resumed = d.first("resumed", e -> e.path("t").asDouble() > relaunched);
            assertThat(resumed.path("checkpoint").asText()).as("%s", resumed).isNotEqualTo("none");

            // Each of the three incidents against the script's record, and together the job's lost rework. Within
            // UNREPORTED_STOP_TOLERANCE, not a second: the recreated pod's stop is reported by nobody, so Lifeline
            // dates it by the last progress, which the agent's sender stamps when it sends it, up to its one-second
            // tick after the step (1.03 s off in the drills).
            JsonNode incidents = awaitIncidentsClosed(d, 3);
            assertThat(incidents.size()).as("%s", incidents).isEqualTo(3);
            ScriptRecord truth = new ScriptRecord(d.record);
            List<String> off = new ArrayList<>();
            long lostMillis = 0;
            for (JsonNode i : incidents) {
                ScriptRecord.Interruption by = truth.interruptionClosedAt(epochSeconds(i.path("closedAt")));
                off.addAll(ScriptRecord.compare(d.job, i, by, UNREPORTED_STOP_TOLERANCE));
                lostMillis += i.path("lostReworkMillis").asLong();
            }
            JsonNode goodput = getJson("/api/v1/jobs/" + d.job).path("goodput");
            drill.put("incidentsOffTheRecord", off);
            assertThat(off).isEmpty();
            assertThat(goodput.path("lostReworkMillis").asLong())
                    .as("%s", goodput)
                    .isEqualTo(lostMillis);
        } finally {
            report(drill);
        }
    }

    /** The job's incidents once it has at least {@code n} and the newest is closed (the job trains again). */
    private JsonNode awaitIncidentsClosed(Drill d, int n) {
        return await(n + " incident" + (n == 1 ? "" : "s") + " closed", Duration.ofSeconds(60), () -> {
            JsonNode l = getJson("/api/v1/jobs/" + d.job + "/incidents");
            return l != null
                            && l.size() >= n
                            && l.get(l.size() - 1).path("closedAt").isTextual()
                    ? l
                    : null;
        });
    }

    // ------------------------------------------------------------------------------------------------ steps

    /** What excluding a failing node showed: the advice and when it was decided. */
    private record ExcludedNode(JsonNode advice, double advisedAt) {}

    /**
     * Runs a job whose second node fails its ranks after {@link #NODE_FAIL_AFTER} steps of each start, until the
     * ladder advises excluding it, its drain cordons it and deletes its pod, and the kubelet's part is played
     * (its agent stopped); waits for training at world size 1.
     */
    private ExcludedNode excludeFailingNode(Drill d, Map<String, Object> drill) throws Exception {
        String bad = d.nodes.get(1);
        d.pytorchJob(true);
        d.start(List.of("--fail-on-node", bad, "--fail-after-steps", Integer.toString(NODE_FAIL_AFTER)));
        JsonNode advice = awaitAdvice(
                d.job, a -> "restart-excluding-node".equals(a.path("remedy").asText()));
        drill.put("advisedAfterAttempts", d.attempts());
        assertThat(advice.path("rule").asText()).as("%s", advice).isEqualTo("failing-node");
        assertThat(advice.path("node").asText()).isEqualTo(bad);
        double advisedAt = epochSeconds(advice.path("decidedAt"));
        List<JsonNode> failures = d.events("failure");
        drill.put(
                "adviceSecondsFromSecondFailure",
                round(advisedAt - failures.get(1).path("t").asDouble()));
        drill.put("evidence", texts(advice.path("evidence")));

        JsonNode drain = await("the drain action", Duration.ofSeconds(60), () -> action("drain", bad));
        assertThat(drain.path("requestedBy").asText()).isEqualTo("policy:" + POLICY);
        await("the node cordoned on the API server", Duration.ofSeconds(60), () -> {
            Node n = kube.nodes().withName(bad).get();
            return Boolean.TRUE.equals(n.getSpec().getUnschedulable()) ? true : null;
        });
        String evict = "evict " + d.namespace + "/" + d.pod(bad);
        JsonNode evicted = await("the drain's eviction of the pod on " + bad, Duration.ofSeconds(120), () -> {
            for (JsonNode s : action("drain", bad).path("steps")) {
                if (evict.equals(s.path("name").asText())) {
                    return "done".equals(s.path("state").asText()) ? s : null;
                }
            }
            return null;
        });
        assertThat(evicted.path("detail").asText()).contains("evicted");
        // What the API server does with an eviction it accepted: the pod goes (the mock does not).
        kube.pods().inNamespace(d.namespace).withName(d.pod(bad)).delete();
        // The kubelet stops a deleted pod's containers: SIGTERM, then SIGKILL after the grace period.
        double evictedAt = d.nowSeconds();
        TorchrunAgent gone = d.agent(bad);
        gone.terminate();
        if (gone.awaitExit(Duration.ofSeconds(30)) == null) {
            gone.killNode();
        }
        d.agents.remove(gone);
        drill.put("drainSecondsFromAdvice", round(evictedAt - advisedAt));
        JsonNode alone = await(
                "training on " + d.nodes.get(0) + " alone",
                Duration.ofSeconds(180),
                () -> d.first(
                        "step",
                        e -> e.path("t").asDouble() > evictedAt
                                && e.path("world").asInt() == 1));
        drill.put("resumedAloneSecondsFromEviction", round(alone.path("t").asDouble() - evictedAt));
        return new ExcludedNode(advice, advisedAt);
    }

    // ------------------------------------------------------------------------------------------------ a job

    /** One job of the drills: its two nodes, its PyTorchJob and pods on the API server, its agents and record. */
    private final class Drill {
        final String job;
        final String namespace;
        final String name;
        final List<String> nodes;
        final Path dir;
        final Path record;
        final List<TorchrunAgent> agents = new ArrayList<>();
        private int rdzv;
        private List<String> script = List.of();

        Drill(String job, String... nodes) throws Exception {
            this.job = job;
            this.namespace = job.substring(0, job.indexOf('/'));
            this.name = job.substring(job.indexOf('/') + 1);
            this.nodes = List.of(nodes);
            this.dir = Files.createDirectories(work.resolve(job.replace('/', '-')));
            this.record = dir.resolve("record.jsonl");
            this.rdzv = LifelineProcess.freePort();
            drillJob = job;
        }

        String pod(String node) {
            return name + "-worker-" + nodes.indexOf(node);
        }

        /**
         * The job as a user's cluster holds it: an elastic PyTorchJob (what a stop suspends) and, with {@code pods},
         * one running worker pod on each node (what a drain evicts).
         */
        void pytorchJob(boolean pods) {
            GenericKubernetesResource j = new GenericKubernetesResource();
            j.setApiVersion("kubeflow.org/v1");
            j.setKind("PyTorchJob");
            j.setMetadata(new ObjectMetaBuilder()
                    .withName(name)
                    .withNamespace(namespace)
                    .build());
            Map<String, Object> worker = new LinkedHashMap<>();
            worker.put("replicas", 2);
            worker.put("template", Map.of("spec", Map.of("containers", List.of(Map.of("name", "pytorch")))));
            Map<String, Object> spec = new LinkedHashMap<>();
            spec.put(
                    "elasticPolicy",
                    Map.of("rdzvBackend", "c10d", "minReplicas", 1, "maxReplicas", 2, "maxRestarts", MAX_RESTARTS));
            spec.put("pytorchReplicaSpecs", Map.of("Worker", worker));
            spec.put("runPolicy", new LinkedHashMap<>(Map.of("suspend", false)));
            j.setAdditionalProperty("spec", spec);
            kube.genericKubernetesResources(PYTORCHJOBS)
                    .inNamespace(namespace)
                    .resource(j)
                    .create();
            if (pods) {
                for (String node : nodes) {
                    kube.pods()
                            .inNamespace(namespace)
                            .resource(new PodBuilder()
                                    .withNewMetadata()
                                    .withName(pod(node))
                                    .withNamespace(namespace)
                                    .addToLabels(JOB_LABEL, name)
                                    .endMetadata()
                                    .withNewSpec()
                                    .withNodeName(node)
                                    .endSpec()
                                    .withNewStatus()
                                    .withPhase("Running")
                                    .endStatus()
                                    .build())
                            .create();
                    // The mock has no Eviction subresource: it accepts every eviction of the pod, and the test then
                    // deletes the pod as the API server would.
                    cluster.getKubernetesMockServer()
                            .expect()
                            .post()
                            .withPath("/api/v1/namespaces/" + namespace + "/pods/" + pod(node) + "/eviction")
                            .andReturn(201, Map.of("kind", "Status", "apiVersion", "v1", "status", "Success"))
                            .always();
                }
            }
        }

        /** Whether the PyTorchJob is suspended on the API server (or null, for an await). */
        Boolean suspended() {
            GenericKubernetesResource j = kube.genericKubernetesResources(PYTORCHJOBS)
                    .inNamespace(namespace)
                    .withName(name)
                    .get();
            @SuppressWarnings("unchecked")
            Map<String, Object> spec =
                    (Map<String, Object>) j.getAdditionalProperties().get("spec");
            @SuppressWarnings("unchecked")
            Map<String, Object> run = spec == null ? null : (Map<String, Object>) spec.get("runPolicy");
            return run != null && Boolean.TRUE.equals(run.get("suspend")) ? true : null;
        }

        void start(List<String> script) throws Exception {
            this.script = script;
            for (String node : nodes) {
                postEvent(
                        "node.registered",
                        node,
                        "{\"pool\":\"cpu-" + namespace + "\",\"capacityType\":\"on-demand\",\"gpuCount\":0}");
                postEvent("node.ready", node, "{}");
            }
            relaunch();
        }

        /** Starts every node's agent, the first (the rendezvous store's host) first, on a fresh rendezvous port. */
        void relaunch() throws Exception {
            agents.clear();
            rdzv = LifelineProcess.freePort();
            for (String node : nodes) {
                startNode(node, script);
                if (node.equals(nodes.get(0))) {
                    await(
                            "the rendezvous store on " + node,
                            Duration.ofSeconds(90),
                            () -> listening(rdzv) ? true : null);
                }
            }
        }

        void startNode(String node, List<String> failures) throws Exception {
            List<String> args = new ArrayList<>(List.of(
                    "--steps",
                    "100000",
                    "--step-time",
                    Double.toString(STEP_SECONDS),
                    "--checkpoint-every",
                    Integer.toString(CHECKPOINT_EVERY),
                    "--checkpoint-dir",
                    dir.resolve(node + "-checkpoints").toString(),
                    "--record",
                    record.toString()));
            args.addAll(failures);
            TorchrunAgent a = TorchrunAgent.start(
                    "1:2",
                    dir,
                    app.url(),
                    token,
                    job,
                    node,
                    rdzv,
                    List.of("--max-restarts=" + MAX_RESTARTS),
                    Path.of("examples/crash_drill.py").toAbsolutePath(),
                    args,
                    // Progress every second (ten steps): the step a failure stopped at is the one the ranks report
                    // with it, not the job's last progress.
                    TorchrunAgent.env());
            agents.add(a);
            RecoveryIT.this.agents.add(a);
        }

        TorchrunAgent agent(String node) {
            TorchrunAgent found = null;
            for (TorchrunAgent a : agents) {
                if (a.node().equals(node)) {
                    found = a;
                }
            }
            return found;
        }

        /** Stops every agent as a kubelet stops a deleted pod (SIGTERM, SIGKILL after the grace); when they ended. */
        double stopAllAsTheKubeletWould() throws Exception {
            double at = nowSeconds();
            for (TorchrunAgent a : agents) {
                a.terminate();
            }
            for (TorchrunAgent a : agents) {
                if (a.awaitExit(Duration.ofSeconds(30)) == null) {
                    a.killNode();
                }
            }
            return at;
        }

        /** Waits for every agent to exit on its own; when the last did. */
        double awaitAllExited(Duration timeout) throws Exception {
            long end = System.nanoTime() + timeout.toNanos();
            for (TorchrunAgent a : agents) {
                Integer code = a.awaitExit(Duration.ofNanos(Math.max(1, end - System.nanoTime())));
                assertThat(code).as("%s still runs:\n%s", a.node(), a.tail()).isNotNull();
            }
            return nowSeconds();
        }

        double nowSeconds() {
            return System.currentTimeMillis() / 1000.0;
        }

        double firstStart() throws Exception {
            return events("start").get(0).path("t").asDouble();
        }

        /** The attempts the record shows: the distinct (re)starts of the first node's rank. */
        int attempts() throws Exception {
            TreeSet<String> starts = new TreeSet<>();
            for (JsonNode e : events("start")) {
                if (e.path("node").asText().equals(nodes.get(0))) {
                    starts.add(e.path("pid").asText());
                }
            }
            return starts.size();
        }

        long lastStep() throws Exception {
            return events("step").stream()
                    .mapToLong(e -> e.path("step").asLong())
                    .max()
                    .orElse(-1);
        }

        /**
         * The first step after {@code t} of a worker not in {@code before}: a step the killed workers had under way
         * when they were killed is still written a few milliseconds after it.
         */
        double firstStepAfter(double t, Set<String> before) {
            JsonNode s = await(
                    "a step after " + t,
                    Duration.ofSeconds(180),
                    () -> first(
                            "step",
                            e -> e.path("t").asDouble() > t
                                    && !before.contains(e.path("pid").asText())));
            return s.path("t").asDouble();
        }

        /** The workers (their pids) that took a step up to {@code t}. */
        Set<String> steppingPids(double t) throws Exception {
            Set<String> pids = new java.util.HashSet<>();
            for (JsonNode e : events("step")) {
                if (e.path("t").asDouble() <= t) {
                    pids.add(e.path("pid").asText());
                }
            }
            return pids;
        }

        void awaitStepsPast(double t, int steps) {
            await(
                    steps + " steps after " + t,
                    Duration.ofSeconds(120),
                    () -> events("step").stream()
                                            .filter(e -> e.path("t").asDouble() > t)
                                            .count()
                                    >= steps
                            ? true
                            : null);
        }

        List<JsonNode> events(String event) throws Exception {
            List<JsonNode> out = new ArrayList<>();
            if (!Files.exists(record)) {
                return out;
            }
            for (String line : Files.readAllLines(record, StandardCharsets.UTF_8)) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode e;
                try {
                    e = JSON.readTree(line);
                } catch (com.fasterxml.jackson.core.JsonProcessingException partial) {
                    continue; // a line being written
                }
                if (event.equals(e.path("event").asText())) {
                    out.add(e);
                }
            }
            return out;
        }

        JsonNode first(String event, Predicate<JsonNode> p) throws Exception {
            return events(event).stream().filter(p).findFirst().orElse(null);
        }
    }

    // ------------------------------------------------------------------------------------------------ Lifeline

    private JsonNode awaitAdvice(String job, Predicate<JsonNode> p) {
        return awaitAdvice(job, p, Duration.ofSeconds(300));
    }

    /** The newest advice of the job's recovery (GET .../recovery) that matches. */
    private JsonNode awaitAdvice(String job, Predicate<JsonNode> p, Duration timeout) {
        return await("advice of " + job + " as wanted", timeout, () -> {
            JsonNode view = getJson("/api/v1/jobs/" + job + "/recovery");
            JsonNode found = null;
            for (JsonNode a : view == null ? JSON.createArrayNode() : view.path("advice")) {
                if (p.test(a)) {
                    found = a;
                }
            }
            return found;
        });
    }

    /**
     * Waits until Lifeline holds the job suspended, as a cluster orders it: the kubelet stops the pods only after the
     * job's controller saw the suspension and deleted them, by when the watch has told Lifeline too. Stopping the
     * agents the instant the API server answers would race the watch. On a timeout the message carries the job's
     * newest timeline entries, which say what Lifeline saw instead.
     */
    private static void awaitSeenSuspended(String job) throws Exception {
        try {
            Awaitility.await("Lifeline holds " + job + " suspended")
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(250))
                    .ignoreExceptions()
                    .until(() -> List.of("suspended", "preempted").contains(jobState(job)));
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(
                    "Lifeline never held " + job + " suspended (state " + jobState(job) + "); its timeline: "
                            + getJson("/api/v1/jobs/" + job + "/timeline?limit=30"),
                    e);
        }
    }

    private static String jobState(String job) throws Exception {
        return getJson("/api/v1/jobs/" + job).path("summary").path("state").asText();
    }

    /** The newest action of that kind on that target, or null. */
    private static JsonNode action(String kind, String target) throws Exception {
        JsonNode found = null;
        JsonNode page = getJson("/api/v1/actions?limit=100");
        for (JsonNode a : page == null ? JSON.createArrayNode() : page.path("items")) {
            if (kind.equals(a.path("kind").asText())
                    && target.equals(a.path("target").asText())
                    && (found == null
                            || a.path("createdAt")
                                            .asText()
                                            .compareTo(found.path("createdAt").asText())
                                    > 0)) {
                found = a;
            }
        }
        return found;
    }

    private static Map<String, Object> drill(String name) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("drill", name);
        return d;
    }

    /** One line for bench/recovery-drills.sh, whatever the drill's outcome. */
    private static void report(Map<String, Object> drill) throws Exception {
        System.out.println("RECOVERY-DRILL " + JSON.writeValueAsString(drill));
    }

    private static double epochSeconds(JsonNode rfc3339) {
        return Instant.parse(rfc3339.asText()).toEpochMilli() / 1000.0;
    }

    private static double round(double seconds) {
        return Math.round(seconds * 1000) / 1000.0;
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static void postEvent(String type, String subject, String data) throws Exception {
        String id = type + "-" + subject + "-" + System.nanoTime();
        HttpResponse<String> r = app.post(
                "/api/v1/events",
                "application/cloudevents+json",
                "{\"specversion\":\"1.0\",\"id\":\"" + id + "\",\"source\":\"it/recovery\",\"type\":\"" + type
                        + "\",\"subject\":\"" + subject + "\",\"time\":\""
                        + Instant.now().truncatedTo(ChronoUnit.MILLIS) + "\",\"data\":" + data + "}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    }

    private static JsonNode getJson(String path) throws Exception {
        HttpResponse<String> r = app.get(path);
        return r.statusCode() == 200 ? JSON.readTree(r.body()) : null;
    }

    private static boolean listening(int port) {
        try (java.net.Socket s = new java.net.Socket()) {
            s.connect(new java.net.InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /** Polls {@code probe} until it answers non-null; fails with the agents' log tails when the time runs out. */
    private <T> T await(String what, Duration timeout, Callable<T> probe) {
        Object[] seen = new Object[1];
        try {
            Awaitility.await(what)
                    .atMost(timeout)
                    .pollInterval(Duration.ofMillis(250))
                    .ignoreExceptions()
                    .until(() -> (seen[0] = probe.call()) != null);
        } catch (ConditionTimeoutException e) {
            StringBuilder logs = new StringBuilder();
            agents.forEach(
                    a -> logs.append("\n--- ").append(a.node()).append(" ---\n").append(a.tail()));
            if (drillJob != null) {
                for (String view : List.of("incidents", "timeline?limit=300", "recovery")) {
                    try {
                        logs.append("\n--- ")
                                .append(drillJob)
                                .append(' ')
                                .append(view)
                                .append(" ---\n")
                                .append(getJson("/api/v1/jobs/" + drillJob + "/" + view));
                    } catch (Exception unreadable) {
                        logs.append(unreadable);
                    }
                }
            }
            throw new AssertionError("timed out waiting for " + what + logs, e);
        }
        @SuppressWarnings("unchecked")
        T value = (T) seen[0];
        return value;
    }
}
