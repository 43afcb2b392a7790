package io.lifeline.ui;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The what-if of the demo's largest job (128 GPUs), notice policy off and on at three intervals and the advice, asked
 * {@value #RUNS} times over HTTP with the whole application (after one other request, which warms the HTTP path):
 * every answer is complete, and the times (the first, the what-if's cold start, apart) are written to
 * target/whatif-timing.json for bench/whatif-latency.sh. No assertion on speed.
 */
@QuarkusTest
class WhatIfTimingTest {

    static final int RUNS = 15;

    @Test
    void theLargestDemoJobsWhatIfIsTimedOverHttp() throws Exception {
        UiTestSupport.feedDemoData();
        String body = "{\"job\":\"" + UiTestSupport.JOB
                + "\",\"intervalsSeconds\":[300,900,1800],\"noticePolicy\":[false,true]}";
        // The HTTP client and the server's REST stack warmed by another request, so that the first what-if's time is
        // the what-if's own cold start (its classes, the replay's first JIT), not the test client's.
        given(TestTokens.asViewer())
                .get("/api/v1/jobs/" + UiTestSupport.JOB)
                .then()
                .statusCode(200);
        List<Double> http = new ArrayList<>();
        List<Long> replay = new ArrayList<>();
        int interruptions = -1;
        for (int i = 0; i < RUNS; i++) {
            long t = System.nanoTime();
            JsonPath r = given(TestTokens.asViewer())
                    .contentType("application/json")
                    .body(body)
                    .post("/api/v1/whatif")
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
            http.add((System.nanoTime() - t) / 1e6);
            replay.add(r.getLong("elapsedMillis"));
            assertThat(r.getInt("gpus")).isEqualTo(128);
            // the actual row, 3 intervals × 2 notice settings, the advice × 2
            assertThat(r.getList("rows")).hasSize(9);
            assertThat(r.getList("rows.ettr", Float.class))
                    .allSatisfy(e -> assertThat(e).isBetween(0f, 1f));
            interruptions = r.getInt("rows[0].interruptions");
        }
        List<Double> warm = new ArrayList<>(http.subList(1, RUNS));
        warm.sort(null);
        List<Long> replayWarm = new ArrayList<>(replay.subList(1, RUNS));
        replayWarm.sort(null);
        String json = String.format(
                Locale.ROOT,
                "{\"job\": \"%s\", \"gpus\": 128, \"interruptions\": %d, \"scenarios\": 8, "
                        + "\"runs\": %d, \"first_ms\": %.1f, \"median_ms\": %.1f, \"max_ms\": %.1f, \"replay_first_ms\": %d, "
                        + "\"replay_median_ms\": %d, \"all_ms\": %s}%n",
                UiTestSupport.JOB,
                interruptions,
                RUNS,
                http.get(0),
                warm.get(warm.size() / 2),
                warm.get(warm.size() - 1),
                replay.get(0),
                replayWarm.get(replayWarm.size() / 2),
                http.stream().map(v -> String.format(Locale.ROOT, "%.1f", v)).toList());
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target", "whatif-timing.json"), json);
        System.out.print("what-if timing: " + json);
    }
}
