package io.lifeline.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.demo.FleetSimulator;
import io.lifeline.demo.Scenario;
import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.Event;
import io.lifeline.ingest.IngestGateway;
import io.lifeline.runtime.ModelRuntime;
import io.lifeline.testing.BenchmarkReport;
import io.lifeline.testing.RequiredTool;
import io.lifeline.testing.TestTokens;
import io.lifeline.ui.data.DashboardData;
import io.lifeline.ui.data.DashboardSnapshot;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.net.URL;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Time to first render of Fleet and Jobs in headless Chromium with a 2,000-node / 16,000-GPU / 500-job simulated
 * fleet fed through the {@link IngestGateway}, and the server heap that 10 signed-in dashboards add (used heap after
 * GC with no browser open, then with 10 separate browser sessions showing the fleet, in the same run).
 * Not part of the test suite:
 * {@code ./mvnw -o test -Dgroups=benchmark -DexcludedGroups= -Dtest=ViewRenderBenchmark}.
 */
@QuarkusTest
@Tag("benchmark")
class ViewRenderBenchmark {

    private static final File CHROMIUM = new File("/usr/bin/chromium");
    private static final File DRIVER = new File("/usr/bin/chromedriver");
    private static final int NODES = Integer.getInteger("bench.ui.nodes", 2000);
    private static final int JOBS = Integer.getInteger("bench.ui.jobs", 500);
    private static final int HISTORY_MINUTES = Integer.getInteger("bench.ui.minutes", 5);
    private static final int RUNS = 5;
    private static final int SESSIONS = 10;
    /** The heat map is drawn: a canvas inside it and the chart's own "rendered" mark. */
    private static final String FLEET_DRAWN = "const h = document.getElementById('fleet-heatmap');"
            + "return !!h && !!h.querySelector('canvas') && h.hasAttribute('data-rendered');";
    /** The jobs grid shows its first rows: a body cell holding a job name. */
    private static final String JOBS_DRAWN = "const g = document.getElementById('jobs-grid');"
            + "if (!g) { return false; }"
            + "return Array.from(g.querySelectorAll('vaadin-grid-cell-content'))"
            + ".some(c => c.textContent.indexOf('load/job-') >= 0);";
    /** The floor: the login page (no dashboard data) shows its token field. */
    private static final String LOGIN_DRAWN = "return !!document.querySelector('#token input');";

    @TestHTTPResource("/")
    URL root;

    @Inject
    IngestGateway gateway;

    @Inject
    ModelRuntime model;

    @Inject
    DashboardData data;

    @Test
    void measure() throws Exception {
        RequiredTool.CHROMIUM.file();
        RequiredTool.CHROMEDRIVER.file();
        long events = feed();
        DashboardSnapshot snap = data.current();
        System.out.printf(
                "[bench] fed %d events: %d nodes, %d jobs in the snapshot%n",
                events, snap.nodes().size(), snap.jobs().size());
        assertThat(snap.jobs()).hasSizeGreaterThanOrEqualTo(JOBS);

        BenchmarkReport render = new BenchmarkReport("ui-render");
        WebDriver first = browser();
        try {
            signIn(first);
            // One warm-up load of each page (class loading, first JIT), not counted.
            load(first, "fleet", FLEET_DRAWN);
            load(first, "jobs", JOBS_DRAWN);
            for (int run = 1; run <= RUNS; run++) {
                render.add("load average of the machine at the start of the run (x100)", loadAverage() * 100);
                render.add(
                        "Login page, no data (the framework's floor): navigation start to the token field (ms)",
                        load(first, "login", LOGIN_DRAWN));
                render.add("Fleet: navigation start to heat map drawn (ms)", load(first, "fleet", FLEET_DRAWN));
                render.add("Jobs: navigation start to first grid rows (ms)", load(first, "jobs", JOBS_DRAWN));
            }
        } finally {
            first.quit();
        }
        serverSide(snap, render);
        render.write("milliseconds from the browser's navigation start (performance.now()), " + NODES + " nodes, "
                + NODES * 8 + " GPUs, " + JOBS + " jobs, " + events + " events of " + HISTORY_MINUTES
                + " simulated minutes");

        BenchmarkReport heap = new BenchmarkReport("ui-heap");
        // Let the sessions of the render runs go, so the baseline holds none.
        double before = usedHeapAfterGc();
        List<WebDriver> open = new ArrayList<>();
        try {
            for (int i = 0; i < SESSIONS; i++) {
                WebDriver d = browser();
                open.add(d);
                signIn(d);
                load(d, "fleet", FLEET_DRAWN);
            }
            Thread.sleep(3000);
            double after = usedHeapAfterGc();
            heap.add("used heap after GC, no dashboard open (MB)", before);
            heap.add("used heap after GC, " + SESSIONS + " dashboards open on Fleet (MB)", after);
            heap.add("extra heap for " + SESSIONS + " dashboards (MB)", after - before);
            heap.add("extra heap per dashboard (MB)", (after - before) / SESSIONS);
        } finally {
            open.forEach(WebDriver::quit);
        }
        heap.write("MB (2^20 bytes) of used heap after System.gc(), read from the MemoryMXBean of the server JVM");
    }

