package io.lifeline.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.GpuData;
import io.lifeline.domain.event.NodeData;
import io.lifeline.ingest.IngestGateway;
import io.lifeline.runtime.ModelRuntime;
import io.lifeline.testing.TestTokens;
import io.lifeline.ui.data.DashboardData;
import io.quarkus.arc.Arc;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URL;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.interactions.WheelInput;

/**
 * The fleet heat map in headless Chromium is sent only the rows in view: scrolling it (the mouse wheel over the map)
 * brings the rows of the new window from the server, at their places on the whole axis; the keyboard reaches a row
 * that was never sent, names it once it arrives, and opens it.
 */
@QuarkusTest
class HeatMapWindowBrowserTest {

    /** A pool of its own, sorted after the demo's, so other tests' first rows stay theirs. */
    private static final String POOL = "window-test";

    private static final int NODES = 70;
    /** The chart as the browser holds it: the rows sent, the row labels of the whole axis, the zoom. */
    private static final String STATE = "const el = document.getElementById('fleet-heatmap'), c = el.__chart;"
            + "if (!c || !el.__llLoaded) { return null; }"
            + "const o = c.getOption(), z = o.dataZoom[0];"
            + "return {first: el.__llLoaded.first, last: el.__llLoaded.last, labels: o.yAxis[0].data,"
            + " rows: o.series[0].data.map(d => (Array.isArray(d) ? d : d.value)[1]),"
            + " values: o.series[0].data.map(d => (Array.isArray(d) ? d : d.value)[2]),"
            + " zoomStart: z.startValue, zoomEnd: z.endValue};";

    @TestHTTPResource("/")
    URL root;

    private Browser browser;

    @BeforeEach
    void start() throws Exception {
        Browser.require();
        UiTestSupport.feedDemoData();
        feedPool();
        browser = new Browser(root);
    }

    @AfterEach
    void stop() {
        if (browser != null) {
            browser.close();
        }
    }

    /** {@link #NODES} nodes of 8 GPUs whose utilisation is the node's number: each row says which it is. */
    private static synchronized void feedPool() throws Exception {
        List<Event> events = new ArrayList<>();
        Instant now = Instant.now();
        for (int n = 0; n < NODES; n++) {
            String node = name(n);
            events.add(event(
                    node,
                    EventType.NODE_REGISTERED,
                    now,
                    new NodeData.Registered(
                            POOL, CapacityType.SPOT, "us-east-1c", "p5.48xlarge", 8, "aws:///us-east-1c/i-" + node)));
            events.add(event(node, EventType.NODE_READY, now, new NodeData.Ready()));
            for (int g = 0; g < 8; g++) {
                events.add(event(
                        node,
                        EventType.GPU_SAMPLE,
                        now,
                        new GpuData.Sample(
                                "GPU-" + node + "-" + g,
                                g,
                                "H100",
                                (double) n,
                                40960.0,
                                null,
                                50.0,
                                300.0,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null)));
            }
        }
        Arc.container()
                .instance(IngestGateway.class)
                .get()
                .submit(events)
                .toCompletableFuture()
                .get(60, TimeUnit.SECONDS);
        Arc.container().instance(ModelRuntime.class).get().barrier().get(30, TimeUnit.SECONDS);
        Arc.container().instance(DashboardData.class).get().refresh().get(30, TimeUnit.SECONDS);
    }

    private static Event event(String node, EventType type, Instant at, io.lifeline.domain.event.EventData data) {
        return new Event(UUID.randomUUID().toString(), "test://window", type, node, at, data);
    }

    private static String name(int n) {
        return String.format("%s-%03d", POOL, n);
    }

    @SuppressWarnings("unchecked")
    private java.util.Map<String, Object> state() {
        return (java.util.Map<String, Object>) browser.js(STATE);
    }

    private static int number(java.util.Map<String, Object> s, String key) {
        return ((Number) s.get(key)).intValue();
    }

    /** The rows sent are exactly {@code first..last}, each labelled at its place and carrying its own number. */
    @SuppressWarnings("unchecked")
    private static boolean shows(java.util.Map<String, Object> s, int first, int last) {
        List<String> labels = (List<String>) s.get("labels");
        List<Number> rows = (List<Number>) s.get("rows");
        List<Number> values = (List<Number>) s.get("values");
        if (labels.size() != NODES || rows.size() != (last - first + 1) * 8) {
            return false;
        }
        for (int i = 0; i < rows.size(); i++) {
            int r = rows.get(i).intValue();
            if (r < first || r > last || values.get(i).intValue() != r) {
                return false;
            }
        }
        for (int r = 0; r < NODES; r++) {
            if (!labels.get(r).equals(r >= first && r <= last ? name(r) : "")) {
                return false;
            }
        }
        return true;
    }

    /** Waits, and says what the browser holds if it does not come. */
    private void awaitState(java.util.function.BooleanSupplier condition) {
        try {
            browser.await(condition);
        } catch (org.openqa.selenium.TimeoutException e) {
            throw new AssertionError(
                    "the browser holds " + state() + ", announces '" + browser.text("fleet-focused") + "'", e);
        }
    }

    @Test
    void scrollingTheHeatMapBringsTheRowsOfTheNewWindow() {
        browser.signIn(TestTokens.operator());
        browser.open("fleet?pool=" + POOL + "&metric=utilisation");
        browser.await(() -> browser.chartDrawn("fleet-heatmap")
                && state() != null
                && number(state(), "zoomEnd") == FleetPresenter.VISIBLE_ROWS - 1);
        assertThat(shows(state(), 0, FleetPresenter.VISIBLE_ROWS - 1))
                .as("first window: %s", state())
                .isTrue();

        // The mouse wheel over the map moves its window down.
        new Actions(browser.driver)
                .scrollFromOrigin(
                        WheelInput.ScrollOrigin.fromElement(browser.driver.findElement(By.id("fleet-heatmap"))), 0, 400)
                .perform();
        browser.await(() -> number(state(), "zoomStart") > 0);
        awaitState(() -> {
            var s = state();
            return number(s, "first") == number(s, "zoomStart")
                    && shows(s, number(s, "zoomStart"), number(s, "zoomEnd"));
        });
        var scrolled = state();
        assertThat(number(scrolled, "last") - number(scrolled, "first")).isEqualTo(FleetPresenter.VISIBLE_ROWS - 1);

        // The keyboard goes to the last node, which was not sent: it is named once its rows arrive, and opens.
        browser.tabTo("fleet-heatmap", 40);
        new Actions(browser.driver)
                .keyDown(Keys.CONTROL)
                .sendKeys(Keys.END)
                .keyUp(Keys.CONTROL)
                .perform();
        String last = name(NODES - 1);
        awaitState(() -> browser.text("fleet-focused")
                .equals(last + ", GPU 7: " + (NODES - 1) + " % (node " + NODES + " of " + NODES + ")"));
        assertThat(shows(state(), NODES - FleetPresenter.VISIBLE_ROWS, NODES - 1))
                .as("last window: %s", state())
                .isTrue();
        browser.press(Keys.ENTER);
        browser.await(() -> browser.text("node-title").equals(last));
    }
}
