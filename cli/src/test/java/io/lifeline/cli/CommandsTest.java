package io.lifeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.lifeline.cli.FakeServer.Reply;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The commands against a canned server, in this JVM: exit codes, messages, confirmation, idempotency keys, --wait. */
class CommandsTest {

    private static final String JOBS =
            "{\"items\":[{\"name\":\"vision/vit\",\"namespace\":\"vision\",\"state\":\"RUNNING\","
                    + "\"worldSize\":64,\"gpusHeld\":64,\"restarts\":0,\"maxRestarts\":3,\"freshnessAgeMillis\":61000,"
                    + "\"freshnessBreached\":false,\"ettr\":0.875,\"submittedAt\":\"2026-03-01T10:00:00Z\"},"
                    + "{\"name\":\"speech/whisper\",\"namespace\":\"speech\",\"state\":\"PENDING\",\"worldSize\":0,\"gpusHeld\":0,"
                    + "\"restarts\":0,\"freshnessBreached\":true,\"submittedAt\":\"2026-03-01T10:00:00Z\"}],"
                    + "\"total\":2,\"offset\":0,\"limit\":1000}";
    private static final String IMPACT = "{\"dryRun\":true,\"kind\":\"drain\",\"target\":\"n1\",\"impact\":{"
            + "\"gpuHoursAtRisk\":1.733,\"newestCheckpointAgeSeconds\":412,\"ranksAffected\":8,\"jobs\":[\"vision/vit\"],"
            + "\"nodes\":[\"n1\"],\"deadlineAllowsCheckpoint\":true,\"warnings\":[\"vision/vit has unsaved work\"]}}";

    @TempDir
    Path dir;

    private FakeServer server;
    private Map<String, String> env;

