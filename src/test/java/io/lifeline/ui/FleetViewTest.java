package io.lifeline.ui;

import static com.github.mvysny.kaributesting.v10.LocatorJ._assertNone;
import static com.github.mvysny.kaributesting.v10.LocatorJ._find;
import static com.github.mvysny.kaributesting.v10.LocatorJ._get;
import static com.github.mvysny.kaributesting.v10.LocatorJ._setValue;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.mvysny.kaributesting.v10.GridKt;
import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.combobox.ComboBox;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.radiobutton.RadioButtonGroup;
import io.lifeline.security.identity.Role;
import io.quarkus.test.junit.QuarkusTest;
import java.util.Objects;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
class FleetViewTest {

    @BeforeEach
    void setUp() throws Exception {
        UiTestSupport.feedDemoData();
    }

    @AfterEach
    void tearDown() {
        UiTestSupport.tearDown();
    }

    private FleetView open(Role role) {
        UiTestSupport.setup(role);
        UI.getCurrent().navigate(FleetView.class);
        FleetView view = UiTestSupport.view(FleetView.class);
        UiTestSupport.await(() -> view.shown() != null && view.shown().nodes().size() >= 40);
        return view;
    }

    @Test
    void everyGpuIsOneCellOfOneChartGroupedByPoolAndZone() {
        FleetView view = open(Role.VIEWER);
        HeatMapModel m = view.shown();
        assertThat(m.columns()).isEqualTo(8);
        assertThat(m.groups())
                .extracting(HeatMapModel.Group::label)
                .contains("spot-p5 · us-east-1a", "ondemand-p4d · us-east-1b");
        assertThat(m.values().stream().filter(Objects::nonNull).count()).isGreaterThanOrEqualTo(300);
        assertThat(m.values().stream().filter(Objects::nonNull)).allMatch(v -> v >= 0 && v <= 2);
        String option = _get(EChart.class, s -> s.withId("fleet-heatmap")).option();
        assertThat(option).contains("\"type\":\"heatmap\"").contains(m.nodes().get(0));
    }

    @Test
    @SuppressWarnings("unchecked")
    void filtersByPoolAndSwitchesToUtilisation() {
        FleetView view = open(Role.VIEWER);
        ComboBox<String> pool = _get(ComboBox.class, s -> s.withId("fleet-pool"));
        _setValue(pool, "spot-p5");
        assertThat(view.shown().groups()).extracting(HeatMapModel.Group::label).containsExactly("spot-p5 · us-east-1a");
        RadioButtonGroup<HeatMapModel.Metric> metric = _get(RadioButtonGroup.class, s -> s.withId("fleet-metric"));
        _setValue(metric, HeatMapModel.Metric.UTILISATION);
        assertThat(view.shown().metric()).isEqualTo(HeatMapModel.Metric.UTILISATION);
        assertThat(view.shown().values().stream().filter(Objects::nonNull)).allMatch(v -> v >= 0 && v <= 100);
        assertThat(_get(EChart.class, s -> s.withId("fleet-heatmap")).option()).contains("Utilisation");
    }

    @Test
    @SuppressWarnings("unchecked")
    void filtersByJobToTheNodesHostingItsRanks() {
        FleetView view = open(Role.VIEWER);
        ComboBox<String> job = _get(ComboBox.class, s -> s.withId("fleet-job"));
        _setValue(job, UiTestSupport.JOB);
        assertThat(view.shown().nodes()).isNotEmpty().allMatch(n -> n.startsWith("spot-p5"));
        assertThat(view.shown().nodes().size()).isLessThanOrEqualTo(16);
    }

    @Test
    @SuppressWarnings("unchecked")
    void clickingACellOpensTheNodePanelWithItsGpusAndJobs() {
        FleetView view = open(Role.VIEWER);
        // The demo's pool: nodes other tests register (with fewer GPUs) may sort before its nodes.
        _setValue(_get(ComboBox.class, s -> s.withId("fleet-pool")), "spot-p5");
        String node = view.shown().nodes().get(2);
        assertThat(node).startsWith("spot-p5");
        _get(EChart.class, s -> s.withId("fleet-heatmap")).chartClicked("[0,2,0]", "Health");
        UiTestSupport.await(() -> view.panel().shown() != null);
        assertThat(view.panel().shown().detail().name()).isEqualTo(node);
        Grid<?> gpus = _get(Grid.class, s -> s.withId("node-gpus"));
        assertThat(GridKt._size(gpus)).isEqualTo(8);
        assertThat(_find(Button.class, s -> s.withId("node-drain"))).isEmpty();
    }

