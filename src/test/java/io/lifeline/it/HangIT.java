package io.lifeline.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URLEncoder;
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
 * Hang drills end to end: the packaged Lifeline with the {@code hang-recovery} policy on (off for one namespace), and
 * real torchrun elastic agents (two "nodes" on 127.0.0.1, one rank each, gloo on CPU) running
 * {@code examples/hang_drill.py}, which hangs on purpose once (a rank stuck before the all_reduce, a save that never
 * returns) or is slow on purpose without hanging (a slow save, a declared evaluation phase). Everything Lifeline knows
 * is read through its REST API; what the trainers really did, from the script's own record.
 *
 * <p>Each drill prints one line {@code HANG-DRILL {json}} (bench/hang-drills.sh collects them): for a hang, the seconds
 * from the last step to the detection and, with the policy off, to the process group's timeout; for a healthy run,
 * the hang verdicts read and how many said {@code suspected}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HangIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String POLICY = "hang-recovery";
    private static final String ON = "hang-on";
    /** The namespace whose jobs the policy leaves alone (an override of the policy's mode). */
    private static final String OFF = "hang-off";

    private static final double STEP_SECONDS = 0.1;
    private static final int CHECKPOINT_EVERY = 20;
    /** The step the drills hang at: some seconds of training first, for step times and the policy's start-up grace. */
    private static final int HANG_STEP = 100;
    /** The rank that hangs. */
    private static final int HUNG_RANK = 1;
    /** The process group's timeout in the script: a hang nobody recovers from ends the run after it. */
    private static final int PG_TIMEOUT_SECONDS = 90;
    /** A slow save and an evaluation: longer than the step threshold ({@code floor}), shorter than the save floor. */
    private static final double SLOW_SECONDS = 12;

    private static final String FLOOR = "6s";
    /** How long a healthy run is watched after it ended: past the ranks' liveness window (35 s). */
    private static final long AFTER_END_SECONDS = 45;

    private static final String SAVE_FLOOR = "20s";

    private static Path work;
    private static LifelineProcess app;
    private static String token;

    private final List<TorchrunAgent> agents = new ArrayList<>();

    @BeforeAll
    static void startLifeline() throws Exception {
        work = Files.createTempDirectory("lifeline-hang-it");
        app = LifelineProcess.start(
                LifelineProcess.freePort(),
                work,
                work.resolve("lifeline.log"),
                "-Dlifeline.demo.enabled=false",
                "-Dlifeline.policies.default-mode=off",
                "-Dlifeline.policies.mode." + POLICY + "=on",
                // The policy looks for hung jobs on the interval of the conditions that build up (15 s by default).
                "-Dlifeline.policies.interval=2s",
                "-Dlifeline.hangs.floor=" + FLOOR,
                "-Dlifeline.hangs.step-multiple=5",
                "-Dlifeline.hangs.save-floor=" + SAVE_FLOOR,
                "-Dlifeline.hangs.interval=1s");
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
    }

    // ------------------------------------------------------------------------------------------------ hangs

    /**
     * Rank 1 sleeps for ever before the all_reduce while rank 0 waits in it: detected, both stacks captured, the
     * workers restarted by the policy long before the process group's timeout, training past the hang, the incident
     * closed as recovered with its hang time.
     */
    @Test
    @Order(1)
    void aRankStuckBeforeTheAllReduceIsDetectedCapturedAndRecovered() throws Exception {
        Map<String, Object> drill = drill("collective", "on");
        try {
            recovered(ON + "/collective", "collective", "training", "sleep_forever", "all_reduce", drill);
        } finally {
            report(drill);
        }
    }

    /** A save that never returns on rank 1, inside the agent's saving phase: a hang of kind save, recovered alike. */
    @Test
    @Order(2)
    void aSaveThatNeverReturnsIsDetectedAsASaveHangAndRecovered() throws Exception {
        Map<String, Object> drill = drill("save", "on");
        try {
            recovered(ON + "/save", "save", "save", "save_that_never_returns", "all_gather", drill);
        } finally {
            report(drill);
        }
    }

    /**
     * The policy off: the hang is detected and shown, nothing restarts the workers, and the run ends at the process
     * group's timeout; both times are measured from the last step.
     */
    @Test
    @Order(3)
    void withThePolicyOffTheHangIsShownAndTheRunEndsAtTheProcessGroupTimeout() throws Exception {
        Map<String, Object> drill = drill("collective", "off");
        try {
            String job = OFF + "/collective";
            Path record = startJob(job, 0, List.of("--hang", "collective", "--hang-step", Integer.toString(HANG_STEP)));
            try (HangVerdicts watch = new HangVerdicts(app, job)) {
                awaitTraining(job);
                JsonNode hang = await(
                        "the hang in the script's record",
                        Duration.ofSeconds(150),
                        () -> first(record, "hang", e -> true));
                double lastStepAt = lastStepBefore(record, hang.path("t").asDouble());
                drill.put("lastStepAt", lastStepAt);
                JsonNode event = detect(job, lastStepAt, watch, drill);
                assertThat(event.path("data").path("kind").asText())
                        .as("%s", event)
                        .isEqualTo("training");
                assertThat(hangIncident(job, false))
                        .as("the hang shown as an incident")
                        .isNotNull();

                JsonNode timedOut = await(
                        "the process group's timeout in the script's record",
                        Duration.ofSeconds(PG_TIMEOUT_SECONDS + 60),
                        () -> first(record, "collective_failed", e -> true));
                double timeoutSeconds = timedOut.path("t").asDouble() - lastStepAt;
                drill.put("timeoutSeconds", round(timeoutSeconds));
                for (TorchrunAgent a : agents) {
                    assertThat(a.awaitExit(Duration.ofSeconds(90)))
                            .as("%s ends after the timeout:\n%s", a.node(), a.tail())
                            .isNotNull();
                }
                assertThat(timeoutSeconds).isBetween(PG_TIMEOUT_SECONDS - 1.0, PG_TIMEOUT_SECONDS + 30.0);
                assertThat((double) drill.get("detectSeconds")).isLessThan(timeoutSeconds);
                assertThat(events(record, "start").stream()
                                .filter(e ->
                                        e.path("t").asDouble() > hang.path("t").asDouble())
                                .toList())
                        .as("nothing restarted the workers")
                        .isEmpty();
                assertThat(action("restart-workers", job))
                        .as("the policy is off")
                        .isNull();
                drill.put("verdicts", watch.count(v -> true));
                suspects(watch, event, hang.path("node").asText(), drill);
            }
        } finally {
            report(drill);
        }
    }

    // ------------------------------------------------------------------------------------------------ healthy runs

    /** A save longer than the step threshold and shorter than the save threshold is no hang. */
    @Test
    @Order(4)
    void aSlowSaveIsNoHang() throws Exception {
        healthy(
                "healthy-slow-save",
                List.of(
                        "--steps",
                        "250",
                        "--slow-save-step",
                        Integer.toString(HANG_STEP),
                        "--slow-save-seconds",
                        Double.toString(SLOW_SECONDS)),
                record -> assertThat(events(record, "slow_save_end"))
                        .as("both nodes' saves were slow")
                        .hasSize(2));
    }

    /** Rank 0 evaluating inside a declared phase while rank 1 waits for it in a barrier is no hang. */
    @Test
    @Order(5)
    void aDeclaredEvaluationPhaseIsNoHang() throws Exception {
        healthy(
                "healthy-evaluation",
                List.of(
                        "--steps",
                        "250",
                        "--eval-step",
                        Integer.toString(HANG_STEP),
                        "--eval-seconds",
                        Double.toString(SLOW_SECONDS)),
                record -> {
                    List<JsonNode> evals = events(record, "eval_start");
                    assertThat(evals).hasSize(1);
                    assertThat(evals.get(0).path("declared").asBoolean())
                            .as("the agent declares phases: %s", evals.get(0))
                            .isTrue();
                    assertThat(events(record, "eval_end")).hasSize(1);
                });
    }

    /** A plain run, nothing slow on purpose. */
    @Test
    @Order(6)
    void aPlainRunIsNoHang() throws Exception {
        healthy("healthy-plain", List.of("--steps", "300"), record -> {});
    }

    // ------------------------------------------------------------------------------------------------ the drills

    /**
     * Runs a hang drill with the policy on and checks all of it: detection (kind, incident), stacks, restart,
     * training past the hang, the incident.
     */
    private void recovered(
            String job, String hang, String kind, String hungFrame, String waitingFrame, Map<String, Object> drill)
            throws Exception {
        Path record = startJob(job, 3, List.of("--hang", hang, "--hang-step", Integer.toString(HANG_STEP)));
        try (HangVerdicts watch = new HangVerdicts(app, job)) {
            awaitTraining(job);
            JsonNode hung = await(
                    "the hang in the script's record", Duration.ofSeconds(150), () -> first(record, "hang", e -> true));
            double hangAt = hung.path("t").asDouble();
            String hungNode = hung.path("node").asText();
            assertThat(hung.path("rank").asInt()).isEqualTo(HUNG_RANK);
            double lastStepAt = lastStepBefore(record, hangAt);
            drill.put("lastStepAt", lastStepAt);
            assertThat(watch.count(v -> "ok".equals(v.verdict().path("state").asText())))
                    .as("the verdict said ok while the job trained: %s", watch.all())
                    .isPositive();

            // Detected: Lifeline's job.hang_suspected, of the kind the drill plays, and the incident it opens.
            JsonNode event = detect(job, lastStepAt, watch, drill);
            assertThat(event.path("data").path("kind").asText()).as("%s", event).isEqualTo(kind);
            assertThat(event.path("data").path("stalledSeconds").asDouble()).isPositive();
            assertThat(hangIncident(job, false))
                    .as("an incident with cause hang")
                    .isNotNull();

            // The stacks of both ranks: the hung rank in its own frame, the other waiting for it.
            JsonNode stacks = await("the stacks of both ranks", Duration.ofSeconds(60), () -> {
                JsonNode s = getJson("/api/v1/jobs/" + job + "/stacks");
                return s != null && s.path("ranksReported").asInt() == 2 ? s : null;
            });
            drill.put("stackGroups", stacks.path("groups").size());
            assertThat(stacks.path("ranksExpected").asInt()).as("%s", stacks).isEqualTo(2);
            JsonNode hungGroup = group(stacks, HUNG_RANK);
            assertThat(hungGroup)
                    .as("a group with rank %d: %s", HUNG_RANK, stacks)
                    .isNotNull();
            assertThat(functions(hungGroup)).as("rank %d's stack", HUNG_RANK).contains(hungFrame);
            assertThat(texts(hungGroup.path("nodes"))).contains(hungNode);
            assertThat(hungGroup.path("oddOneOut").asBoolean())
                    .as("rank %d keeps the others waiting: %s", HUNG_RANK, stacks)
                    .isTrue();
            JsonNode waitingGroup = group(stacks, 1 - HUNG_RANK);
            assertThat(waitingGroup)
                    .as("a group with rank %d: %s", 1 - HUNG_RANK, stacks)
                    .isNotNull();
            assertThat(functions(waitingGroup))
                    .as("rank %d's stack", 1 - HUNG_RANK)
                    .contains(waitingFrame);
            assertThat(waitingGroup.path("inCollective").asBoolean())
                    .as("rank %d waits in a collective: %s", 1 - HUNG_RANK, stacks)
                    .isTrue();

            // Restarted by the policy, before the process group's timeout, and training past the hang.
            JsonNode restarted = await(
                    "the workers restarted",
                    Duration.ofSeconds(120),
                    () -> first(record, "start", e -> e.path("t").asDouble() > hangAt));
            drill.put("restartSeconds", round(restarted.path("t").asDouble() - lastStepAt));
            assertThat(restarted.path("t").asDouble() - lastStepAt)
                    .as("the workers restarted before the process group's timeout could end the run")
                    .isLessThan(PG_TIMEOUT_SECONDS);
            JsonNode past = await(
                    "training past the hang step",
                    Duration.ofSeconds(180),
                    () -> first(
                            record,
                            "step",
                            e -> e.path("t").asDouble() > hangAt
                                    && e.path("step").asInt() > HANG_STEP));
            drill.put("resumedSeconds", round(past.path("t").asDouble() - lastStepAt));
            assertThat(events(record, "resumed").stream()
                            .filter(e -> e.path("t").asDouble() > hangAt)
                            .map(e -> e.path("step").asInt())
                            .toList())
                    .as("both ranks restored from a checkpoint")
                    .hasSize(2)
                    .allMatch(s -> s > 0 && s <= HANG_STEP);

            // The incident: cause hang, closed as recovered, with the time the job hung.
            JsonNode incident =
                    await("the hang incident closed", Duration.ofSeconds(180), () -> hangIncident(job, true));
            drill.put("hangMillis", incident.path("hangMillis").asLong());
            drill.put("incident", incident.path("id").asText());
            assertThat(incident.path("outcome").asText()).as("%s", incident).isEqualTo("recovered");
            assertThat(incident.path("hangMillis").asLong()).as("%s", incident).isPositive();
            JsonNode action = await("the restart-workers action ended", Duration.ofSeconds(120), () -> {
                JsonNode x = action("restart-workers", job);
                return x != null
                                && List.of("succeeded", "failed", "cancelled")
                                        .contains(x.path("state").asText())
                        ? x
                        : null;
            });
            drill.put("action", action.path("state").asText());
            assertThat(action.path("requestedBy").asText()).isEqualTo("policy:" + POLICY);
            assertThat(action.path("state").asText()).as("%s", action).isEqualTo("succeeded");
            drill.put("verdicts", watch.count(v -> true));

            suspects(watch, event, hungNode, drill);
        }
    }

    /**
     * Who is named: a rank blocked before a collective stops at the same step, in the same phase, as the ranks waiting
     * for it, so its heartbeat alone cannot tell it apart (docs/hangs.md, "Suspects and silent ranks"): the verdict
     * then names nobody and the stacks name the odd one out. Whatever the verdicts and the event name must be the hung
     * rank on its node, never a rank that only waits.
     */
    private static void suspects(HangVerdicts watch, JsonNode event, String hungNode, Map<String, Object> drill) {
        List<JsonNode> named = new ArrayList<>(watch.suspects());
        event.path("data").path("suspects").forEach(named::add);
        drill.put("suspects", named.size());
        assertThat(named)
                .as(
                        "only rank %d on %s may be named a suspect: verdicts %s, event %s",
                        HUNG_RANK, hungNode, watch.suspectedVerdicts(), event.path("data"))
                .allMatch(x -> x.path("rank").asInt() == HUNG_RANK
                        && hungNode.equals(x.path("node").asText()));
    }

    /** A run that must never be suspected of a hang, with the policy on (a false detection would restart it). */
    private void healthy(String name, List<String> script, Check check) throws Exception {
        Map<String, Object> drill = drill(name, "on");
        try {
            String job = ON + "/" + name;
            Path record = startJob(job, 0, script);
            try (HangVerdicts watch = new HangVerdicts(app, job)) {
                awaitTraining(job);
                for (TorchrunAgent a : agents) {
                    // Every agent's tail: torchrun's exit barrier holds one agent while the other's rank has not ended.
                    assertThat(a.awaitExit(Duration.ofSeconds(240)))
                            .as("%s ends by itself:\n%s", a.node(), tails())
                            .isNotNull();
                }
                // A run that ended is no hang either: its ranks' last heartbeats stay within the liveness window for
                // a while (35 s by default), so the watch goes on that long and a little more.
                double endedAt = events(record, "done").stream()
                        .mapToDouble(e -> e.path("t").asDouble())
                        .max()
                        .orElse(System.currentTimeMillis() / 1000.0);
                Thread.sleep(Duration.ofSeconds(AFTER_END_SECONDS).toMillis());
                long ended = (long) (endedAt * 1000);
                long whileRunning = watch.count(s -> s.atMillis() <= ended
                        && "suspected".equals(s.verdict().path("state").asText()));
                long afterEnd = watch.count(s -> s.atMillis() > ended
                        && "suspected".equals(s.verdict().path("state").asText()));
                long ok = watch.count(s -> "ok".equals(s.verdict().path("state").asText()));
                drill.put("detections", whileRunning + afterEnd);
                drill.put("detectionsWhileRunning", whileRunning);
                drill.put("detectionsAfterEnd", afterEnd);
                drill.put("verdicts", watch.count(s -> true));
                drill.put("okVerdicts", ok);
                JsonNode incident = hangIncident(job, false);
                HttpResponse<String> events = app.get("/api/v1/events?type=job.hang_suspected&limit=20&subject="
                        + URLEncoder.encode(job, StandardCharsets.UTF_8));
                assertThat(events.statusCode()).as(events.body()).isEqualTo(200);
                List<Double> reported = new ArrayList<>();
                JSON.readTree(events.body())
                        .path("events")
                        .forEach(e -> reported.add(epochSeconds(e.path("time").asText()) - endedAt));
                drill.put("hangEvents", reported.size());
                drill.put("hangEventsAfterEndSeconds", reported);
                drill.put("hangIncident", incident != null);
                assertThat(whileRunning)
                        .as("no hang suspected while it trained: %s", watch.suspectedVerdicts())
                        .isZero();
                assertThat(ok)
                        .as("the verdict was read and said ok: %s", watch.all())
                        .isPositive();
                assertThat(events(record, "done")).as("both ranks finished").hasSize(2);
                check.on(record);
                assertThat(reported)
                        .as("no job.hang_suspected (seconds after the run's end): %s", events.body())
                        .isEmpty();
                assertThat(incident).as("no hang incident").isNull();
                assertThat(afterEnd)
                        .as("no hang suspected after the run ended: %s", watch.suspectedVerdicts())
                        .isZero();
            }
        } finally {
            report(drill);
        }
    }

    /** A check of the script's record. */
    @FunctionalInterface
    private interface Check {
        void on(Path record) throws Exception;
    }

    // ------------------------------------------------------------------------------------------------ helpers

    private static Map<String, Object> drill(String name, String policy) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("drill", name);
        d.put("policy", policy);
        return d;
    }

    /** One line for bench/hang-drills.sh, whatever the drill's outcome. */
    private static void report(Map<String, Object> drill) throws Exception {
        System.out.println("HANG-DRILL " + JSON.writeValueAsString(drill));
    }

    /**
     * Waits for Lifeline's {@code job.hang_suspected} for the job after {@code lastStepAt} (its event log, read through
     * {@code GET /api/v1/events}) and notes the detection's delay from the last step by the event's time (when the
     * detector wrote it); and by when {@code GET .../hang} was first read as suspected (read every 100 ms).
     */
    private JsonNode detect(String job, double lastStepAt, HangVerdicts watch, Map<String, Object> drill) {
        JsonNode event = await("job.hang_suspected for " + job, Duration.ofSeconds(PG_TIMEOUT_SECONDS), () -> {
            HttpResponse<String> r = app.get("/api/v1/events?type=job.hang_suspected&order=asc&limit=20&subject="
                    + URLEncoder.encode(job, StandardCharsets.UTF_8));
            if (r.statusCode() != 200) {
                throw new IllegalStateException("GET /api/v1/events: " + r.statusCode() + " " + r.body());
            }
            for (JsonNode e : JSON.readTree(r.body()).path("events")) {
                if (epochSeconds(e.path("time").asText()) > lastStepAt) {
                    return e;
                }
            }
            return null;
        });
        drill.put("detectSeconds", round(epochSeconds(event.path("time").asText()) - lastStepAt));
        JsonNode data = event.path("data");
        drill.put("kind", data.path("kind").asText());
        drill.put("stalledSeconds", data.path("stalledSeconds").asDouble());
        drill.put("thresholdSeconds", data.path("thresholdSeconds").asDouble());
        drill.put("basis", data.path("basis").asText());
        // The verdict stays suspected while the hang incident waits for its restart (docs/hangs.md).
        HangVerdicts.Seen polled =
                await("GET .../hang read as suspected", Duration.ofSeconds(15), watch::firstSuspected);
        drill.put("polledSeconds", round(polled.atMillis() / 1000.0 - lastStepAt));
        drill.put("verdictKind", polled.verdict().path("kind").asText());
        return event;
    }

    private static double epochSeconds(String rfc3339) {
        return Instant.parse(rfc3339).toEpochMilli() / 1000.0;
    }

    private static double round(double seconds) {
        return Math.round(seconds * 1000) / 1000.0;
    }

    /** Starts the job's two agents; the path of the script's record. */
    private Path startJob(String job, int maxRestarts, List<String> script) throws Exception {
        String name = job.substring(job.indexOf('/') + 1);
        String ns = job.substring(0, job.indexOf('/'));
        List<String> nodes = List.of(ns + "-" + name + "-a", ns + "-" + name + "-b");
        for (String node : nodes) {
            postEvent(
                    "node.registered",
                    node,
                    "{\"pool\":\"cpu-" + ns + "-" + name + "\",\"capacityType\":\"on-demand\",\"gpuCount\":0}");
            postEvent("node.ready", node, "{}");
        }
        Path dir = Files.createDirectories(work.resolve(job.replace('/', '-')));
        Path record = dir.resolve("record.jsonl");
        int rdzv = LifelineProcess.freePort();
        for (String node : nodes) {
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
                    record.toString(),
                    "--pg-timeout",
                    Integer.toString(PG_TIMEOUT_SECONDS)));
            args.addAll(script);
            agents.add(TorchrunAgent.start(
                    "1:2",
                    dir,
                    app.url(),
                    token,
                    job,
                    node,
                    rdzv,
                    List.of("--max-restarts=" + maxRestarts),
                    Path.of("examples/hang_drill.py").toAbsolutePath(),
                    args,
                    TorchrunAgent.env("LIFELINE_STEP_TIMES_INTERVAL", "1")));
            if (node.equals(nodes.get(0))) {
                // The first agent hosts the c10d rendezvous store.
                await("the rendezvous store on " + node, Duration.ofSeconds(90), () -> listening(rdzv) ? true : null);
            }
        }
        return record;
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

    /** The job's newest incident of cause hang (closed ones only when {@code closed}), or null. */
    private static JsonNode hangIncident(String job, boolean closed) throws Exception {
        JsonNode list = getJson("/api/v1/jobs/" + job + "/incidents");
        JsonNode found = null;
        for (JsonNode i : list == null ? JSON.createArrayNode() : list) {
            if ("hang".equals(i.path("cause").asText())
                    && (!closed || i.path("closedAt").isTextual())) {
                found = i;
            }
        }
        return found;
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

    /** The stack group holding {@code rank}, or null. */
    private static JsonNode group(JsonNode stacks, int rank) {
        for (JsonNode g : stacks.path("groups")) {
            for (JsonNode r : g.path("ranks")) {
                if (r.asInt() == rank) {
                    return g;
                }
            }
        }
        return null;
    }

    /** Every function named in a group's main thread (every thread's when none is marked main). */
    private static List<String> functions(JsonNode group) {
        List<String> main = new ArrayList<>();
        List<String> all = new ArrayList<>();
        for (JsonNode t : group.path("threads")) {
            for (JsonNode f : t.path("frames")) {
                all.add(f.path("function").asText());
                if (t.path("main").asBoolean()) {
                    main.add(f.path("function").asText());
                }
            }
        }
        return main.isEmpty() ? all : main;
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    // ------------------------------------------------------------------------------------------------ the record

    /** Every entry of the script's record of that event, in the order written. */
    private static List<JsonNode> events(Path record, String event) throws Exception {
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

    private static JsonNode first(Path record, String event, Predicate<JsonNode> p) throws Exception {
        return events(record, event).stream().filter(p).findFirst().orElse(null);
    }

    /** The wall-clock time of the last step any rank made before {@code t}. */
    private static double lastStepBefore(Path record, double t) throws Exception {
        return events(record, "step").stream()
                .mapToDouble(e -> e.path("t").asDouble())
                .filter(x -> x <= t)
                .max()
                .orElseThrow();
    }

    // ------------------------------------------------------------------------------------------------ HTTP

    private static void postEvent(String type, String subject, String data) throws Exception {
        String id = type + "-" + subject + "-" + System.nanoTime();
        HttpResponse<String> r = app.post(
                "/api/v1/events",
                "application/cloudevents+json",
                "{\"specversion\":\"1.0\",\"id\":\"" + id + "\",\"source\":\"it/hang\",\"type\":\"" + type
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
    /** The last lines of every agent, each under its node. */
    private String tails() {
        StringBuilder logs = new StringBuilder();
        agents.forEach(
                a -> logs.append("\n--- ").append(a.node()).append(" ---\n").append(a.tail()));
        return logs.toString();
    }

    private <T> T await(String what, Duration timeout, Callable<T> probe) {
        Object[] seen = new Object[1];
        try {
            Awaitility.await(what)
                    .atMost(timeout)
                    .pollInterval(Duration.ofMillis(250))
                    .ignoreExceptions()
                    .until(() -> (seen[0] = probe.call()) != null);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("timed out waiting for " + what + tails(), e);
        }
        @SuppressWarnings("unchecked")
        T value = (T) seen[0];
        return value;
    }
}
