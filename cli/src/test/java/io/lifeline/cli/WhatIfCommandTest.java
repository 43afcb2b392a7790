package io.lifeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.lifeline.cli.FakeServer.Reply;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code whatif} against a canned server: the request it sends, the table it prints, --json, and its errors. */
class WhatIfCommandTest {

    static final String REPORT =
            "{\"job\":\"vision/vit\",\"start\":\"2026-03-01T10:00:00Z\",\"end\":\"2026-03-02T10:00:00Z\","
                    + "\"gpus\":64,\"nodes\":8,\"pool\":\"a100-spot\",\"mtbiSeconds\":14400,\"currentIntervalSeconds\":1800,"
                    + "\"advisedIntervalSeconds\":1205.5,\"rows\":["
                    + "{\"name\":\"actual\",\"actual\":true,\"intervalSeconds\":1800,\"interruptions\":6,\"ettr\":0.9012,"
                    + "\"ettrOfWall\":0.88,\"modelEttr\":0.905,\"lostReworkHours\":1.5,\"recoveryHours\":0.5,\"lostGpuHours\":128,"
                    + "\"lostCost\":256.0},"
                    + "{\"name\":\"interval 300s, notice policy off\",\"actual\":false,\"intervalSeconds\":300,\"noticePolicy\":false,"
                    + "\"interruptions\":6,\"ettr\":0.8511,\"ettrOfWall\":0.83,\"modelEttr\":0.85,\"lostReworkHours\":0.25,"
                    + "\"recoveryHours\":0.5,\"lostGpuHours\":48,\"lostCost\":null},"
                    + "{\"name\":\"interval 1206s (advice), notice policy on\",\"actual\":false,\"intervalSeconds\":1205.5,"
                    + "\"noticePolicy\":true,\"interruptions\":6,\"ettr\":0.9333,\"lostReworkHours\":0.4,\"recoveryHours\":0.5,"
                    + "\"lostGpuHours\":57.6}],"
                    + "\"notes\":[\"C = 60 s assumed\"],\"elapsedMillis\":42}";

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

    private JsonNode lastBody() {
        return Json.parse(server.requests.get(server.requests.size() - 1).body());
    }

    @Test
    void sendsTheScenariosAndPrintsTheRowsAsATable() {
        server.on("POST /api/v1/whatif", Reply.json(REPORT));
        CliRun.Result r = run("whatif", "vision/vit", "--intervals", "300,15m,1h", "--notice", "both");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode body = lastBody();
        assertThat(body.path("job").asText()).isEqualTo("vision/vit");
        assertThat(body.path("intervalsSeconds").toString()).isEqualTo("[300.0,900.0,3600.0]");
        assertThat(body.path("noticePolicy").toString()).isEqualTo("[false,true]");
        assertThat(body.path("advice").asBoolean()).isTrue();
        assertThat(body.has("trace")).isFalse();
        assertThat(r.out())
                .contains("Job:")
                .contains("vision/vit (64 GPUs on 8 nodes, pool a100-spot)")
                .contains("30m now, 20m advised")
                .contains("Replayed in:")
                .contains("42 ms");
        String header = r.out()
                .lines()
                .filter(l -> l.startsWith("SCENARIO"))
                .findFirst()
                .orElseThrow();
        assertThat(header)
                .contains("ETTR")
                .contains("LOST REWORK H")
                .contains("GPU-H LOST")
                .contains("COST");
        assertThat(r.out()
                        .lines()
                        .filter(l -> l.startsWith("actual"))
                        .findFirst()
                        .orElseThrow())
                .contains("90.1%")
                .contains("90.5%")
                .contains("1.50")
                .contains("128.00")
                .contains("256.00");
        assertThat(r.out()
                        .lines()
                        .filter(l -> l.startsWith("interval 300s"))
                        .findFirst()
                        .orElseThrow())
                .contains("85.1%")
                .endsWith("-");
        assertThat(r.out())
                .contains("interval 1206s (advice), notice policy on")
                .contains("Notes:")
                .contains("  - C = 60 s assumed");
    }

