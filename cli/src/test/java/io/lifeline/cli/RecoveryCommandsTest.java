package io.lifeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.cli.FakeServer.Reply;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code attempts} and {@code recovery} against a canned server: the text, -o json, budgets, verdicts, errors. */
class RecoveryCommandsTest {

    /** The launch, ended by a software error on two ranks; then the attempt that still runs. */
    static final String ATTEMPTS = "[{\"number\":1,\"startedAt\":\"2026-03-01T10:00:00Z\","
            + "\"endedAt\":\"2026-03-01T11:00:00Z\",\"startedAfter\":null,\"startCause\":null,"
            + "\"endedBy\":\"vision/vit#1\",\"endCause\":\"software-error\",\"endDetail\":\"rank 3 exited with 1\","
            + "\"nodes\":[\"node-a\",\"node-b\",\"node-c\"],"
            + "\"failures\":[{\"at\":\"2026-03-01T11:00:00Z\",\"rank\":3,\"node\":\"node-b\",\"exitCode\":1,"
            + "\"signal\":null,\"errorType\":\"RuntimeError\",\"errorLine\":\"CUDA error: an illegal memory access was "
            + "encountered while running the fused attention kernel\",\"step\":1450},"
            + "{\"at\":\"2026-03-01T11:00:01Z\",\"rank\":5,\"node\":\"node-c\",\"exitCode\":-9,\"signal\":\"SIGKILL\","
            + "\"errorType\":null,\"errorLine\":null,\"step\":1450}],"
            + "\"startStep\":0,\"endStep\":1450,\"stepsMade\":1450,\"checkpointStepAtStart\":null,"
            + "\"checkpointStepAtEnd\":1000,\"checkpointAdvanced\":true},"
            + "{\"number\":2,\"startedAt\":\"2026-03-01T11:05:00Z\",\"endedAt\":null,"
            + "\"startedAfter\":\"vision/vit#1\",\"startCause\":\"software-error\",\"endedBy\":null,\"endCause\":null,"
            + "\"endDetail\":null,\"nodes\":[\"node-a\",\"node-b\"],\"failures\":[],\"startStep\":1000,"
            + "\"endStep\":1300,\"stepsMade\":300,\"checkpointStepAtStart\":1000,\"checkpointStepAtEnd\":1000,"
            + "\"checkpointAdvanced\":false}]";

    static String advice(int rung, String remedy, String node, String rule, String verdict, String outcome) {
        return "{\"job\":\"vision/vit\",\"incident\":\"vision/vit#2\",\"rung\":" + rung + ",\"remedy\":\"" + remedy
                + "\",\"node\":" + (node == null ? "null" : "\"" + node + "\"") + ",\"rule\":\"" + rule
                + "\",\"rulesVersion\":\"1\",\"evidence\":[\"attempts 1 and 2 failed on node-b\","
                + "\"node-b: XID 79 at 10:59\"],\"expected\":\"training resumes\","
                + "\"decidedAt\":\"2026-03-01T11:10:00Z\",\"deadline\":\"2026-03-01T11:20:00Z\",\"mode\":\"on\","
                + "\"verdict\":\"" + verdict + "\",\"outcome\":" + (outcome == null ? "null" : "\"" + outcome + "\"")
                + ",\"checkedAt\":" + (outcome == null ? "null" : "\"2026-03-01T11:15:00Z\"") + "}";
    }

    static final String FAILED = advice(1, "restart-in-place", null, "transient", "failed", "no step within 10m");
    static final String VERIFIED =
            advice(2, "restart-excluding-node", "node-b", "escalation", "verified", "step 1320 reached without node-b");
    static final String PENDING = advice(3, "stop-and-page", null, "escalation", "pending", null);

    static String recovery(String budgets, String current, String... advice) {
        return "{\"job\":\"vision/vit\",\"mode\":\"on\",\"rulesVersion\":\"1\",\"rules\":["
                + "{\"id\":\"workload-error\",\"remedy\":\"stop-and-page\",\"when\":\"the same error 3 times\"},"
                + "{\"id\":\"transient\",\"remedy\":\"restart-in-place\",\"when\":\"any other failure\"}],"
                + "\"budgets\":" + budgets + ",\"current\":" + current + ",\"advice\":[" + String.join(",", advice)
                + "],\"attempts\":" + ATTEMPTS + "}";
    }

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