    @BeforeEach
    void start() throws IOException {
        server = new FakeServer();
        env = Map.of(
                "LIFELINECONFIG",
                dir.resolve("config.yaml").toString(),
                "LIFELINE_URL",
                server.url(),
                "LIFELINE_TOKEN",
                "llt_test00000001_secret",
                "HOME",
                dir.toString());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private CliRun.Result run(String... args) {
        return CliRun.run(env, "", args);
    }

    @Test
    void listsJobsAsATableJsonYamlAndNames() {
        server.on("GET /api/v1/jobs", Reply.json(JOBS));
        CliRun.Result table = run("get", "jobs");
        assertThat(table.code()).isZero();
        assertThat(table.out())
                .startsWith("NAME ")
                .contains("vision/vit")
                .contains("87.5%")
                .contains("1m1s")
                .doesNotContain("\u001b[");
        assertThat(table.out()
                        .lines()
                        .filter(l -> l.startsWith("speech/whisper"))
                        .findFirst()
                        .orElseThrow())
                .contains("-!");
        assertThat(server.requests.get(0).header("Authorization")).isEqualTo("Bearer llt_test00000001_secret");
        assertThat(Json.parse(run("get", "jobs", "-o", "json").out())
                        .at("/items/1/name")
                        .asText())
                .isEqualTo("speech/whisper");
        assertThat(run("get", "jobs", "-o", "yaml").out()).contains("- name: vision/vit");
        assertThat(run("get", "jobs", "-o", "name").out()).isEqualTo("job/vision/vit\njob/speech/whisper\n");
        assertThat(run("get", "jobs", "-o", "wide").out()).contains("LAST PROGRESS");
        run("get", "jobs", "-n", "vision", "--state", "running");
        assertThat(server.requests.get(server.requests.size() - 1).uri())
                .contains("namespace=vision")
                .contains("state=running");
    }

    @Test
    void theServersProblemDecidesTheExitCodeAndIsPrinted() {
        server.on("GET /api/v1/jobs/x/y", Reply.problem(404, "Not Found", "no job named 'x/y'"));
        CliRun.Result notFound = run("describe", "job", "x/y");
        assertThat(notFound.code()).isEqualTo(Exit.NOT_FOUND);
        assertThat(notFound.err()).isEqualTo("error: Not Found: no job named 'x/y'\n");
        server.on(
                "POST /api/v1/actions",
                Reply.problem(403, "Forbidden", "the viewer role may not POST this path; it needs operator"));
        CliRun.Result forbidden = run("drain", "n1", "--yes");
        assertThat(forbidden.code()).isEqualTo(Exit.NOT_ALLOWED);
        assertThat(forbidden.err()).contains("Forbidden: the viewer role may not POST this path; it needs operator");
        server.on("POST /api/v1/actions", Reply.problem(400, "Invalid request", "target: job vision/vit is PENDING"));
        assertThat(run("checkpoint", "vision/vit", "--yes").code()).isEqualTo(Exit.FAILED);
        server.on("GET /api/v1/jobs", Reply.problem(400, "Invalid request", "state: must be one of ..."));
        assertThat(run("get", "jobs", "--state", "nope").code())
                .as("a bad filter is a usage error")
                .isEqualTo(Exit.USAGE);
        server.on(
                "GET /api/v1/whoami",
                new Reply(
                        401,
                        "application/problem+json",
                        "{\"title\":\"Unauthorized\",\"detail\":\"a bearer token is required\"}"));
        assertThat(run("whoami").code()).isEqualTo(Exit.NOT_ALLOWED);
    }

    @Test
    void usageErrorsAreTwo() {
        assertThat(run("frobnicate").code()).isEqualTo(Exit.USAGE);
        assertThat(run("get").code()).isEqualTo(Exit.USAGE);
        assertThat(run("get", "jobs", "--bogus").code()).isEqualTo(Exit.USAGE);
        assertThat(run("rescale", "vision/vit").code())
                .as("--workers is required")
                .isEqualTo(Exit.USAGE);
        assertThat(run("get", "jobs", "-o", "xml").code()).isEqualTo(Exit.USAGE);
        assertThat(run("--version").out()).startsWith("lifelinectl ");
    }

    @Test
    void aNoticePastItsDeadlineIsShownExpiredNotActive() {
        String node = "{\"name\":\"n17\",\"facts\":{\"pool\":\"spot-a\",\"capacityType\":\"spot\",\"gpuCount\":8},"
                + "\"state\":\"NOTICE_RECEIVED\",\"stateSince\":\"2026-11-29T12:00:00Z\",\"cordoned\":false,"
                + "\"notice\":{\"kind\":\"SPOT_RECLAIM\",\"provider\":\"aws\",\"deadline\":\"2026-11-29T12:02:00Z\","
                + "\"receivedAt\":\"2026-11-29T12:00:00Z\",\"expired\":true},\"noticeActive\":false,\"noticeExpired\":true,"
                + "\"health\":\"HEALTHY\",\"gpus\":[],\"xidHistory\":[],\"lemon\":{\"interruptions\":1}}";
        server.on("GET /api/v1/nodes/n17", Reply.json(node));
        server.on("GET /api/v1/nodes", Reply.json("{\"items\":[" + node + "],\"total\":1}"));

        CliRun.Result described = run("describe", "node", "n17");
        CliRun.Result listed = run("get", "nodes");

        assertThat(described.code()).isZero();
        assertThat(described.out())
                .contains("Interruption notice")
                .contains("(expired)")
                .doesNotContain("(active)");
        assertThat(listed.code()).isZero();
        assertThat(listed.out()
                        .lines()
                        .filter(l -> l.startsWith("n17"))
                        .findFirst()
                        .orElseThrow())
                .contains("expired");
    }

    @Test
    void aNodeWithoutGpuRowsIsDescribedInOrderWithNothingOnStandardError() {
        server.on(
                "GET /api/v1/nodes/n3",
                Reply.json("{\"name\":\"n3\",\"facts\":{\"pool\":\"a\",\"capacityType\":\"on_demand\"},"
                        + "\"state\":\"READY\",\"stateSince\":\"2026-11-29T12:00:00Z\",\"cordoned\":false,\"health\":\"HEALTHY\","
                        + "\"gpus\":[],\"xidHistory\":[],\"lemon\":{\"interruptions\":0}}"));

        CliRun.Result described = run("describe", "node", "n3");

        assertThat(described.code()).isZero();
        assertThat(described.err()).isEmpty();
        assertThat(described.out())
                .containsSubsequence(
                        "Health:", "healthy\n", "Interruptions (7 d):", "\nGPUs:\n  none\n", "XID history:\n  none\n");
    }

    @Test
    void aRegisteredNodeWithoutTelemetryIsDescribedWithItsGpuCount() {
        String node = "{\"name\":\"n5\",\"facts\":{\"pool\":\"a\",\"capacityType\":\"spot\",\"gpuCount\":8},"
                + "\"gpuCount\":8,\"state\":\"READY\",\"stateSince\":\"2026-11-29T12:00:00Z\",\"cordoned\":false,"
                + "\"health\":\"HEALTHY\",\"gpus\":[],\"xidHistory\":[],\"lemon\":{\"interruptions\":0}}";
        server.on("GET /api/v1/nodes/n5", Reply.json(node));

        CliRun.Result described = run("describe", "node", "n5");
        CliRun.Result got = run("get", "nodes", "n5");

        assertThat(described.out()).contains("GPUs:\n  none reporting yet (8 on the node)\n");
        assertThat(got.out().lines().filter(l -> l.startsWith("n5")).findFirst().orElseThrow())
                .matches(".* 8 .*");
    }

    @Test
    void aTerminatedNodesGpusAreDescribedGoneNotHealthy() {
        server.on(
                "GET /api/v1/nodes/n4",
                Reply.json(
                        "{\"name\":\"n4\",\"facts\":{\"pool\":\"a\",\"capacityType\":\"spot\","
                                + "\"gpuCount\":8},\"state\":\"TERMINATED\",\"stateSince\":\"2026-11-29T12:00:00Z\",\"cordoned\":false,"
                                + "\"health\":\"HEALTHY\",\"gpus\":[{\"index\":0,\"model\":\"H100\",\"health\":null,"
                                + "\"reason\":\"gone: the node is terminated\"}],\"xidHistory\":[],\"lemon\":{\"interruptions\":1}}"));

        CliRun.Result described = run("describe", "node", "n4");

        assertThat(described.code()).isZero();
        assertThat(described.out()).doesNotContain("healthy").contains("terminated: its GPUs are gone");
        assertThat(described
                        .out()
                        .lines()
                        .filter(l -> l.contains("H100"))
                        .findFirst()
                        .orElseThrow())
                .contains("gone");
    }

    @Test
    void anUnreachableServerIsFiveWithAClearMessage() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        CliRun.Result r = run("--server", "http://127.0.0.1:" + port, "get", "nodes");
        assertThat(r.code()).isEqualTo(Exit.UNREACHABLE);
        assertThat(r.err())
                .contains("cannot reach Lifeline at http://127.0.0.1:" + port)
                .contains("connection refused");
    }