    @Test
    void aPastedLinkOpensTheSameFiltersAndNode() {
        UiTestSupport.setup(Role.VIEWER);
        UI.getCurrent()
                .navigate(
                        "fleet",
                        com.vaadin.flow.router.QueryParameters.fromString(
                                "pool=spot-p5&metric=utilisation&node=spot-p5-0000"));
        FleetView view = UiTestSupport.view(FleetView.class);
        UiTestSupport.await(() -> view.shown() != null
                && view.shown().metric() == HeatMapModel.Metric.UTILISATION
                && view.shown().groups().size() == 1
                && view.panel().shown() != null);
        assertThat(view.query().pool()).isEqualTo("spot-p5");
        assertThat(view.shown().groups()).extracting(HeatMapModel.Group::label).containsExactly("spot-p5 · us-east-1a");
        assertThat(view.panel().shown().detail().name()).isEqualTo("spot-p5-0000");
    }

    @Test
    void theHeatMapTakesTheKeyboardAndSaysHealthInWords() {
        FleetView view = open(Role.VIEWER);
        EChart chart = _get(EChart.class, s -> s.withId("fleet-heatmap"));
        assertThat(chart.getElement().getAttribute("aria-label"))
                .contains("Arrow keys")
                .contains("Enter opens the node");
        assertThat(_get(com.vaadin.flow.component.html.Div.class, s -> s.withId("fleet-focused"))
                        .getElement()
                        .getAttribute("aria-live"))
                .isEqualTo("polite");
        assertThat(_get(com.vaadin.flow.component.html.Div.class, s -> s.withId("fleet-legend"))
                        .getElement()
                        .getTextRecursively())
                .contains("healthy")
                .contains("degraded")
                .contains("failed");
        String node = view.shown().nodes().get(1);
        chart.chartActivated("[3,1,0]");
        UiTestSupport.await(() -> view.panel().shown() != null);
        assertThat(view.panel().shown().detail().name()).isEqualTo(node);
    }

    @Test
    void theChartIsSentTheRowsItsZoomBarAsksFor() throws Exception {
        FleetView view = open(Role.VIEWER);
        EChart chart = _get(EChart.class, s -> s.withId("fleet-heatmap"));
        HeatMapModel m = view.shown();
        var first = Charts.JSON.readTree(chart.option());
        assertThat(first.at("/llWindow/total").asInt()).isEqualTo(m.nodes().size());
        assertThat(first.at("/yAxis/data").size()).isEqualTo(Math.min(m.nodes().size(), FleetPresenter.VISIBLE_ROWS));
        // The browser reports rows 2 to 11 in view: the chart gets those rows, the click on one opens it.
        chart.zoomed(2, 11, false);
        var o = Charts.JSON.readTree(chart.option());
        assertThat(o.at("/llWindow/first").asInt()).isEqualTo(2);
        assertThat(o.at("/yAxis/data")).hasSize(10);
        assertThat(o.at("/yAxis/data/0").asText()).isEqualTo(m.nodes().get(2));
        assertThat(o.at("/yAxis/data/9").asText()).isEqualTo(m.nodes().get(11));
        assertThat(chart.option()).doesNotContain("\"" + m.nodes().get(0) + "\"");
        chart.chartClicked("[0,11,0]", "Health");
        UiTestSupport.await(() -> view.panel().shown() != null);
        assertThat(view.panel().shown().detail().name()).isEqualTo(m.nodes().get(11));
        // Another filter starts again at the top of its map.
        _setValue(_get(ComboBox.class, s -> s.withId("fleet-pool")), "spot-p5");
        assertThat(Charts.JSON.readTree(chart.option()).at("/llWindow/first").asInt())
                .isZero();
    }

    @Test
    void aViewerSeesNoNodeActions() {
        FleetView view = open(Role.VIEWER);
        view.openNode(view.shown().nodes().get(0));
        UiTestSupport.await(() -> view.panel().shown() != null);
        _assertNone(Button.class, s -> s.withId("node-drain"));
        _assertNone(Button.class, s -> s.withId("node-uncordon"));
    }

    @Test
    void anOperatorCanDrainAfterSeeingTheImpact() {
        FleetView view = open(Role.OPERATOR);
        String node = view.shown().nodes().get(0);
        view.openNode(node);
        UiTestSupport.await(() -> view.panel().shown() != null);
        com.github.mvysny.kaributesting.v10.LocatorJ._click(_get(Button.class, s -> s.withId("node-drain")));
        ActionDialog dialog = _get(ActionDialog.class);
        var impact = _get(com.vaadin.flow.component.html.Div.class, s -> s.withId("action-impact"));
        UiTestSupport.await(() -> dialog.shownImpact() != null
                || impact.getElement().getTextRecursively().contains("Refused"));
        assertThat(dialog.shownImpact())
                .as(impact.getElement().getTextRecursively())
                .isNotNull();
        assertThat(dialog.shownImpact().nodes()).contains(node);
    }
}