    @Test
    void jsonIsTheServersAnswer() {
        server.on("POST /api/v1/whatif", Reply.json(REPORT));
        JsonNode a = Json.parse(run("whatif", "vision/vit", "--json").out());
        assertThat(a.at("/rows/2/ettr").asDouble()).isEqualTo(0.9333);
        JsonNode b = Json.parse(run(
                        "whatif",
                        "vision/vit",
                        "-o",
                        "json",
                        "--notice",
                        "on",
                        "--no-advice",
                        "--checkpoint-cost",
                        "2m",
                        "--recovery",
                        "90",
                        "--notice-lead",
                        "30s",
                        "--capacity",
                        "spot,on-demand")
                .out());
        assertThat(b.path("job").asText()).isEqualTo("vision/vit");
        JsonNode body = lastBody();
        assertThat(body.path("noticePolicy").toString()).isEqualTo("[true]");
        assertThat(body.path("advice").asBoolean()).isFalse();
        assertThat(body.path("checkpointCostSeconds").asDouble()).isEqualTo(120);
        assertThat(body.path("recoverySeconds").asDouble()).isEqualTo(90);
        assertThat(body.path("noticeLeadSeconds").asDouble()).isEqualTo(30);
        assertThat(body.path("capacity").toString()).isEqualTo("[\"spot\",\"on-demand\"]");
        assertThat(body.has("intervalsSeconds")).isFalse();
    }

    @Test
    void aTraceFileIsSentWithItsFormat() throws IOException {
        server.on("POST /api/v1/whatif", Reply.json(REPORT));
        Path csv = dir.resolve("philly_multi_attempt_jobs.csv");
        Files.writeString(csv, "jobid,attempt\n");
        assertThat(run("whatif", "--trace", csv.toString(), "-i", "900").code()).isZero();
        JsonNode body = lastBody();
        assertThat(body.at("/trace/format").asText()).isEqualTo("philly-csv");
        assertThat(body.at("/trace/content").asText()).isEqualTo("jobid,attempt\n");
        assertThat(body.has("job")).isFalse();
        Path other = dir.resolve("events.txt");
        Files.writeString(other, "{}");
        assertThat(run("whatif", "ns/j", "--trace", other.toString(), "--format", "OPT175B")
                        .code())
                .isZero();
        assertThat(lastBody().at("/trace/format").asText()).isEqualTo("opt175b");
        assertThat(lastBody().path("job").asText()).isEqualTo("ns/j");
        CliRun.Result unknown = run("whatif", "--trace", other.toString());
        assertThat(unknown.code()).isEqualTo(Exit.USAGE);
        assertThat(unknown.err()).contains("--format");
    }

    @Test
    void mistakesAreUsageErrorsAndTheServersProblemIsPrinted() {
        int before = server.requests.size();
        assertThat(run("whatif", "vision/vit", "--notice", "sometimes").code()).isEqualTo(Exit.USAGE);
        CliRun.Result bad = run("whatif", "vision/vit", "-i", "-5m");
        assertThat(bad.code()).isEqualTo(Exit.USAGE);
        assertThat(run("whatif", "vision/vit", "-i", "soon").err()).contains("--intervals");
        assertThat(run("whatif").err()).contains("JOB");
        assertThat(run("whatif", "--trace", dir.resolve("missing.csv").toString())
                        .err())
                .contains("no file");
        assertThat(server.requests.size()).isEqualTo(before);
        server.on("POST /api/v1/whatif", Reply.problem(400, "Invalid request", "24 scenarios at most"));
        CliRun.Result refused = run("whatif", "vision/vit");
        assertThat(refused.code()).isEqualTo(Exit.USAGE);
        assertThat(refused.err()).isEqualTo("error: Invalid request: 24 scenarios at most\n");
        server.on("POST /api/v1/whatif", Reply.problem(404, "Not Found", "no job named 'x/y'"));
        assertThat(run("whatif", "x/y").code()).isEqualTo(Exit.NOT_FOUND);
        server.on("POST /api/v1/whatif", Reply.problem(503, "Busy", "try again shortly"));
        assertThat(run("whatif", "x/y").code()).isEqualTo(Exit.UNREACHABLE);
    }
}
