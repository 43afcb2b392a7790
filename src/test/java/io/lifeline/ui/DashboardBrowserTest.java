package io.lifeline.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.testing.CloudEvents;
import io.lifeline.testing.RequiredTool;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.File;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard in headless Chromium against the running application and the simulated fleet: sign in with a token,
 * see the overview, the fleet heat map and a job's timeline drawn with data; screenshots go to target/screenshots/.
 */
@QuarkusTest
class DashboardBrowserTest {

    private static final File CHROMIUM = new File("/usr/bin/chromium");
    private static final File DRIVER = new File("/usr/bin/chromedriver");
    private static final Path SHOTS = Path.of("target", "screenshots");

    @TestHTTPResource("/")
    URL root;

    private WebDriver driver;

    @BeforeEach
    void start() throws Exception {
        RequiredTool.CHROMIUM.file();
        RequiredTool.CHROMEDRIVER.file();
        UiTestSupport.feedDemoData();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--window-size=1440,1000");
        ChromeDriverService service =
                new ChromeDriverService.Builder().usingDriverExecutable(DRIVER).build();
        driver = new ChromeDriver(service, options);
        driver.manage().window().setSize(new Dimension(1440, 1000));
        Files.createDirectories(SHOTS);
    }

    @AfterEach
    void stop() {
        if (driver != null) {
            driver.quit();
        }
    }

    @Test
    void signInOpenTheFleetAndAJobAndSeeTheTimelineDrawn() throws Exception {
        signIn(TestTokens.operator());
        WebElement kpis = waitFor(By.id("kpis"));
        await(() -> kpis.getText().contains("Fleet ETTR"));
        await(() -> canvasIn("causes-chart")
                || !driver.findElements(By.id("causes-chart")).get(0).isDisplayed());
        assertThat(driver.findElement(By.id("time-zone")).getText()).startsWith("Times in ");
        shot("overview");

        driver.get(url("fleet"));
        waitFor(By.id("fleet-heatmap"));
        await(() -> canvasIn("fleet-heatmap"));
        assertThat(driver.findElement(By.id("fleet-groups")).getText()).contains("spot-p5");
        shot("fleet");
        String node = (String) ((JavascriptExecutor) driver)
                .executeScript("const c = document.getElementById('fleet-heatmap').__chart;"
                        + "return c.getOption().yAxis[0].data[0];");
        driver.get(url("fleet?node=" + node));
        waitFor(By.id("node-panel"));
        await(() -> driver.findElement(By.id("node-panel")).getText().contains(node));
        shot("fleet-node");

        driver.get(url("jobs"));
        waitFor(By.id("jobs-grid"));
        await(() -> driver.findElement(By.id("job-count")).getText().contains("jobs"));
        shot("jobs");

        driver.get(url("jobs/" + UiTestSupport.JOB));
        waitFor(By.id("job-timeline"));
        await(() -> canvasIn("job-timeline"));
        Long points = (Long) ((JavascriptExecutor) driver)
                .executeScript("const c = document.getElementById('job-timeline').__chart;"
                        + "return c.getOption().series.reduce((n, s) => n + s.data.length, 0);");
        assertThat(points).isPositive();
        assertThat(driver.findElement(By.id("job-summary")).getText()).contains("World size");
        shot("job-detail");

        driver.findElement(By.id("action-checkpoint")).click();
        WebElement impact = waitFor(By.id("action-impact"));
        await(() -> impact.getText().contains("Work at risk"));
        shot("action-dry-run");
        driver.findElement(By.id("action-confirm")).click();
        waitFor(By.id("action-state"));
        await(() -> driver.findElement(By.id("action-state")).getText().equals("running"));
        shot("action-running");
        // The trainers answer the way a real job would: a checkpoint newer than any before completes and verifies.
        String job = UiTestSupport.JOB;
        Instant now = Instant.now();
        String data = "{\"checkpointId\":\"ui-test-ckpt\",\"step\":999999999,\"durationSeconds\":20,"
                + "\"blockingSeconds\":3,\"worldSize\":128}";
        String verified = "{\"checkpointId\":\"ui-test-ckpt\",\"ok\":true}";
        TestTokens.api()
                .contentType("application/cloudevents-batch+json")
                .body(CloudEvents.array(List.of(
                        CloudEvents.event(
                                CloudEvents.uniqueId(),
                                "trainer/" + job,
                                "trainer.checkpoint.completed",
                                job,
                                now,
                                data),
                        CloudEvents.event(
                                CloudEvents.uniqueId(),
                                "trainer/" + job,
                                "trainer.checkpoint.verified",
                                job,
                                now.plusSeconds(1),
                                verified))))
                .post("/api/v1/events")
                .then()
                .statusCode(org.hamcrest.Matchers.lessThan(300));
        await(() -> driver.findElement(By.id("action-state")).getText().equals("succeeded"));
        shot("action-succeeded");
    }

