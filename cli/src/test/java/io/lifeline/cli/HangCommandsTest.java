package io.lifeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.cli.FakeServer.Reply;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hang} and {@code stacks} against a canned server: the text, -o json, a capture and its waiting, errors. */
class HangCommandsTest {

    static final String VERDICT = "{\"state\":\"suspected\",\"kind\":\"training\",\"phase\":\"training\","
            + "\"stalledSeconds\":41,\"thresholdSeconds\":30,\"basis\":\"5 x p99 step time 2.1 s, floor 30 s\","
            + "\"suspects\":[{\"rank\":1,\"node\":\"node-a\",\"gpu\":\"GPU-1234\",\"lastStep\":17,"
            + "\"why\":\"its heartbeats go on but it made no step for 41 s\"}],"
            + "\"silentRanks\":[3,4,6],\"evidence\":[\"rank 0 waits in all_reduce\",\"rank 1 made no step\"],"
            + "\"since\":\"2026-03-01T10:00:00Z\"}";

    private static final String FRAMES_ALL_REDUCE = "[{\"name\":\"MainThread\",\"main\":true,\"frames\":["
            + "{\"file\":\"train.py\",\"line\":88,\"function\":\"main\"},"
            + "{\"file\":\"torch/distributed/distributed_c10d.py\",\"line\":2050,\"function\":\"all_reduce\"}]},"
            + "{\"name\":\"lifeline-sender\",\"main\":false,\"agent\":true,\"frames\":["
            + "{\"file\":\"lifeline/agent.py\",\"line\":12,\"function\":\"run\"}]}]";

    private static final String FRAMES_LOADER = "[{\"name\":\"MainThread\",\"main\":true,\"frames\":["
            + "{\"file\":\"train.py\",\"line\":80,\"function\":\"main\"},"
            + "{\"file\":\"data.py\",\"line\":31,\"function\":\"next_batch\\u001b[2J\"}]}]";