    @Test
    void aDryRunShowsTheImpactAndChangesNothing() {
        server.on("POST /api/v1/actions", Reply.json(IMPACT));
        CliRun.Result r = run("drain", "n1", "--dry-run", "--deadline", "2m");
        assertThat(r.code()).isZero();
        assertThat(r.out())
                .contains("Dry run of drain n1")
                .contains("Ranks affected:")
                .contains("8")
                .contains("1.733")
                .contains("6m52s old")
                .contains("vision/vit has unsaved work");
        assertThat(server.requests).hasSize(1);
        assertThat(Json.parse(server.requests.get(0).body()).at("/dryRun").asBoolean())
                .isTrue();
        assertThat(Json.parse(server.requests.get(0).body())
                        .at("/params/deadlineSeconds")
                        .asLong())
                .isEqualTo(120);
        assertThat(server.requests.get(0).header("Idempotency-Key")).isNull();
    }

    @Test
    void cordonAsksForACordonOfTheNodeAndNothingMore() {
        server.on(
                "POST /api/v1/actions",
                r -> new Reply(
                        201,
                        "application/json",
                        "{\"id\":\"act-00000000000000000002\",\"kind\":\"cordon\",\"target\":\"n1\","
                                + "\"state\":\"pending\",\"steps\":[]}"));
        CliRun.Result r = run("cordon", "n1", "--yes", "--reason", "rejects every GPU pod");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("action act-00000000000000000002 cordon n1: pending");
        JsonNode body =
                Json.parse(server.requests.get(server.requests.size() - 1).body());
        assertThat(body.path("kind").asText()).isEqualTo("cordon");
        assertThat(body.path("target").asText()).isEqualTo("n1");
        assertThat(body.path("reason").asText()).isEqualTo("rejects every GPU pod");
    }