    /**
     * What the server spends on the Fleet view model and the chart option it sends (the first window of rows), the
     * option's size, the size an option of every row would have, and the Jobs grid's first request (count and page).
     */
    private static void serverSide(DashboardSnapshot snap, BenchmarkReport report) {
        for (int run = 1; run <= RUNS; run++) {
            long t0 = System.nanoTime();
            HeatMapModel m = FleetPresenter.heatMap(snap, FleetQuery.all());
            long t1 = System.nanoTime();
            String option = Charts.heatMap(m);
            long t2 = System.nanoTime();
            String whole = Charts.heatMap(FleetPresenter.window(m, 0, m.nodes().size() - 1));
            long t3 = System.nanoTime();
            int count = JobsPresenter.filter(snap.jobs(), JobsQuery.all(), List.of())
                    .size();
            int page = JobsPresenter.page(snap.jobs(), JobsQuery.all(), List.of(), 0, 50)
                    .size();
            long t4 = System.nanoTime();
            assertThat(count).isGreaterThanOrEqualTo(page);
            report.add("server: Fleet heat map view model (ms)", (t1 - t0) / 1e6);
            report.add("server: heat map chart option JSON, first window of rows (ms)", (t2 - t1) / 1e6);
            report.add("server: heat map chart option size, first window of rows (KB)", option.length() / 1024.0);
            report.add("server: an option of every row, for comparison: JSON (ms)", (t3 - t2) / 1e6);
            report.add("server: an option of every row, for comparison: size (KB)", whole.length() / 1024.0);
            report.add("server: Jobs grid's first request, count and first page of 50 (ms)", (t4 - t3) / 1e6);
        }
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    private long feed() throws Exception {
        Instant now = Instant.now();
        FleetSimulator sim = new FleetSimulator(large(NODES, JOBS), now.minus(Duration.ofMinutes(HISTORY_MINUTES)));
        List<Event> events = sim.advanceTo(now);
        for (int i = 0; i < events.size(); i += 5000) {
            gateway.submit(events.subList(i, Math.min(events.size(), i + 5000)))
                    .toCompletableFuture()
                    .get(120, TimeUnit.SECONDS);
        }
        model.barrier().get(120, TimeUnit.SECONDS);
        data.refresh().get(120, TimeUnit.SECONDS);
        return events.size();
    }

    /** The simulator's large fleet: {@code nodes} 8-GPU nodes in a spot and an on-demand pool, jobs of 2..6 nodes. */
    private static Scenario large(int nodes, int jobs) {
        Scenario.Checkpointing ckpt = new Scenario.Checkpointing(600, 12, true, 60, 300, 30, "s3://bench-ckpt/runs", 0);
        List<Scenario.Job> js = new ArrayList<>();
        for (int i = 0; i < jobs; i++) {
            js.add(new Scenario.Job(
                    "load-" + i % 8, "job-" + i, null, null, null, List.of(), 2, 6, 8, 100, 0, 0, 1.5, 256, 0, ckpt));
        }
        return new Scenario(
                11,
                10,
                10,
                0.01,
                0.4,
                300,
                1200,
                null,
                List.of(
                        new Scenario.Pool(
                                "spot-a",
                                CapacityType.SPOT,
                                "us-east-1a",
                                "p5.48xlarge",
                                null,
                                nodes / 2,
                                8,
                                0.05,
                                120),
                        new Scenario.Pool(
                                "od-b",
                                CapacityType.ON_DEMAND,
                                "us-east-1b",
                                "p4d.24xlarge",
                                null,
                                nodes - nodes / 2,
                                8,
                                0,
                                120)),
                js);
    }

    /** Loads {@code path} and returns performance.now() at the first poll that sees {@code drawn} hold. */
    private double load(WebDriver d, String path, String drawn) {
        d.get(root + path);
        JavascriptExecutor js = (JavascriptExecutor) d;
        new WebDriverWait(d, Duration.ofSeconds(60))
                .pollingEvery(Duration.ofMillis(20))
                .until(x -> Boolean.TRUE.equals(js.executeScript(drawn)));
        return ((Number) js.executeScript("return performance.now();")).doubleValue();
    }

    private static double usedHeapAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(300);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1048576.0;
    }

    private static WebDriver browser() {
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
        WebDriver d = new ChromeDriver(service, options);
        d.manage().window().setSize(new Dimension(1440, 1000));
        return d;
    }

    private void signIn(WebDriver d) {
        d.get(root + "login");
        WebDriverWait wait = new WebDriverWait(d, Duration.ofSeconds(60));
        wait.until(x -> !x.findElements(By.cssSelector("#token input")).isEmpty());
        d.findElement(By.cssSelector("#token input")).sendKeys(TestTokens.operator());
        d.findElement(By.id("sign-in")).click();
        wait.until(x -> !x.findElements(By.id("kpis")).isEmpty());
    }
}
