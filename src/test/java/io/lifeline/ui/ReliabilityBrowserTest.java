package io.lifeline.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.testing.TestTokens;
import io.lifeline.testing.TwiceRecoveredJob;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;

/**
 * The Reliability page in headless Chromium, beside the simulated fleet, on the hand-counted fleet of
 * {@link ReliabilityViewTest}: reached from the side navigation, it shows the hand-counted MTBF per pool, draws its
 * chart, shows the recovery time by phase of a job recovered twice with its stacked chart, keeps a grouping in the URL,
 * and a lemon's link opens the node on the fleet page. The screenshot is the one
 * in docs/screenshots/reliability.png.
 */
@QuarkusTest
class ReliabilityBrowserTest {

    static final Path DOC_SHOT = Path.of("docs", "screenshots", "reliability.png");

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
    void showsTheHandCountedMtbfDrawsItsChartAndLinksALemonToItsNode() throws Exception {
        ReliabilityViewTest.Seed s = ReliabilityViewTest.seed();
        TwiceRecoveredJob recovered = TwiceRecoveredJob.tagged(s.tag().substring(1));
        recovered.post(Instant.now().minus(Duration.ofDays(2)).truncatedTo(ChronoUnit.SECONDS));
        browser.signIn(TestTokens.admin());
        browser.waitFor(By.cssSelector("#side-nav vaadin-side-nav-item[path='reliability']"))
                .click();
        browser.await(() -> browser.driver.getCurrentUrl().endsWith("/reliability"));
        browser.await(() -> gridText().contains(s.spot()) && gridText().contains(s.onDemand()));
        browser.await(() -> browser.chartDrawn("rel-chart"));
        String grid = gridText();
        assertThat(grid).contains("120.0 h (", "96.0 h (41.1 h – 295.7 h)", "250.0 (81.2 – 583.4)");
        Long drawn = (Long) browser.js(
                "return document.getElementById('rel-chart').__chart.getOption()"
                        + ".xAxis[0].data.filter(g => g === arguments[0] || g === arguments[1]).length;",
                s.spot(),
                s.onDemand());
        assertThat(drawn).isEqualTo(2);
        browser.await(() -> browser.text("rel-lemons").contains(s.lemon()));
        assertThat(browser.text("rel-lemons")).contains("not ready: KubeletNotReady");
        // Recovery time by phase: the table of every cause, and the stacked medians drawn, a bar series per phase.
        browser.await(() ->
                browser.text("rel-phases-grid").contains("software error") && browser.chartDrawn("rel-phases-chart"));
        Long stacked = (Long) browser.js("return document.getElementById('rel-phases-chart').__chart.getOption()"
                + ".series.filter(x => x.type === 'bar' && x.stack === 'median').length;");
        assertThat(stacked).isEqualTo(6);

        browser.driver.manage().window().setSize(new Dimension(1440, 1700));
        browser.await(() -> browser.chartDrawn("rel-chart"));
        browser.shot("reliability");
        Files.createDirectories(DOC_SHOT.getParent());
        Files.copy(Browser.SHOTS.resolve("reliability.png"), DOC_SHOT, StandardCopyOption.REPLACE_EXISTING);
        browser.driver.manage().window().setSize(new Dimension(1440, 1000));

        // A grouping chosen on the page is in its URL; the lemon's link opens its node on the fleet page.
        browser.open("reliability?groupBy=capacityType&window=90d");
        browser.await(() -> gridText().contains("on-demand") && !gridText().contains(s.onDemand()));
        browser.open("reliability");
        WebElement link = browser.waitFor(By.linkText(s.lemon()));
        browser.js("arguments[0].scrollIntoView({block: 'center'});", link);
        link.click();
        browser.await(() -> browser.driver.getCurrentUrl().contains("fleet?node=" + s.lemon()));
        browser.await(() -> browser.present("node-panel")
                && s.lemon()
                        .equals(browser.js(
                                "const t = document.getElementById('node-title'); return t ? t.textContent : null;")));
    }

    /** The grid's cells are light-DOM children of the grid: their text is the grid's. */
    private String gridText() {
        return browser.text("rel-grid");
    }
}
