package io.lifeline.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.testing.TestTokens;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;

/**
 * The Objectives page in headless Chromium on the two objectives of {@link ObjectivesViewTest}: reached from the side
 * navigation, it shows the burning one with its state, budget bar and burn rates, the met one, and a job's link
 * opens the job page, whose "Objective" section links back. The screenshot is docs/screenshots/objectives.png.
 */
@QuarkusTest
class ObjectivesBrowserTest {

    static final Path DOC_SHOT = Path.of("docs", "screenshots", "objectives.png");

    @TestHTTPResource("/")
    URL root;

    private Browser browser;
    private ObjectivesViewTest seeded;

    @BeforeEach
    void start() throws Exception {
        Browser.require();
        seeded = new ObjectivesViewTest();
        seeded.seed();
        browser = new Browser(root);
    }

    @AfterEach
    void stop() {
        if (browser != null) {
            browser.close();
        }
        if (seeded != null && seeded.service != null) {
            seeded.restore();
        }
    }

    @Test
    void showsTheBurningAndTheMetObjectiveAndLinksTheirJobs() throws Exception {
        browser.signIn(TestTokens.admin());
        browser.waitFor(By.cssSelector("#side-nav vaadin-side-nav-item[path='objectives']"))
                .click();
        browser.await(() -> browser.driver.getCurrentUrl().endsWith("/objectives"));
        String burning = "objective-burning-" + seeded.tag;
        browser.await(() -> browser.present(burning) && browser.present("objective-met-" + seeded.tag));
        assertThat(browser.text(burning))
                .contains("Burning", "97.1 % (target 95.0 %)", "24.0 GPU-h left (42 %)", "Slow burn", "spot reclaim");
        assertThat(browser.text("objective-met-" + seeded.tag)).contains("Met");
        String width = (String) browser.js(
                "return document.querySelector('#' + arguments[0] + ' .ll-budget-spent').style.width;", burning);
        assertThat(width).isEqualTo("58.3%");

        browser.driver.manage().window().setSize(new Dimension(1440, 1100));
        browser.shot("objectives");
        Files.createDirectories(DOC_SHOT.getParent());
        Files.copy(Browser.SHOTS.resolve("objectives.png"), DOC_SHOT, StandardCopyOption.REPLACE_EXISTING);

        browser.driver.findElement(By.linkText(seeded.job)).click();
        browser.await(() -> browser.present("job-objective")
                && browser.text("job-objective").contains("Burning"));
        browser.driver.findElement(By.id("job-objective-link")).click();
        browser.await(() -> browser.driver.getCurrentUrl().contains("/objectives?job="));
        browser.await(() -> browser.present(burning) && !browser.present("objective-met-" + seeded.tag));
    }
}
