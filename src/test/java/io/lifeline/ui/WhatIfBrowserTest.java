package io.lifeline.ui;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.testing.TestTokens;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;

/**
 * The what-if of the demo's largest job (128 GPUs), notice policy off and on at three intervals: through
 * {@code POST /api/v1/whatif}, then on its page (the "What if" panel draws ETTR against the interval). The page's
 * screenshots are kept in docs/screenshots/whatif.png and whatif-dark.png (the dark theme).
 */
@QuarkusTest
class WhatIfBrowserTest {

    private static final String BODY = "{\"job\":\"" + UiTestSupport.JOB + "\",\"intervalsSeconds\":[300,900,1800],"
            + "\"noticePolicy\":[false,true]}";

    @TestHTTPResource("/")
    URL root;

    private Browser browser;

    @BeforeEach
    void start() throws Exception {
        Browser.require();
        UiTestSupport.feedDemoData();
    }

    @AfterEach
    void stop() {
        if (browser != null) {
            browser.close();
        }
    }

    @Test
    void theLargestDemoJobsWhatIfAnswersThroughTheApiAndOnItsPage() throws Exception {
        long t = System.nanoTime();
        JsonPath r = given(TestTokens.asViewer())
                .contentType("application/json")
                .body(BODY)
                .post("/api/v1/whatif")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        long ms = (System.nanoTime() - t) / 1_000_000;
        System.out.println("what-if of " + UiTestSupport.JOB + " (6 scenarios and the advice): " + ms
                + " ms over HTTP, " + r.getLong("elapsedMillis") + " ms replaying");
        assertThat(r.getString("job")).isEqualTo(UiTestSupport.JOB);
        assertThat(r.getInt("gpus")).isEqualTo(128);
        List<String> names = r.getList("rows.name");
        assertThat(names.get(0)).isEqualTo("actual");
        assertThat(r.getList("rows.intervalSeconds", Float.class).subList(1, 4)).containsExactly(300f, 900f, 1800f);
        assertThat(r.getList("rows.noticePolicy")).contains(false, true);
        assertThat(names).hasSizeGreaterThanOrEqualTo(7);
        List<Float> ettr = r.getList("rows.ettr", Float.class);
        assertThat(ettr).allSatisfy(e -> assertThat(e).isBetween(0f, 1f));

        browser = new Browser(root);
        browser.signIn(TestTokens.viewer());
        browser.open("jobs/" + UiTestSupport.JOB);
        browser.waitFor(By.id("whatif-run"));
        browser.js("document.getElementById('job-whatif').scrollIntoView()");
        browser.driver.findElement(By.id("whatif-run")).click();
        browser.await(() -> browser.text("whatif-state").contains("scenarios replayed"));
        browser.await(() -> browser.chartDrawn("whatif-chart"));
        assertThat(browser.text("whatif-table"))
                .contains("actual")
                .contains("notice policy on")
                .contains("(advice)");
        Long lines = (Long) browser.js(
                "const c = document.getElementById('whatif-chart').__chart;" + "return c.getOption().series.length;");
        assertThat(lines).isEqualTo(2);
        browser.js("document.getElementById('job-whatif').scrollIntoView()");
        browser.shot("whatif");
        Path docs = Path.of("docs", "screenshots");
        if (Files.isDirectory(docs)) {
            Files.copy(
                    Browser.SHOTS.resolve("whatif.png"),
                    docs.resolve("whatif.png"),
                    StandardCopyOption.REPLACE_EXISTING);
        }

        // The chart's labels follow the theme: in the dark one they take its (light) secondary text colour.
        String light = labelColour();
        browser.waitFor(By.id("theme-toggle")).sendKeys(Keys.ENTER);
        browser.await(browser::dark);
        browser.await(() -> !labelColour().equals(light)
                && labelColour()
                        .equals(browser.js("const s = document.createElement"
                                + "('span'); s.style.color = 'var(--lumo-secondary-text-color)'; document.body.appendChild(s);"
                                + " const c = getComputedStyle(s).color; s.remove(); return c;")));
        browser.shot("whatif-dark");
        if (Files.isDirectory(docs)) {
            Files.copy(
                    Browser.SHOTS.resolve("whatif-dark.png"),
                    docs.resolve("whatif-dark.png"),
                    StandardCopyOption.REPLACE_EXISTING);
        }

        // Bad intervals are refused in the form, said in words and marked invalid, without a replay.
        var field = browser.driver.findElement(By.cssSelector("#whatif-intervals input"));
        field.clear();
        field.sendKeys("300, ten", Keys.TAB);
        browser.driver.findElement(By.id("whatif-run")).click();
        browser.await(() -> browser.text("whatif-state").contains("numbers of seconds"));
        assertThat(browser.driver.findElement(By.id("whatif-intervals")).getAttribute("invalid"))
                .isNotNull();
        assertThat(browser.driver.findElement(By.id("whatif-state")).getAttribute("role"))
                .isEqualTo("status");
    }

