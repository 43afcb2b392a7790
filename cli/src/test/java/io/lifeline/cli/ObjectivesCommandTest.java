package io.lifeline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.cli.FakeServer.Reply;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code objectives}, {@code objectives NAME} and {@code objectives set FILE} against a canned server. */
class ObjectivesCommandTest {

    /**
     * A namespace objective burning slowly: 400 GPU-hours held at 0.95, budget 20, spent 12 (ETTR 0.97), left 8 (40
     * %), spent by spot reclaim 9 and checkpoint 3; burn rates 5m 9.0, 30m 7.5, 1h 8.0, 6h 6.5.
     */
    static final String RESEARCH = "{\"name\":\"research-ettr\",\"scope\":\"namespace:research\",\"ettrTarget\":0.95,"
            + "\"window\":\"7d\",\"lostGpuHoursLimit\":null,\"moneyLimit\":null,\"state\":\"burning\","
            + "\"sampledAt\":\"2026-03-01T10:00:00Z\",\"jobs\":2,"
            + "\"jobNames\":[\"research/llama3-70b-pretrain\",\"research/mixtral-8x7b-sft\"],"
            + "\"ettr\":0.97,\"heldGpuHours\":400.0,\"productiveGpuHours\":388.0,\"budgetGpuHours\":20.0,"
            + "\"spentGpuHours\":12.0,\"remainingGpuHours\":8.0,\"remainingShare\":0.4,\"budgetMoney\":80.0,"
            + "\"spentMoney\":48.0,\"remainingMoney\":32.0,\"pricedShare\":1.0,\"lostGpuHours\":9.0,"
            + "\"lostMoney\":36.0,\"lostLimitRemainingGpuHours\":null,\"moneyLimitRemaining\":null,"
            + "\"spentByCause\":{\"spot_reclaim\":9.0,\"checkpoint\":3.0,\"hardware\":0.0},"
            + "\"spentByPhase\":{\"lost_rework\":5.0,\"recovery_load\":4.0,\"checkpoint\":3.0},"
            + "\"burnRates\":{\"5m\":9.0,\"30m\":7.5,\"1h\":8.0,\"6h\":6.5},\"fastBurn\":false,\"slowBurn\":true,"
            + "\"hoursToExhaustion\":1.5}";

    static final String VISION = "{\"name\":\"vision-ettr\",\"scope\":\"namespace:vision\",\"ettrTarget\":0.8,"
            + "\"window\":\"7d\",\"state\":\"met\",\"sampledAt\":\"2026-03-01T10:00:00Z\",\"jobs\":1,"
            + "\"jobNames\":[\"vision/vit\"],\"ettr\":0.93,\"heldGpuHours\":100.0,\"productiveGpuHours\":93.0,"
            + "\"budgetGpuHours\":20.0,\"spentGpuHours\":7.0,\"remainingGpuHours\":13.0,\"remainingShare\":0.65,"
            + "\"spentByCause\":{},\"spentByPhase\":{},\"burnRates\":{\"5m\":0.2,\"30m\":0.3,\"1h\":0.3,"
            + "\"6h\":null},\"fastBurn\":false,\"slowBurn\":false,\"hoursToExhaustion\":null}";

    static final String PAGE = "{\"source\":\"configuration\",\"fastBurn\":14.4,\"slowBurn\":6.0,\"objectives\":["
            + RESEARCH + "," + VISION + "]}";

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
    void listsTheObjectivesWithStateEttrBudgetLeftBurnAndExhaustion() {
        server.on("GET /api/v1/objectives", Reply.json(PAGE));
        CliRun.Result r = run("objectives");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out().lines().findFirst().orElseThrow())
                .contains("NAME", "SCOPE", "STATE", "ETTR/TARGET", "BUDGET LEFT", "BURN 1H", "BURN 6H", "EXHAUSTION");
        assertThat(line(r.out(), "research-ettr"))
                .contains("namespace:research", "burning", "97.0%/95.0%", "8.00", "40.0%", "8.0x", "6.5x", "in 1.5h");
        assertThat(line(r.out(), "vision-ettr")).contains("met", "93.0%/80.0%", "13.00", "65.0%", "0.3x");
        assertThat(r.out() + r.err()).contains("fast at 14.4x", "slow at 6.0x");

