package io.lifeline.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;

/**
 * Every dashboard page checked by axe-core in headless Chromium, signed in as an admin and as a viewer, in the light
 * and the dark theme: any serious or critical violation fails the test; moderate and minor ones are printed, and each
 * that remains must have its reason written down in {@link #ACCEPTED}. axe-core comes from {@code bash
 * .ci/browser-tools}; without it this test fails and says so.
 */
@QuarkusTest
class AccessibilityBrowserTest {

    static final Path AXE = Path.of(".tools", "node_modules", "axe-core", "axe.min.js");
    static final Path REPORT = Path.of("target", "a11y", "axe-report.txt");

    /** Moderate or minor axe findings that remain on purpose, by rule id, with the reason. */
    static final Map<String, String> ACCEPTED = Map.of();

    private static final ObjectMapper JSON = new ObjectMapper();

    @TestHTTPResource("/")
    URL root;

    private Browser browser;

    @BeforeEach
    void start() throws Exception {
        assertThat(Files.isRegularFile(AXE))
                .as(
                        "axe-core is not installed (%s is missing): run `bash .ci/browser-tools` "
                                + "first, it installs axe-core with npm into .tools/node_modules",
                        AXE)
                .isTrue();
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

    @ParameterizedTest(name = "{0}, {1} theme")
    @CsvSource({"admin, light", "admin, dark", "viewer, light", "viewer, dark"})
    void everyPageHasNoSeriousOrCriticalViolation(String role, String theme) throws Exception {
        boolean dark = theme.equals("dark");
        List<PageResult> results = new ArrayList<>();
        String who = role + "-" + theme;

        browser.open("login");
        browser.waitFor(By.cssSelector("#token input"));
        theme(dark);
        results.add(check("sign-in", who));

        browser.signIn(role.equals("admin") ? TestTokens.admin() : TestTokens.viewer());
        expectTheme(dark);
        browser.await(() -> browser.driver.findElement(By.id("kpis")).getText().contains("Fleet ETTR"));
        browser.await(() -> browser.chartDrawn("causes-chart")
                || !browser.driver.findElement(By.id("causes-chart")).isDisplayed());
        results.add(check("overview", who, "causes-chart"));

        browser.open("fleet");
        expectTheme(dark);
        browser.waitFor(By.id("fleet-heatmap"));
        browser.await(() -> browser.chartDrawn("fleet-heatmap"));
        results.add(check("fleet", who, "fleet-heatmap"));
        String node = (String) browser.js(
                "return document.getElementById('fleet-heatmap').__chart" + ".getOption().yAxis[0].data[0];");
        browser.open("fleet?node=" + node);
        expectTheme(dark);
        browser.await(() -> browser.present("node-panel")
                && browser.driver.findElement(By.id("node-panel")).getText().contains("XID history"));
        browser.await(() -> browser.chartDrawn("fleet-heatmap"));
        results.add(check("fleet-node", who));

        browser.open("jobs");
        expectTheme(dark);
        browser.await(
                () -> browser.driver.findElement(By.id("job-count")).getText().contains("jobs"));
        results.add(check("jobs", who));

        browser.open("jobs/" + UiTestSupport.JOB);
        expectTheme(dark);
        browser.await(() -> browser.chartDrawn("job-timeline")
                && browser.driver.findElement(By.id("job-summary")).getText().contains("World size"));
        results.add(check("job-detail", who, "job-timeline"));
        if (role.equals("admin")) {
            browser.driver.findElement(By.id("action-checkpoint")).click();
            browser.await(() -> browser.present("action-impact")
                    && (browser.driver
                                    .findElement(By.id("action-impact"))
                                    .getText()
                                    .contains("Work at risk")
                            || browser.driver
                                    .findElement(By.id("action-impact"))
                                    .getText()
                                    .contains("Refused")));
            results.add(check("action-dialog", who));
            browser.press(Keys.ESCAPE);
            browser.await(() -> !browser.present("action-impact"));
        }

        browser.open("actions");
        expectTheme(dark);
        browser.await(() -> browser.present("actions-status")
                && (browser.driver
                                        .findElements(By.cssSelector("#actions-grid vaadin-grid-cell-content"))
                                        .size()
                                > 8
                        || !browser.driver
                                .findElement(By.id("actions-status"))
                                .getText()
                                .isEmpty()));
        results.add(check("actions", who));

        browser.open("audit");
        expectTheme(dark);
        browser.await(() -> browser.present("audit-grid")
                && (browser.driver
                                        .findElements(By.cssSelector("#audit-grid vaadin-grid-cell-content"))
                                        .size()
                                > 8
                        || !browser.driver
                                .findElement(By.id("audit-status"))
                                .getText()
                                .isEmpty()));
        results.add(check("audit", who));

        browser.open("alerts");
        expectTheme(dark);
        browser.await(() -> browser.present("alert-count")
                && !browser.driver.findElement(By.id("alert-count")).getText().isEmpty());
        results.add(check("alerts", who));

        browser.open("reliability");
        expectTheme(dark);
        browser.await(() ->
                browser.present("rel-summary") && !browser.text("rel-summary").isEmpty());
        browser.await(() -> browser.chartDrawn("rel-chart")
                || !browser.driver.findElement(By.id("rel-chart")).isDisplayed());
        results.add(check("reliability", who, "rel-chart"));

        report(who, results);
        List<String> failures = new ArrayList<>();
        for (PageResult r : results) {
            if (r.chartLabelContrast() != null && r.chartLabelContrast() < 4.5) {
                failures.add(
                        r.page() + ": chart labels have a contrast of " + r.chartLabelContrast() + ":1, below 4.5:1");
            }
            for (Violation v : r.violations()) {
                if (v.blocking()) {
                    failures.add(r.page() + ": " + v);
                } else if (!ACCEPTED.containsKey(v.id())) {
                    failures.add(r.page() + ": " + v + " (moderate or minor, and no reason for it is written down)");
                }
            }
        }
        assertThat(failures)
                .as("axe-core violations as %s in the %s theme", role, theme)
                .isEmpty();
    }

    /** Switches the theme with the sign-in page's switch if it is not the one wanted. */
    private void theme(boolean dark) throws InterruptedException {
        Thread.sleep(500);
        if (browser.dark() != dark) {
            browser.waitFor(By.id("theme-toggle")).sendKeys(Keys.ENTER);
            browser.await(() -> browser.dark() == dark);
        }
    }

    /** The theme chosen once holds on every page opened afterwards in the session. */
    private void expectTheme(boolean dark) {
        browser.await(() -> browser.dark() == dark);
    }

    private PageResult check(String page, String who) throws Exception {
        return check(page, who, null);
    }

    /**
     * Runs axe-core on the page as it is; with {@code chart}, also measures the contrast of that chart's label colours
     * (drawn on a canvas, which axe cannot read) against the background they are drawn on.
     */
    private PageResult check(String page, String who, String chart) throws Exception {
        Thread.sleep(500);
        if (!Boolean.TRUE.equals(browser.js("return typeof window.axe === 'object';"))) {
            browser.js(Files.readString(AXE));
        }
        Object raw = ((org.openqa.selenium.JavascriptExecutor) browser.driver).executeAsyncScript("""
                const done = arguments[arguments.length - 1];
                axe.run(document, {resultTypes: ['violations']}).then(r => done(JSON.stringify(r.violations.map(v => ({
                  id: v.id, impact: v.impact, help: v.help,
                  nodes: v.nodes.map(n => ({target: JSON.stringify(n.target), summary: n.failureSummary || '',
                                             html: (n.html || '').slice(0, 240)}))
                }))))).catch(e => done('ERROR ' + e));
                """);
        String text = String.valueOf(raw);
        assertThat(text).as("axe-core run on %s", page).doesNotStartWith("ERROR");
        List<Violation> violations = new ArrayList<>();
        for (JsonNode v : JSON.readTree(text)) {
            List<String> nodes = new ArrayList<>();
            for (JsonNode n : v.get("nodes")) {
                nodes.add(n.get("target").asText() + " " + n.get("html").asText() + " | "
                        + n.get("summary").asText().replace('\n', ' '));
            }
            violations.add(new Violation(
                    v.get("id").asText(),
                    v.path("impact").asText("minor"),
                    v.get("help").asText(),
                    nodes));
        }
        browser.shot(page + "-" + who);
        Double labels = chart == null ? null : ((Number) browser.js(CHART_CONTRAST, chart)).doubleValue();
        return new PageResult(page, violations, labels);
    }

    private static void report(String who, List<PageResult> results) throws Exception {
        StringBuilder out = new StringBuilder("axe-core " + who + "\n");
        for (PageResult r : results) {
            long critical = r.violations().stream()
                    .filter(v -> v.impact().equals("critical"))
                    .count();
            long serious = r.violations().stream()
                    .filter(v -> v.impact().equals("serious"))
                    .count();
            long moderate = r.violations().stream()
                    .filter(v -> v.impact().equals("moderate"))
                    .count();
            long minor = r.violations().stream()
                    .filter(v -> v.impact().equals("minor"))
                    .count();
            out.append(String.format(
                    "  %-14s critical %d, serious %d, moderate %d, minor %d%s%n",
                    r.page(),
                    critical,
                    serious,
                    moderate,
                    minor,
                    r.chartLabelContrast() == null
                            ? ""
                            : String.format(java.util.Locale.ROOT, "; chart labels %.1f:1", r.chartLabelContrast())));
            for (Violation v : r.violations()) {
                out.append("    ")
                        .append(v.impact())
                        .append(' ')
                        .append(v.id())
                        .append(": ")
                        .append(v.help());
                String reason = ACCEPTED.get(v.id());
                if (!v.blocking() && reason != null) {
                    out.append(" -- kept: ").append(reason);
                }
                out.append('\n');
                for (String n : v.nodes()) {
                    out.append("      ").append(n).append('\n');
                }
            }
        }
        System.out.print(out);
        Files.createDirectories(REPORT.getParent());
        Files.writeString(REPORT, out + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    record PageResult(String page, List<Violation> violations, Double chartLabelContrast) {}

    /** The lowest contrast of the chart text colours (secondary and body text) on the chart's background. */
    private static final String CHART_CONTRAST = """
            const el = document.getElementById(arguments[0]);
            const rgba = s => { const v = s.match(/[\\d.]+/g).map(Number); return v.length === 3 ? v.concat(1) : v; };
            let bg = [0, 0, 0, 0];
            for (let n = el; n && bg[3] === 0; n = n.parentElement) { bg = rgba(getComputedStyle(n).backgroundColor); }
            if (bg[3] === 0) { bg = [255, 255, 255, 1]; }
            const lum = c => { const l = c.slice(0, 3).map(v => { v /= 255; return v <= 0.04045 ? v / 12.92
                : Math.pow((v + 0.055) / 1.055, 2.4); }); return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2]; };
            const probe = document.createElement('span');
            document.body.appendChild(probe);
            let lowest = 100;
            for (const token of ['--lumo-secondary-text-color', '--lumo-body-text-color']) {
              probe.style.color = 'var(' + token + ')';
              const f = rgba(getComputedStyle(probe).color);
              const shown = [0, 1, 2].map(i => f[i] * f[3] + bg[i] * (1 - f[3]));
              const a = lum(shown), b = lum(bg);
              lowest = Math.min(lowest, (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05));
            }
            probe.remove();
            return lowest;""";

    record Violation(String id, String impact, String help, List<String> nodes) {

        boolean blocking() {
            return impact.equals("serious") || impact.equals("critical");
        }

        @Override
        public String toString() {
            return impact + " " + id + " (" + help + ") on " + nodes.size() + " element(s): "
                    + String.join("; ", nodes.subList(0, Math.min(3, nodes.size())));
        }
    }
}
