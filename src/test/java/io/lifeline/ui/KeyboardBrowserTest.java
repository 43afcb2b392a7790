package io.lifeline.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.testing.TestTokens;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URL;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;

/**
 * The dashboard with the keyboard alone (Selenium sending keys to whatever has the focus, no pointer event): drain a
 * node from the fleet heat map through its confirmation dialog, and open a job's timeline from the jobs grid; the
 * state on the way (filters, open node, time window) is in the URL.
 */
@QuarkusTest
class KeyboardBrowserTest {

    @TestHTTPResource("/")
    URL root;

    private Browser browser;

    @BeforeEach
    void start() throws Exception {
        Browser.require();
        UiTestSupport.feedDemoData();
        browser = new Browser(root);
    }

    @AfterEach
    void stop() {
        if (browser != null) {
            browser.close();
        }
    }

    @Test
    void drainANodeFromTheHeatMapThroughItsConfirmationDialog() throws Exception {
        browser.signIn(TestTokens.operator());
        // A pasted link with a filter opens the map filtered.
        browser.open("fleet?pool=ondemand-p4d");
        browser.await(() -> browser.chartDrawn("fleet-heatmap"));
        browser.await(() -> browser.text("fleet-groups").startsWith("ondemand-p4d")
                && !browser.text("fleet-groups").contains("spot-p5"));
        @SuppressWarnings("unchecked")
        List<String> rows = (List<String>)
                browser.js("return document.getElementById('fleet-heatmap').__chart" + ".getOption().yAxis[0].data;");

        browser.tabTo("fleet-heatmap", 40);
        assertThat(browser.js("return getComputedStyle(document.getElementById('fleet-heatmap')).outlineStyle;"))
                .as("the focused heat map shows its focus")
                .isNotEqualTo("none");
        browser.await(() -> browser.text("fleet-focused").startsWith(rows.get(0) + ", GPU 0: "));
        browser.press(Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ARROW_RIGHT);
        String node = rows.get(2);
        browser.await(() -> browser.text("fleet-focused").startsWith(node + ", GPU 1: "));
        assertThat(browser.text("fleet-focused")).matches(".*: (healthy|degraded|failed) \\(node 3 of \\d+\\)");
        browser.shot("keyboard-heatmap-focus");

        browser.press(Keys.ENTER);
        browser.await(() -> browser.text("node-title").equals(node));
        browser.await(() -> browser.focusIn("node-title"));
        browser.await(() -> browser.driver.getCurrentUrl().contains("node=" + node)
                && browser.driver.getCurrentUrl().contains("pool=ondemand-p4d"));

        browser.tabTo("node-drain", 6);
        browser.press(Keys.ENTER);
        browser.await(() -> browser.text("action-impact").contains("Work at risk"));
        // The dialog has the focus, and keeps it: Tab cycles inside it.
        browser.await(this::inDialog);
        for (int i = 0; i < 8; i++) {
            browser.press(Keys.TAB);
            assertThat(inDialog())
                    .as("focus after %d Tab presses: %s", i + 1, browser.focused())
                    .isTrue();
        }
        browser.tabTo("action-reason", 6);
        browser.press("drained from the keyboard");
        browser.shot("keyboard-drain-dialog");
        browser.tabTo("action-confirm", 6);
        browser.press(Keys.ENTER);
        browser.await(() -> browser.present("action-state"));
        browser.await(() -> browser.focusIn("action-close"));
        browser.shot("keyboard-drain-submitted");
        String actions = TestTokens.api()
                .get("/api/v1/actions?target=" + node + "&limit=5")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertThat(actions).contains("\"drain\"").contains("drained from the keyboard");

        // Esc closes the dialog and gives the focus back to the button that opened it.
        browser.press(Keys.ESCAPE);
        browser.await(() -> !browser.present("action-impact"));
        browser.await(() -> browser.focusIn("node-drain"));
        // Close leaves the panel and returns to the heat map.
        browser.tabBackTo("node-close", 6);
        browser.press(Keys.ENTER);
        browser.await(() -> browser.focusIn("fleet-heatmap")
                && !browser.driver.getCurrentUrl().contains("node="));
    }

    @Test
    void openAJobsTimelineFromTheJobsGridAndShareItsTimeWindow() throws Exception {
        browser.signIn(TestTokens.viewer());
        browser.open("jobs");
        browser.waitFor(By.id("jobs-grid"));
        browser.await(() -> browser.text("job-count").contains("jobs"));
        browser.tabTo("job-search", 40);
        browser.press("llama");
        browser.await(() -> browser.text("job-count").startsWith("1 of"));
        browser.await(() -> browser.driver.getCurrentUrl().contains("q=llama"));
        // Into the grid: the body's first cell, then Enter opens the row's job.
        for (int i = 0; i < 12 && !gridBodyFocused(); i++) {
            browser.press(Keys.TAB);
        }
        assertThat(gridBodyFocused()).as("focus: %s", browser.focused()).isTrue();
        browser.press(Keys.ENTER);
        browser.await(() -> browser.driver.getCurrentUrl().contains("jobs/" + UiTestSupport.JOB));
        browser.await(() -> browser.chartDrawn("job-timeline"));
        browser.await(() -> browser.text("job-summary").contains("World size"));
        assertThat(browser.driver.findElement(By.tagName("h1")).getText()).isEqualTo(UiTestSupport.JOB);

        // The time window, chosen with the keyboard, goes into the URL.
        browser.tabTo("timeline-window", 40);
        browser.press(Keys.ENTER);
        browser.await(() -> !browser.driver
                .findElements(By.cssSelector("vaadin-select-item"))
                .isEmpty());
        browser.press(Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ENTER);
        browser.await(() -> browser.driver.getCurrentUrl().contains("from=")
                && browser.driver.getCurrentUrl().contains("to="));
        String link = browser.driver.getCurrentUrl();
        long shownFrom = zoomStart();
        browser.shot("keyboard-timeline-window");

        // The link, pasted into a fresh page, opens the same window.
        browser.open("overview");
        browser.waitFor(By.id("kpis"));
        browser.driver.get(link);
        browser.await(() -> browser.chartDrawn("job-timeline"));
        browser.await(() -> zoomStart() == shownFrom);
        assertThat(browser.text("timeline-window")).contains("From");
    }

    private long zoomStart() {
        Object v = browser.js("const m = document.getElementById('job-timeline').__chart.getModel()"
                + ".getComponent('dataZoom', 0); return m ? Math.round(m.getValueRange()[0]) : -1;");
        return ((Number) v).longValue();
    }

    private boolean gridBodyFocused() {
        return Boolean.TRUE.equals(browser.js("const g = document.getElementById('jobs-grid');"
                + " const a = g && g.shadowRoot.activeElement;"
                + " return !!a && document.activeElement === g && !!a.closest('#items');"));
    }

    private boolean inDialog() {
        return Boolean.TRUE.equals(browser.js(
                "return !!document.activeElement" + " && !!document.activeElement.closest('vaadin-dialog-overlay');"));
    }
}