    private static String line(String out, String containing) {
        return out.lines().filter(l -> l.contains(containing)).findFirst().orElseThrow();
    }

    @Test
    void attemptsPrintsAnEndedAttemptWithItsFirstFailureAndARunningOne() {
        server.on("GET /api/v1/jobs/vision/vit/attempts", Reply.json(ATTEMPTS));
        CliRun.Result r = run("attempts", "vision/vit", "--absolute");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).isEmpty();
        assertThat(r.out().lines().findFirst().orElseThrow())
                .contains(
                        "ATTEMPT", "STARTED", "ENDED", "ENDED BY", "NODES", "STEPS", "CKPT ADVANCED", "FIRST FAILURE");
        assertThat(line(r.out(), "software-error"))
                .contains("2026-03-01T10:00:00Z", "2026-03-01T11:00:00Z")
                .contains("software-error #1")
                .contains("3 nodes")
                .contains("0→1450 (+1450)")
                .contains("yes")
                .contains("rank 3 on node-b, exit 1: RuntimeError: CUDA error: an illegal memory access")
                .contains("…")
                .doesNotContain("fused attention kernel")
                .endsWith("(+1 more)");
        assertThat(line(r.out(), "running"))
                .contains("2026-03-01T11:05:00Z")
                .contains("node-a,node-b")
                .contains("1000→1300 (+300)")
                .contains("   no   ");

