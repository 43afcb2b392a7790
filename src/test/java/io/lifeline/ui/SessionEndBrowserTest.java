package io.lifeline.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.security.TokenFormat;
import io.lifeline.security.identity.Role;
import io.lifeline.testing.RequiredTool;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.io.File;
import java.net.URL;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A dashboard session ends with its token: signed in with a token in headless Chromium, the token revoked through
 * the API, the open page (left alone, no clicks) is sent to the sign-in page, which says why, within the check
 * interval (2 s here; 30 s by default).
 */
@QuarkusTest
@TestProfile(SessionEndBrowserTest.FastCheck.class)
class SessionEndBrowserTest {

    private static final File CHROMIUM = new File("/usr/bin/chromium");
    private static final File DRIVER = new File("/usr/bin/chromedriver");

    /** A short session check interval. */
    public static class FastCheck implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("lifeline.ui.session-check-interval", "2s");
        }
    }

    @TestHTTPResource("/")
    URL root;

    private WebDriver driver;

    @BeforeEach
    void start() {
        RequiredTool.CHROMIUM.file();
        RequiredTool.CHROMEDRIVER.file();
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
        driver = new ChromeDriver(
                new ChromeDriverService.Builder().usingDriverExecutable(DRIVER).build(), options);
    }

    @AfterEach
    void stop() {
        if (driver != null) {
            driver.quit();
        }
    }

    @Test
    void revokingTheTokenSignsTheOpenDashboardOut() {
        String token = TestTokens.create("session-end", Role.OPERATOR, List.of());
        String id = TokenFormat.parse(token).id();
        driver.get(root + "login");
        wait(Browser.PATIENCE)
                .until(d -> !d.findElements(By.cssSelector("#token input")).isEmpty());
        driver.findElement(By.cssSelector("#token input")).sendKeys(token);
        driver.findElement(By.id("sign-in")).click();
        wait(Browser.PATIENCE).until(d -> !d.findElements(By.id("sign-out")).isEmpty());
        assertThat(driver.getCurrentUrl()).doesNotContain("login");

        // Still signed in after several checks while the token holds.
        sleep(5000);
        assertThat(driver.findElements(By.id("sign-out"))).isNotEmpty();

        io.restassured.RestAssured.given(TestTokens.asAdmin())
                .delete("/api/v1/tokens/" + id)
                .then()
                .statusCode(204);
        wait(Browser.PATIENCE)
                .until(d -> d.getCurrentUrl().contains("login")
                        && d.findElements(By.id("sign-out")).isEmpty()
                        && d.getPageSource().contains("your token was revoked"));

        // The session itself is signed out, not just the page: opening the dashboard again asks for sign-in.
        driver.get(root + "jobs");
        wait(Browser.PATIENCE)
                .until(d -> !d.findElements(By.cssSelector("#token input")).isEmpty());
        assertThat(driver.findElements(By.id("sign-out"))).isEmpty();
    }

    @Test
    void aTokenThatExpiresSignsTheOpenDashboardOut() {
        java.time.Instant expires = java.time.Instant.now().plusSeconds(12);
        String token = io.quarkus.arc.Arc.container()
                .instance(io.lifeline.security.TokenService.class)
                .get()
                .create(
                        io.lifeline.security.identity.Caller.unrestricted("tests"),
                        "session-expiry",
                        Role.VIEWER,
                        List.of(),
                        expires)
                .secretToken();
        driver.get(root + "login");
        wait(Browser.PATIENCE)
                .until(d -> !d.findElements(By.cssSelector("#token input")).isEmpty());
        driver.findElement(By.cssSelector("#token input")).sendKeys(token);
        driver.findElement(By.id("sign-in")).click();
        wait(Browser.PATIENCE).until(d -> !d.findElements(By.id("sign-out")).isEmpty());
        assertThat(driver.findElements(By.id("sign-out")))
                .as("signed in while the token holds")
                .isNotEmpty();

        // Nobody touches the token: its expiry alone ends the session (how soon is a matter of the check interval and
        // of
        // the machine's load, not asserted here).
        wait(Browser.PATIENCE)
                .until(d -> d.getCurrentUrl().contains("login")
                        && d.findElements(By.id("sign-out")).isEmpty()
                        && d.getPageSource().contains("your sign-in expired"));
        assertThat(java.time.Instant.now()).isAfterOrEqualTo(expires);
    }

    private WebDriverWait wait(Duration d) {
        WebDriverWait w = new WebDriverWait(driver, d);
        w.ignoring(org.openqa.selenium.StaleElementReferenceException.class);
        return w;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