    @Test
    void aViewerSeesTheJobWithoutActionButtons() throws Exception {
        signIn(TestTokens.viewer());
        waitFor(By.id("kpis"));
        driver.get(url("jobs/" + UiTestSupport.JOB));
        waitFor(By.id("job-timeline"));
        await(() -> canvasIn("job-timeline"));
        assertThat(driver.findElements(By.id("action-checkpoint"))).isEmpty();
        // Lumo styles the page without an application theme, and no page asks for one that is not there.
        assertThat(
                        String.valueOf(
                                ((JavascriptExecutor) driver)
                                        .executeScript(
                                                "return getComputedStyle(document.documentElement).getPropertyValue('--lumo-primary-color')")))
                .isNotBlank();
        assertThat(
                        (List<?>)
                                ((JavascriptExecutor) driver)
                                        .executeScript(
                                                "return performance.getEntriesByType('resource').map(e => e.name).filter(n => n.includes('/themes/'))"))
                .isEmpty();
        driver.findElement(By.id("theme-toggle")).click();
        await(() -> String.valueOf(((JavascriptExecutor) driver)
                        .executeScript("return (document.documentElement.getAttribute('theme') || '') + ' '"
                                + " + (document.body.getAttribute('theme') || '')"))
                .contains("dark"));
        shot("job-detail-dark");
    }

    @Test
    void aHungJobsPageShowsItsHangSectionWithTheStacksFolded() throws Exception {
        String job = UiTestSupport.hungJob("stuck-browser");
        signIn(TestTokens.operator());
        waitFor(By.id("kpis"));
        driver.get(url("jobs/" + job));
        WebElement hang = waitFor(By.id("job-hang"));
        await(() -> hang.getText().contains("Hung: incident open"));
        assertThat(hang.getText()).contains("suspect rank 1 on hang-n2", "2 of 2 ranks answered");
        assertThat(driver.findElements(By.cssSelector("#job-hang vaadin-details")))
                .hasSize(2);
        // The odd one out is open and shows its frames; the crowd waiting in the collective is folded.
        WebElement odd = driver.findElement(By.cssSelector("#job-hang vaadin-details.ll-odd-one-out"));
        assertThat(odd.getDomAttribute("opened")).isNotNull();
        await(() -> odd.getText().contains("loader.py:12 in read_shard"));
        WebElement crowd = driver.findElement(By.cssSelector("#job-hang vaadin-details:not(.ll-odd-one-out)"));
        assertThat(crowd.getDomAttribute("opened")).isNull();
        assertThat(crowd.getText()).contains("waiting in a collective");
        WebElement summary = crowd.findElement(By.cssSelector("vaadin-details-summary"));
        // Below the fold: brought to the middle of the window, clear of the top bar.
        ((JavascriptExecutor) driver).executeScript("arguments[0].scrollIntoView({block: 'center'})", summary);
        summary.click();
        await(() -> crowd.getDomAttribute("opened") != null);
        assertThat(driver.findElement(By.id("job-hang-capture")).isDisplayed()).isTrue();
        ((JavascriptExecutor) driver).executeScript("arguments[0].scrollIntoView({block: 'start'})", hang);
        shot("job-hang");
    }

    private void signIn(String token) {
        driver.get(url("login"));
        WebElement input = waitFor(By.cssSelector("#token input"));
        input.sendKeys(token);
        driver.findElement(By.id("sign-in")).click();
    }

    private boolean canvasIn(String id) {
        return !driver.findElements(By.cssSelector("#" + id + " canvas")).isEmpty()
                && driver.findElement(By.id(id)).getAttribute("data-rendered") != null;
    }

    private WebElement waitFor(By by) {
        return new WebDriverWait(driver, Browser.PATIENCE)
                .ignoring(org.openqa.selenium.StaleElementReferenceException.class)
                .until(d -> {
                    var found = d.findElements(by);
                    return found.isEmpty() ? null : found.get(0);
                });
    }

    /** Vaadin re-renders elements while the test reads them: a stale reference means "look again", not a failure. */
    private void await(java.util.function.BooleanSupplier condition) {
        new WebDriverWait(driver, Browser.PATIENCE)
                .ignoring(org.openqa.selenium.StaleElementReferenceException.class)
                .until(d -> condition.getAsBoolean());
    }

    private String url(String path) {
        return root.toString() + path;
    }

    private void shot(String name) throws Exception {
        Thread.sleep(400);
        File f = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
        Files.copy(f.toPath(), SHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }
}