        CliRun.Result wide = run("attempts", "vision/vit", "-o", "wide");
        assertThat(line(wide.out(), "software-error"))
                .contains("node-a,node-b,node-c")
                .contains("yes (-→1000)")
                .contains("fused attention kernel")
                .contains("rank 3 exited with 1");
    }

    @Test
    void aFailureBySignalShowsTheSignal() {
        assertThat(AttemptsCommand.failure(
                        Json.parse("{\"rank\":5,\"node\":\"node-c\",\"exitCode\":-9,\"signal\":\"SIGKILL\"}"), 60))
                .isEqualTo("rank 5 on node-c, SIGKILL");
        assertThat(AttemptsCommand.failure(Json.parse("{\"rank\":0,\"errorLine\":\"killed\"}"), 60))
                .isEqualTo("rank 0: killed");
    }

    @Test
    void attemptsAsJsonIsTheServersListUnderItems() {
        server.on("GET /api/v1/jobs/vision/vit/attempts", Reply.json(ATTEMPTS));
        CliRun.Result r = run("attempts", "vision/vit", "-o", "json");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(Json.parse(r.out()).get("items")).isEqualTo(Json.parse(ATTEMPTS));
    }

    @Test
    void recoveryPrintsModeBudgetsThePendingAdviceWithItsEvidenceAndTheHistory() {
        server.on(
                "GET /api/v1/jobs/vision/vit/recovery",
                Reply.json(recovery(
                        "{\"failures\":2,\"failureBudget\":3,\"planned\":5,\"plannedBudget\":null}",
                        PENDING,
                        FAILED,
                        VERIFIED,
                        PENDING)));
        CliRun.Result r = run("recovery", "vision/vit");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("Mode:")
                .contains("version 1 (2 rules)")
                .contains("2 / 3\n")
                .contains("5 / no limit\n")
                .contains("2 (lifelinectl attempts vision/vit)")
                .contains("Current advice:\n")
                .contains("vision/vit#2, rung 3")
                .contains("stop-and-page")
                .contains("escalation (rules version 1)")
                .contains("training resumes")
                .contains("  Evidence:\n    - attempts 1 and 2 failed on node-b\n    - node-b: XID 79 at 10:59\n")
                .contains("Advice history:")
                .doesNotContain("workload-error");
        assertThat(line(r.out(), "Verdict:")).endsWith("pending");
        assertThat(line(r.out(), "Outcome:")).endsWith("-");
        assertThat(line(r.out(), "restart-in-place")).contains("#2", "transient", "failed", "no step within 10m");
        assertThat(line(r.out(), "restart-excluding-node"))
                .contains("node-b", "escalation", "verified", "step 1320 reached without node-b");
        assertThat(r.out().lines().filter(l -> l.contains("stop-and-page")).count())
                .as("the current advice and its line in the history")
                .isEqualTo(2);
        assertThat(run("recovery", "vision/vit", "-o", "wide").out())
                .contains("  - workload-error: stop-and-page when the same error 3 times");
    }

    @Test
    void recoveryWithVerifiedAdviceNoLimitsAndSpentBudget() {
        server.on(
                "GET /api/v1/jobs/vision/vit/recovery",
                Reply.json(recovery(
                        "{\"failures\":4,\"failureBudget\":3,\"planned\":0,\"plannedBudget\":null}",
                        VERIFIED,
                        FAILED,
                        VERIFIED)));
        CliRun.Result r = run("recovery", "vision/vit");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(line(r.out(), "Failures:")).endsWith("4 / 3 (spent)");
        assertThat(line(r.out(), "With notice or by plan:")).endsWith("0 / no limit");
        assertThat(line(r.out(), "Remedy:")).endsWith("restart-excluding-node (node node-b)");
        assertThat(line(r.out(), "Verdict:")).endsWith("verified");
        assertThat(line(r.out(), "Outcome:")).contains("step 1320 reached without node-b (checked ");

        server.on(
                "GET /api/v1/jobs/vision/vit/recovery",
                Reply.json(recovery(
                        "{\"failures\":0,\"failureBudget\":null,\"planned\":0,\"plannedBudget\":null}", "null")));
        CliRun.Result none = run("recovery", "vision/vit");
        assertThat(none.code()).as(none.err()).isZero();
        assertThat(line(none.out(), "Failures:")).endsWith("0 / no limit");
        assertThat(line(none.out(), "Current advice:")).endsWith("none");
        assertThat(none.out()).endsWith("Advice history:\n  none\n");
    }

    @Test
    void recoveryWithFailedCurrentAdviceAndAsJson() {
        String doc = recovery("{\"failures\":1,\"failureBudget\":3,\"planned\":0,\"plannedBudget\":2}", FAILED, FAILED);
        server.on("GET /api/v1/jobs/vision/vit/recovery", Reply.json(doc));
        CliRun.Result r = run("recovery", "vision/vit");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(line(r.out(), "Verdict:")).endsWith("failed");
        assertThat(line(r.out(), "Remedy:")).endsWith("restart-in-place");
        assertThat(line(r.out(), "Outcome:")).contains("no step within 10m");
        assertThat(line(r.out(), "With notice or by plan:")).endsWith("0 / 2");

        CliRun.Result json = run("recovery", "vision/vit", "-o", "json");
        assertThat(json.code()).isZero();
        assertThat(Json.parse(json.out())).isEqualTo(Json.parse(doc));
    }

    @Test
    void anUnknownJobIsNotFound() {
        server.on("GET /api/v1/jobs/vision/nope/attempts", Reply.problem(404, "Not Found", "no job vision/nope"));
        server.on("GET /api/v1/jobs/vision/nope/recovery", Reply.problem(404, "Not Found", "no job vision/nope"));
        for (String command : new String[] {"attempts", "recovery"}) {
            CliRun.Result r = run(command, "vision/nope");
            assertThat(r.code()).as(command).isEqualTo(Exit.NOT_FOUND);
            assertThat(r.err()).isEqualTo("error: Not Found: no job vision/nope\n");
            assertThat(r.out()).isEmpty();
        }
    }

    @Test
    void bothAreCommandsAndCompleteJobNames() {
        server.on(
                "GET /api/v1/jobs",
                Reply.json("{\"items\":[{\"name\":\"vision/vit\",\"namespace\":\"vision\"}],\"total\":1}"));
        assertThat(CliRun.run(env, "", "__complete", "").out().lines()).contains("attempts", "recovery");
        assertThat(CliRun.run(env, "", "__complete", "attempts", "vi").out()).isEqualTo("vision/vit\n");
        assertThat(CliRun.run(env, "", "__complete", "recovery", "").out()).isEqualTo("vision/vit\n");
    }
}