    private String labelColour() {
        return String.valueOf(browser.js(
                "return document.getElementById('whatif-chart').__chart.getOption()" + ".xAxis[0].axisLabel.color;"));
    }

    @Test
    void badRequestsAreProblemDocuments() {
        given(TestTokens.asViewer())
                .contentType("application/json")
                .body("{\"intervalsSeconds\":[300]}")
                .post("/api/v1/whatif")
                .then()
                .statusCode(400)
                .contentType("application/problem+json");
        String detail = given(TestTokens.asViewer())
                .contentType("application/json")
                .body("{\"job\":\"" + UiTestSupport.JOB + "\",\"intervalsSeconds\":[-5]}")
                .post("/api/v1/whatif")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .extract()
                .jsonPath()
                .getString("detail");
        assertThat(detail).contains("intervalsSeconds");
        assertThat(given(TestTokens.asViewer())
                        .contentType("application/json")
                        .body("{\"job\":\"" + UiTestSupport.JOB
                                + "\",\"intervalsSeconds\":[1,2,3,4,5,6,7,8,9,10,11,12,13],"
                                + "\"noticePolicy\":[false,true]}")
                        .post("/api/v1/whatif")
                        .then()
                        .statusCode(400)
                        .extract()
                        .jsonPath()
                        .getString("detail"))
                .contains("scenarios");
        given(TestTokens.asViewer())
                .contentType("application/json")
                .body("{\"job\":\"nope/nothing\"}")
                .post("/api/v1/whatif")
                .then()
                .statusCode(404);
        given(TestTokens.asViewer())
                .contentType("application/json")
                .body("{\"trace\":{\"format\":\"excel\",\"content\":\"x\"}}")
                .post("/api/v1/whatif")
                .then()
                .statusCode(400);
    }

    @Test
    void anUploadedPhillyTraceIsReplayed() throws Exception {
        String csv = Files.readString(
                io.lifeline.testing.Fixtures.path("traces").resolve("philly_multi_attempt_jobs_restarts.csv"));
        com.fasterxml.jackson.databind.node.ObjectNode body = new com.fasterxml.jackson.databind.ObjectMapper()
                .createObjectNode()
                .put("job", "philly/application_1506638472019_14213");
        body.putObject("trace").put("format", "philly-csv").put("content", csv);
        body.putArray("intervalsSeconds").add(900).add(3600);
        JsonPath r = given(TestTokens.asViewer())
                .contentType("application/json")
                .body(body.toString())
                .post("/api/v1/whatif")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(r.getString("job")).isEqualTo("philly/application_1506638472019_14213");
        // 3 interruptions; the trace records no checkpoint: actual lost work is every rescheduled attempt's run time
        assertThat(r.getInt("rows[0].interruptions")).isEqualTo(3);
        assertThat(r.getList("notes", String.class)).anyMatch(n -> n.contains("C = 60 s assumed"));
        // Attempts of 68, 50 and 46 s: a save every 900 s saves none of them, and the replay, training from the first
        // attempt (not the submission, five minutes before), loses no more than they did.
        assertThat(r.getFloat("rows[1].lostReworkHours"))
                .isCloseTo(r.getFloat("rows[0].lostReworkHours"), org.assertj.core.data.Offset.offset(0.001f));
    }
}
