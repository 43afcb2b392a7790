package io.lifeline.ui;

import io.lifeline.testing.RequiredTool;
import java.io.File;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's headless Chromium driven by Selenium against the running test application, for the browser tests that
 * need more than one page: waits that tolerate Vaadin re-rendering, sign-in, the theme, screenshots.
 */
final class Browser implements AutoCloseable {

    /**
     * How long a page may take to show what a test waits for. A waiting test asserts what appears, not how fast: on a
     * loaded machine a Vaadin round trip can take tens of seconds, so this is far above any ordinary wait.
     */
    static final Duration PATIENCE = Duration.ofSeconds(120);

    static final File CHROMIUM = new File("/usr/bin/chromium");
    static final File DRIVER = new File("/usr/bin/chromedriver");
    static final Path SHOTS = Path.of("target", "screenshots");

    final WebDriver driver;
    private final URL root;

    Browser(URL root) throws Exception {
        this.root = root;
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
        driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(120));
        Files.createDirectories(SHOTS);
    }

    /** Fails the test, naming the packages to install, unless this machine has Debian's Chromium and chromedriver. */
    static void require() {
        RequiredTool.CHROMIUM.file();
        RequiredTool.CHROMEDRIVER.file();
    }

    String url(String path) {
        return root.toString() + path;
    }

    void open(String path) {
        driver.get(url(path));
    }

    WebElement waitFor(By by) {
        return new WebDriverWait(driver, PATIENCE)
                .ignoring(StaleElementReferenceException.class)
                .until(d -> {
                    var found = d.findElements(by);
                    return found.isEmpty() ? null : found.get(0);
                });
    }

    /** Vaadin re-renders elements while the test reads them: a stale reference means "look again", not a failure. */
    void await(BooleanSupplier condition) {
        new WebDriverWait(driver, PATIENCE)
                .ignoring(StaleElementReferenceException.class)
                .until(d -> condition.getAsBoolean());
    }

    Object js(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(script, args);
    }

    boolean present(String id) {
        return !driver.findElements(By.id(id)).isEmpty();
    }

    /** Whether the chart with this id has drawn its canvas. */
    boolean chartDrawn(String id) {
        return !driver.findElements(By.cssSelector("#" + id + " canvas")).isEmpty()
                && driver.findElement(By.id(id)).getAttribute("data-rendered") != null;
    }

    /** Whether the dark theme is on. */
    boolean dark() {
        return String.valueOf(js("return (document.documentElement.getAttribute('theme') || '') + ' '"
                        + " + (document.body.getAttribute('theme') || '')"))
                .contains("dark");
    }

    /** Types the token on the sign-in page and presses Enter (no pointer). */
    void signIn(String token) {
        open("login");
        WebElement input = waitFor(By.cssSelector("#token input"));
        input.sendKeys(token);
        input.sendKeys(org.openqa.selenium.Keys.ENTER);
        waitFor(By.id("kpis"));
    }

    /** Presses keys on whatever has the focus: the keyboard only, no pointer event. */
    void press(CharSequence... keys) {
        new org.openqa.selenium.interactions.Actions(driver).sendKeys(keys).perform();
    }

    /** Whether the focus is inside the element with this id (shadow roots followed). */
    boolean focusIn(String id) {
        return Boolean.TRUE.equals(js("""
                let a = document.activeElement;
                while (a) {
                  if (a.closest && a.closest('#' + arguments[0])) { return true; }
                  if (!a.shadowRoot || !a.shadowRoot.activeElement) { break; }
                  a = a.shadowRoot.activeElement;
                }
                return false;""", id));
    }

    /** Presses Tab until the focus is inside the element with this id; fails after {@code max} presses. */
    void tabTo(String id, int max) {
        tab(id, max, org.openqa.selenium.Keys.TAB);
    }

    /** Presses Shift+Tab until the focus is inside the element with this id. */
    void tabBackTo(String id, int max) {
        tab(id, max, null);
    }

    /** Tab, or Shift+Tab when {@code key} is null. */
    private void tab(String id, int max, CharSequence key) {
        StringBuilder trail = new StringBuilder(focused());
        for (int i = 0; i < max; i++) {
            if (focusIn(id)) {
                return;
            }
            if (key == null) {
                new org.openqa.selenium.interactions.Actions(driver)
                        .keyDown(org.openqa.selenium.Keys.SHIFT)
                        .sendKeys(org.openqa.selenium.Keys.TAB)
                        .keyUp(org.openqa.selenium.Keys.SHIFT)
                        .perform();
            } else {
                press(key);
            }
            trail.append(" > ").append(focused());
        }
        if (!focusIn(id)) {
            throw new AssertionError("Tab did not reach #" + id + " in " + max + " presses: " + trail);
        }
    }

    /** What has the focus, for messages: tag, id and text of the innermost focused element. */
    String focused() {
        return String.valueOf(js("""
                let a = document.activeElement;
                while (a && a.shadowRoot && a.shadowRoot.activeElement) { a = a.shadowRoot.activeElement; }
                return a ? a.localName + '#' + a.id + ' ' + (a.textContent || '').trim().slice(0, 60) : 'nothing';"""));
    }

    String text(String id) {
        var found = driver.findElements(By.id(id));
        return found.isEmpty() ? "" : found.get(0).getText();
    }

    void shot(String name) throws Exception {
        Thread.sleep(400);
        File f = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
        Files.copy(f.toPath(), SHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public void close() {
        driver.quit();
    }
}