    @Test
    void asksFirstAndDoesNothingUnlessToldYes() {
        server.on(
                "POST /api/v1/actions",
                r -> Json.parse(r.body()).path("dryRun").asBoolean()
                        ? Reply.json(IMPACT)
                        : new Reply(
                                201,
                                "application/json",
                                "{\"id\":\"act-00000000000000000001\",\"kind\":\"drain\",\"target\":\"n1\","
                                        + "\"state\":\"pending\",\"steps\":[]}"));
        CliRun.Result no = CliRun.run(env, "n\n", "drain", "n1");
        assertThat(no.code()).isEqualTo(Exit.FAILED);
        assertThat(no.err())
                .contains("What drain n1 would do")
                .contains("Drain node n1? [y/N]")
                .contains("nothing was done");
        assertThat(CliRun.run(env, "", "drain", "n1").code())
                .as("no answer is a no")
                .isEqualTo(Exit.FAILED);
        assertThat(server.requests).allSatisfy(q -> assertThat(q.body()).contains("\"dryRun\":true"));
        CliRun.Result yes = CliRun.run(env, "y\n", "drain", "n1");
        assertThat(yes.code()).isZero();
        assertThat(yes.out()).contains("action act-00000000000000000001 drain n1: pending");
        List<String> keys = server.requests.stream()
                .filter(q -> !q.body().contains("dryRun"))
                .map(q -> q.header("Idempotency-Key"))
                .toList();
        run("drain", "n1", "--yes");
        run("drain", "n1", "--yes", "--idempotency-key", "my-key-1");
        List<String> all = server.requests.stream()
                .filter(q -> !q.body().contains("dryRun"))
                .map(q -> q.header("Idempotency-Key"))
                .toList();
        assertThat(keys).hasSize(1);
        assertThat(all)
                .hasSize(3)
                .doesNotHaveDuplicates()
                .allSatisfy(k -> assertThat(k).isNotBlank())
                .endsWith("my-key-1");
    }

    @Test
    void waitFollowsTheStepsToTheEnd() {
        AtomicInteger polls = new AtomicInteger();
        server.on(
                "POST /api/v1/actions",
                new Reply(
                        201,
                        "application/json",
                        "{\"id\":\"act-00000000000000000002\","
                                + "\"kind\":\"checkpoint-now\",\"target\":\"vision/vit\",\"state\":\"pending\",\"steps\":[]}"));
        server.on(
                "GET /api/v1/actions/act-00000000000000000002",
                r -> Reply.json(
                        polls.incrementAndGet() < 2
                                ? "{\"id\":\"act-00000000000000000002\",\"state\":\"running\",\"steps\":[{\"seq\":0,\"name\":\"request checkpoint\","
                                        + "\"state\":\"done\",\"detail\":\"sent\"},{\"seq\":1,\"name\":\"await checkpoint\",\"state\":\"running\"}]}"
                                : "{\"id\":\"act-00000000000000000002\",\"state\":\"succeeded\",\"outcome\":\"checkpoint completed\",\"steps\":["
                                        + "{\"seq\":0,\"name\":\"request checkpoint\",\"state\":\"done\",\"detail\":\"sent\"},"
                                        + "{\"seq\":1,\"name\":\"await checkpoint\",\"state\":\"done\",\"detail\":\"ckpt-7 completed\"}]}"));
        CliRun.Result r = run("checkpoint", "vision/vit", "--yes", "--wait");
        assertThat(r.code()).isZero();
        assertThat(r.out())
                .contains("request checkpoint: sent")
                .contains("await checkpoint: ckpt-7 completed")
                .contains("Outcome: checkpoint completed")
                .contains("succeeded");
        CliRun.Result json = run("checkpoint", "vision/vit", "--yes", "--wait", "-o", "json");
        assertThat(Json.parse(json.out()).path("state").asText()).isEqualTo("succeeded");
    }

    @Test
    void aBareJobNameIsFoundInItsNamespace() {
        server.on("GET /api/v1/jobs", Reply.json(JOBS));
        server.on(
                "GET /api/v1/jobs/vision/vit/advice",
                Reply.json("{\"job\":\"vision/vit\",\"recommendedSeconds\":101.4,"
                        + "\"formula\":\"daly-first-order\",\"notes\":[\"n\"]}"));
        CliRun.Result r = run("advice", "vit");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("Recommended interval:").contains("1m41s");
        assertThat(run("advice", "nope").code()).isEqualTo(Exit.NOT_FOUND);
    }