    static String capture(String requestId, int reported, int expected, String missing) {
        return "{\"requestId\":\"" + requestId + "\",\"requestedAt\":\"2026-03-01T10:00:41Z\",\"ranksReported\":"
                + reported + ",\"ranksExpected\":" + expected + ",\"groups\":["
                + "{\"signature\":\"sig-a\",\"ranks\":[0,2,3],\"nodes\":[\"node-a\",\"node-b\"],\"oddOneOut\":false,"
                + "\"threads\":" + FRAMES_ALL_REDUCE + "},"
                + "{\"signature\":\"sig-b\",\"ranks\":[1],\"nodes\":[\"node-a\"],\"oddOneOut\":true,"
                + "\"threads\":" + FRAMES_LOADER + "}],"
                + "\"missingRanks\":" + missing + "}";
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

    @Test
    void hangPrintsTheVerdictWithItsBasisSuspectsSilentRanksAndEvidence() {
        server.on("GET /api/v1/jobs/vision/vit/hang", Reply.json(VERDICT));
        CliRun.Result r = run("hang", "vision/vit");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("State:")
                .contains("suspected")
                .contains("Kind:")
                .contains("training")
                .doesNotContain("(phase training)")
                .contains("41s (threshold 30s: 5 x p99 step time 2.1 s, floor 30 s)")
                .contains("Silent ranks:")
                .contains("3-4, 6")
                .contains("  - rank 0 waits in all_reduce");
        assertThat(r.out()
                        .lines()
                        .filter(l -> l.contains("GPU-1234"))
                        .findFirst()
                        .orElseThrow())
                .contains("node-a")
                .contains("17")
                .contains("its heartbeats go on");
        assertThat(r.err()).contains("lifelinectl stacks vision/vit --capture");

        CliRun.Result json = run("hang", "vision/vit", "-o", "json");
        assertThat(Json.parse(json.out())).isEqualTo(Json.parse(VERDICT));
    }

    @Test
    void hangOfAJobThatIsNotTrainingSaysSoWithoutSuspects() {
        server.on(
                "GET /api/v1/jobs/vision/vit/hang",
                Reply.json("{\"state\":\"not-applicable\",\"suspects\":[],\"silentRanks\":[],"
                        + "\"evidence\":[\"the job is PENDING\"]}"));
        CliRun.Result r = run("hang", "vision/vit");
        assertThat(r.code()).isZero();
        assertThat(r.out())
                .contains("not-applicable")
                .contains("Suspects:\n  none")
                .contains("the job is PENDING");
        assertThat(r.err()).isEmpty();
    }

    @Test
    void stacksPrintsTheGroupsTheOddOneOutAndFramesInnermostLast() {
        server.on("GET /api/v1/jobs/vision/vit/stacks", Reply.json(capture("cmd-1", 4, 4, "[]")));
        CliRun.Result r = run("stacks", "vision/vit");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("Ranks:")
                .contains("4 of 4 reported")
                .contains("Group 1 of 2: ranks 0, 2-3 on node-a, node-b\n")
                .contains("Group 2 of 2: rank 1 on node-a   << odd one out")
                .contains("  Thread MainThread (main)\n"
                        + "    train.py:88 in main\n"
                        + "    torch/distributed/distributed_c10d.py:2050 in all_reduce\n")
                .contains("  Thread lifeline-sender (Lifeline agent)")
                .contains("    data.py:31 in next_batch?[2J")
                .doesNotContain("\u001b")
                .doesNotContain("sig-a");
        assertThat(run("stacks", "vision/vit", "-o", "wide").out()).contains("  signature sig-a");
        assertThat(Json.parse(run("stacks", "vision/vit", "-o", "json").out())
                        .at("/groups/1/ranks/0")
                        .asInt())
                .isEqualTo(1);
    }

    @Test
    void noCaptureYetIsNotFoundWithAHint() {
        server.on("GET /api/v1/jobs/vision/vit/stacks", Reply.problem(404, "Not Found", "no stacks for vision/vit"));
        CliRun.Result r = run("stacks", "vision/vit");
        assertThat(r.code()).isEqualTo(Exit.NOT_FOUND);
        assertThat(r.err())
                .isEqualTo("error: no stacks captured for vision/vit yet; capture with: lifelinectl stacks vision/vit "
                        + "--capture\n");
    }

    @Test
    void captureAsksThenWaitsForEveryRankOfItsOwnRequest() {
        AtomicInteger gets = new AtomicInteger();
        server.on(
                "POST /api/v1/jobs/vision/vit/stacks", new Reply(202, "application/json", "{\"requestId\":\"cmd-9\"}"));
        server.on("GET /api/v1/jobs/vision/vit/stacks", req -> switch (gets.incrementAndGet()) {
            case 1 -> Reply.json(capture("cmd-1", 4, 4, "[]"));
            case 2 -> Reply.json(capture("cmd-9", 3, 4, "[1]"));
            default -> Reply.json(capture("cmd-9", 4, 4, "[]"));
        });
        CliRun.Result r = run("stacks", "vision/vit", "--capture", "--interval", "100ms");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(gets.get()).isEqualTo(3);
        assertThat(server.requests.get(0).method()).isEqualTo("POST");
        assertThat(server.requests.get(0).header("Authorization")).isEqualTo("Bearer llt_test00000001_secret");
        assertThat(r.err()).contains("Capture cmd-9 requested");
        assertThat(r.out()).contains("cmd-9").contains("4 of 4 reported").contains("<< odd one out");
    }

    @Test
    void captureThatTimesOutPrintsWhatCameAndFails() {
        server.on(
                "POST /api/v1/jobs/vision/vit/stacks", new Reply(202, "application/json", "{\"requestId\":\"cmd-9\"}"));
        server.on("GET /api/v1/jobs/vision/vit/stacks", Reply.json(capture("cmd-9", 3, 5, "[1,4]")));
        CliRun.Result r = run("stacks", "vision/vit", "--capture", "--wait", "1", "--interval", "100ms", "-o", "json");
        assertThat(r.code()).isEqualTo(Exit.FAILED);
        assertThat(Json.parse(r.out()).path("requestId").asText()).isEqualTo("cmd-9");
        assertThat(r.err()).contains("3 of 5 ranks answered within 1s; missing: 1, 4");
    }

    @Test
    void captureNobodyAnswersFailsAndAForbiddenCaptureIsNotAllowed() {
        server.on(
                "POST /api/v1/jobs/vision/vit/stacks", new Reply(202, "application/json", "{\"requestId\":\"cmd-9\"}"));
        server.on("GET /api/v1/jobs/vision/vit/stacks", Reply.problem(404, "Not Found", "no stacks"));
        CliRun.Result r = run("stacks", "vision/vit", "--capture", "--wait", "1", "--interval", "100ms");
        assertThat(r.code()).isEqualTo(Exit.FAILED);
        assertThat(r.err()).contains("no rank answered capture cmd-9 within 1s");
        assertThat(r.out()).isEmpty();

        server.on(
                "POST /api/v1/jobs/vision/vit/stacks",
                Reply.problem(403, "Forbidden", "the viewer role may not POST this path; it needs operator"));
        assertThat(run("stacks", "vision/vit", "--capture").code()).isEqualTo(Exit.NOT_ALLOWED);
    }

    @Test
    void bothCompleteJobNames() {
        server.on(
                "GET /api/v1/jobs",
                Reply.json("{\"items\":[{\"name\":\"vision/vit\",\"namespace\":\"vision\"}],\"total\":1}"));
        assertThat(CliRun.run(env, "", "__complete", "").out().lines()).contains("hang", "stacks");
        assertThat(CliRun.run(env, "", "__complete", "stacks", "vi").out()).isEqualTo("vision/vit\n");
        assertThat(CliRun.run(env, "", "__complete", "hang", "").out()).isEqualTo("vision/vit\n");
        assertThat(CliRun.run(env, "", "__complete", "stacks", "--").out().lines())
                .contains("--capture", "--wait", "--interval");
    }
}