        CliRun.Result json = run("objectives", "-o", "json");
        assertThat(json.code()).as(json.err()).isZero();
        assertThat(Json.parse(json.out()).path("objectives").get(0).path("name").asText())
                .isEqualTo("research-ettr");
    }

    @Test
    void showsOneObjectiveWithWhatSpentItsBudgetByCauseAndPhase() {
        server.on("GET /api/v1/objectives/research-ettr", Reply.json(RESEARCH));
        CliRun.Result r = run("objectives", "research-ettr");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(line(r.out(), "Objective:")).contains("ETTR >= 95.0% over 7d");
        assertThat(line(r.out(), "Budget:")).contains("20.00 GPU-h, spent 12.00, left 8.00 (40.0%)");
        assertThat(line(r.out(), "Budget priced:")).contains("80.00, spent 48.00, left 32.00");
        assertThat(line(r.out(), "Burn rates:")).contains("5m 9.0x, 30m 7.5x, 1h 8.0x, 6h 6.5x");
        assertThat(line(r.out(), "Burning:")).contains("slow (6h and 30m)");
        String byCause =
                r.out().substring(r.out().indexOf("Spent by cause:"), r.out().indexOf("Spent by phase:"));
        assertThat(byCause).contains("spot-reclaim", "9.00 GPU-h", "checkpoint", "3.00 GPU-h");
        assertThat(byCause).doesNotContain("hardware");
        assertThat(byCause.indexOf("spot-reclaim")).isLessThan(byCause.indexOf("checkpoint"));
        assertThat(r.out()).contains("lost-rework", "recovery-load", "research/mixtral-8x7b-sft");

        server.on("GET /api/v1/objectives/nope", Reply.problem(404, "Not found", "objective nope"));
        CliRun.Result missing = run("objectives", "nope");
        assertThat(missing.code()).isEqualTo(Exit.NOT_FOUND);
    }

    @Test
    void setPutsTheFileAndPrintsTheServersReasonsOnARefusal() throws IOException {
        Path file = dir.resolve("objectives.json");
        Files.writeString(
                file,
                "{\"objectives\":[{\"name\":\"research-ettr\",\"scope\":\"namespace:research\","
                        + "\"ettrTarget\":0.95,\"window\":\"7d\"}]}");
        server.on("PUT /api/v1/objectives", Reply.json(PAGE));
        CliRun.Result r = run("objectives", "set", file.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(server.requests.get(0).method()).isEqualTo("PUT");
        assertThat(Json.parse(server.requests.get(0).body())
                        .path("objectives")
                        .get(0)
                        .path("ettrTarget")
                        .asDouble())
                .isEqualTo(0.95);
        assertThat(r.out()).contains("research-ettr", "vision-ettr");

        server.on(
                "PUT /api/v1/objectives",
                new Reply(
                        400,
                        "application/problem+json",
                        "{\"type\":\"/problems/invalid-request\",\"title\":\"Invalid request\",\"status\":400,"
                                + "\"detail\":\"objectives: x\",\"errors\":[{\"field\":\"objectives\",\"reason\":"
                                + "\"objectives[0] (research-ettr).window: '9y' is not a window (7d, 30d, 12h or"
                                + " P7D); objectives[1] (b).scope: 'team' is not kind:value\"}]}"));
        CliRun.Result refused = run("objectives", "set", file.toString());
        assertThat(refused.code()).isNotZero();
        assertThat(refused.err())
                .contains("nothing changed")
                .contains("  - objectives[0] (research-ettr).window: '9y' is not a window")
                .contains("  - objectives[1] (b).scope: 'team' is not kind:value");
    }

    @Test
    void setChecksTheShapeBeforeSendingAnything() throws IOException {
        Path file = dir.resolve("bad.json");
        Files.writeString(file, "{\"objectives\":[{\"name\":\"a\",\"scope\":\"research\",\"ettrTarget\":95}]}");
        CliRun.Result r = run("objectives", "set", file.toString());
        assertThat(r.code()).isEqualTo(Exit.USAGE);
        assertThat(r.err()).contains("objectives[0].scope", "objectives[0].ettrTarget");
        Files.writeString(file, "not json");
        assertThat(run("objectives", "set", file.toString()).err()).contains("is not JSON");
        assertThat(server.requests).isEmpty();
    }
}