    /** A job under an ETTR objective: the advice says which intervals keep it inside, or the best it can do. */
    @Test
    void adviceSaysWhichIntervalsKeepTheJobInsideItsObjective() {
        server.on("GET /api/v1/jobs", Reply.json(JOBS));
        server.on(
                "GET /api/v1/jobs/vision/vit/advice",
                Reply.json("{\"job\":\"vision/vit\",\"recommendedSeconds\":1224.9,\"expectedEttrCurrent\":0.927,"
                        + "\"expectedEttrRecommended\":0.931,\"notes\":[],\"objective\":{\"ettrTarget\":0.92,"
                        + "\"reachable\":true,\"lowestSeconds\":702.5,\"highestSeconds\":2277.5,\"bestEttr\":0.931,"
                        + "\"bestSeconds\":1264.9,\"currentMeets\":true,\"recommendedMeets\":true}}"));
        CliRun.Result r = run("advice", "vit");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("Objective")
                .contains("ETTR >= 92.0%: intervals ")
                .contains(" keep the job inside it (current meets it, recommended meets it)");
        server.on(
                "GET /api/v1/jobs/vision/vit/advice",
                Reply.json("{\"job\":\"vision/vit\",\"recommendedSeconds\":1224.9,\"notes\":[],"
                        + "\"objective\":{\"ettrTarget\":0.95,\"reachable\":false,\"bestEttr\":0.931,"
                        + "\"bestSeconds\":1264.9,\"currentMeets\":false,\"recommendedMeets\":false}}"));
        assertThat(run("advice", "vit").out())
                .contains("ETTR >= 95.0%: no interval keeps the job inside it; best 93.1% at ")
                .contains("(current short of it, recommended short of it)");
        server.on(
                "GET /api/v1/jobs/vision/vit/advice",
                Reply.json("{\"job\":\"vision/vit\",\"recommendedSeconds\":1224.9,\"notes\":[],\"objective\":null}"));
        assertThat(run("advice", "vit").out()).doesNotContain("Objective");
    }

    @Test
    void freshnessWithoutACheckpointThatCountsSaysWhatItsAgeIsAndWhichCheckpointDoesNotCount() {
        server.on(
                "GET /api/v1/jobs/vision/vit/freshness",
                Reply.json("{\"checkpointId\":null,\"step\":null,"
                        + "\"ageMillis\":9000,\"stepsSince\":null,\"gpusHeld\":2,\"workAtRiskGpuHours\":0.005,"
                        + "\"objectiveMillis\":3600000,\"breached\":false,\"verifies\":false,"
                        + "\"newestCheckpointId\":\"step-40-demo-r0\",\"newestDurability\":\"node-local\","
                        + "\"newestNotSurviving\":true}"));
        CliRun.Result r = run("freshness", "vision/vit");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out())
                .containsPattern("Newest good: +none that survives the loss of a node \\(newest: "
                        + "step-40-demo-r0, node-local\\)")
                .containsPattern("Age: +no checkpoint; 9s of training unprotected " + "\\(objective 1h\\) ok")
                .doesNotContain("none yet");

        server.on(
                "GET /api/v1/jobs/vision/vit/freshness",
                Reply.json("{\"checkpointId\":null,\"ageMillis\":9000,"
                        + "\"objectiveMillis\":3600000,\"breached\":false}"));
        CliRun.Result none = run("freshness", "vision/vit");
        assertThat(none.out())
                .containsPattern("Newest good: +none yet")
                .containsPattern("Age: +no checkpoint; 9s of training unprotected");
    }

    @Test
    void aTimelineIsMarkedAlikeFromAServerOfThisReleaseAndOfTheOneBefore() {
        // This release answers kinds by their wire names, the one before by their Java constants.
        String[][] spellings = {
            {"incident-opened", "incident-closed", "transition"}, {"INCIDENT_OPENED", "INCIDENT_CLOSED", "TRANSITION"}
        };
        for (String[] kinds : spellings) {
            server.on(
                    "GET /api/v1/jobs/ml/llm/timeline",
                    Reply.json("{\"job\":\"ml/llm\",\"entries\":["
                            + "{\"seq\":1,\"time\":\"2026-03-01T10:00:00Z\",\"kind\":\"" + kinds[0]
                            + "\",\"type\":\"x\","
                            + "\"summary\":\"opened\",\"incidentId\":\"ml/llm#1\"},"
                            + "{\"seq\":2,\"time\":\"2026-03-01T10:01:00Z\",\"kind\":\"" + kinds[1]
                            + "\",\"type\":\"y\","
                            + "\"summary\":\"closed\",\"incidentId\":\"ml/llm#1\"},"
                            + "{\"seq\":3,\"time\":\"2026-03-01T10:02:00Z\",\"kind\":\"" + kinds[2]
                            + "\",\"type\":\"z\","
                            + "\"summary\":\"moved\",\"incidentId\":null}],\"incidents\":[]}"));
            server.on("GET /api/v1/jobs/ml/llm/membership", Reply.json("{\"worldSizeSeries\":[]}"));
            CliRun.Result r = run("timeline", "ml/llm");
            assertThat(r.code()).as(r.toString()).isZero();
            assertThat(r.out()).as(kinds[0]).contains("[!] opened", "[ok] closed", "[state] moved");
        }
    }
}
