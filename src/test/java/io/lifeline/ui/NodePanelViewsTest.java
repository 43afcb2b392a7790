package io.lifeline.ui;

import static com.github.mvysny.kaributesting.v10.LocatorJ._find;
import static com.github.mvysny.kaributesting.v10.LocatorJ._get;
import static com.github.mvysny.kaributesting.v10.LocatorJ._setValue;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.mvysny.kaributesting.v10.GridKt;
import com.vaadin.flow.component.Component;
import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.combobox.ComboBox;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.router.QueryParameters;
import io.lifeline.domain.gpu.GpuView;
import io.lifeline.security.identity.Role;
import io.lifeline.testing.CloudEvents;
import io.lifeline.testing.TestTokens;
import io.lifeline.ui.data.DashboardData;
import io.quarkus.arc.Arc;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The node panel and the heat map's groups: a terminated node's GPUs are gone and it offers no drain or uncordon; a
 * registered node whose telemetry has not arrived counts its registered GPUs.
 */
@QuarkusTest
class NodePanelViewsTest {

    private final Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    private final String id = CloudEvents.uniqueId().substring(0, 8);
    private final String gone = "gone-" + id;
    private final String live = "live-" + id;
    private final String quiet = "quiet-" + id;

    @BeforeEach
    void setUp() throws Exception {
        UiTestSupport.feedDemoData();
        String data = "{\"pool\":\"panel-pool-" + id + "\",\"capacityType\":\"spot\",\"gpuCount\":8}";
        List<String> events = new ArrayList<>();
        for (String node : List.of(gone, live)) {
            events.add(CloudEvents.event(
                    CloudEvents.uniqueId(), "test/k8s", "node.registered", node, now.minusSeconds(900), data));
            events.add(CloudEvents.event(
                    CloudEvents.uniqueId(), "test/k8s", "node.ready", node, now.minusSeconds(890), "{}"));
            for (int i = 0; i < 2; i++) {
                events.add(CloudEvents.event(
                        CloudEvents.uniqueId(),
                        "dcgm/" + node,
                        "gpu.sample",
                        node,
                        now.minusSeconds(600),
                        "{\"uuid\":\"GPU-" + node + "-" + i + "\",\"index\":" + i + ",\"utilizationPercent\":97.0,"
                                + "\"temperatureCelsius\":60.0}"));
            }
        }
        events.add(CloudEvents.event(
                CloudEvents.uniqueId(),
                "test/k8s",
                "node.registered",
                quiet,
                now.minusSeconds(900),
                "{\"pool\":\"quiet-pool-" + id + "\",\"capacityType\":\"spot\",\"gpuCount\":8}"));
        events.add(CloudEvents.event(
                CloudEvents.uniqueId(),
                "test/k8s",
                "node.terminated",
                gone,
                now.minusSeconds(300),
                "{\"reason\":\"spot instance reclaimed\"}"));
        TestTokens.api()
                .contentType("application/cloudevents-batch+json")
                .body(CloudEvents.array(events))
                .post("/api/v1/events")
                .then()
                .statusCode(200);
        Arc.container().instance(DashboardData.class).get().refresh().get(30, TimeUnit.SECONDS);
        UiTestSupport.setup(Role.OPERATOR);
    }

    @AfterEach
    void tearDown() {
        UiTestSupport.tearDown();
    }

    private FleetView open(String node) {
        UI.getCurrent().navigate("fleet", QueryParameters.fromString("node=" + node));
        FleetView view = UiTestSupport.view(FleetView.class);
        UiTestSupport.await(() -> view.panel().shown() != null
                && view.panel().shown().detail().name().equals(node));
        return view;
    }

    private static String row(Grid<GpuView> grid, int row) {
        return String.join(" | ", GridKt._getFormattedRow(grid, row));
    }

    @Test
    @SuppressWarnings("unchecked")
    void aTerminatedNodeShowsItsGpusGoneAndOffersNoAction() {
        FleetView view = open(gone);

        assertThat(view.panel().shown().detail().terminated()).isTrue();
        Grid<GpuView> gpus = _get(Grid.class, s -> s.withId("node-gpus"));
        assertThat(GridKt._size(gpus)).isEqualTo(2);
        for (int row = 0; row < 2; row++) {
            assertThat(row(gpus, row))
                    .as("GPU row %d", row)
                    .contains("gone")
                    .doesNotContain("healthy")
                    .doesNotContain("97 %");
        }
        assertThat(_get(Div.class, s -> s.withId("node-facts")).getElement().getTextRecursively())
                .contains("GPUs gone")
                .doesNotContain("healthy");
        assertThat(_find(Button.class, s -> s.withId("node-drain"))).noneMatch(Component::isVisible);
        assertThat(_find(Button.class, s -> s.withId("node-uncordon"))).noneMatch(Component::isVisible);
        assertThat(_get(Div.class, s -> s.withId("node-no-action")).getElement().getTextRecursively())
                .contains("Terminated");

        // The same panel, moved to a live node, offers both again.
        view.openNode(live);
        UiTestSupport.await(() -> view.panel().shown().detail().name().equals(live));
        assertThat(row(gpus, 0)).contains("healthy").contains("97 %");
        assertThat(_get(Button.class, s -> s.withId("node-drain")).isVisible()).isTrue();
        assertThat(_get(Button.class, s -> s.withId("node-uncordon")).isVisible())
                .isTrue();
        assertThat(_find(Div.class, s -> s.withId("node-no-action"))).noneMatch(Component::isVisible);
    }

    @Test
    @SuppressWarnings("unchecked")
    void aRegisteredNodeWithoutTelemetryCountsItsRegisteredGpus() {
        FleetView view = open(quiet);

        assertThat(view.panel().shown().detail().gpuCount()).isEqualTo(8);
        assertThat(_get(Div.class, s -> s.withId("node-facts")).getElement().getTextRecursively())
                .contains("8 GPUs");
        Grid<GpuView> gpus = _get(Grid.class, s -> s.withId("node-gpus"));
        assertThat(GridKt._size(gpus)).isZero();
        assertThat(gpus.getEmptyStateText()).contains("8 GPUs");
        _setValue(_get(ComboBox.class, s -> s.withId("fleet-pool")), "quiet-pool-" + id);
        UiTestSupport.await(
                () -> view.shown().groups().size() == 1 && view.shown().nodes().equals(List.of(quiet)));
        assertThat(view.shown().groups().get(0).gpus()).isEqualTo(8);
        assertThat(view.shown().columns()).isEqualTo(8);
    }
}
