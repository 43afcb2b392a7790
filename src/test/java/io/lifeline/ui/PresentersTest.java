package io.lifeline.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.vaadin.flow.data.provider.QuerySortOrder;
import com.vaadin.flow.data.provider.SortDirection;
import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.fleet.NodeLifecycle;
import io.lifeline.domain.fleet.NodeSummary;
import io.lifeline.domain.gpu.GpuHealth;
import io.lifeline.domain.gpu.GpuView;
import io.lifeline.domain.job.JobState;
import io.lifeline.domain.job.goodput.GoodputView;
import io.lifeline.ui.data.DashboardSnapshot;
import io.lifeline.ui.data.JobRow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PresentersTest {

    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

    private static JobRow job(String name, JobState state, Long age, long objective, boolean breached, double lost) {
        return new JobRow(
                name,
                name.substring(0, name.indexOf('/')),
                state,
                16,
                8,
                32,
                age,
                objective,
                breached,
                0.9,
                lost,
                1,
                null,
                null,
                false,
                "spot",
                "spot");
    }

    @Test
    void jobsAreFilteredSortedAndPagedFromTheSharedList() {
        List<JobRow> jobs = List.of(
                job("a/one", JobState.RUNNING, 100L, 1000, false, 5),
                job("a/two", JobState.RECOVERING, 3000L, 1000, true, 1),
                job("b/three", JobState.RUNNING, 900L, 1000, false, 9));
        assertThat(JobsPresenter.filter(jobs, new JobsQuery("TW", null, null, false, false), List.of()))
                .extracting(JobRow::name)
                .containsExactly("a/two");
        assertThat(JobsPresenter.filter(jobs, new JobsQuery(null, JobState.RUNNING, "a", false, false), List.of()))
                .extracting(JobRow::name)
                .containsExactly("a/one");
        assertThat(JobsPresenter.filter(jobs, new JobsQuery(null, null, null, true, false), List.of()))
                .extracting(JobRow::name)
                .containsExactly("a/two");
        List<QuerySortOrder> byLost = List.of(new QuerySortOrder("lost", SortDirection.DESCENDING));
        assertThat(JobsPresenter.page(jobs, JobsQuery.all(), byLost, 1, 1))
                .extracting(JobRow::name)
                .containsExactly("a/one");
        assertThat(JobsPresenter.page(jobs, JobsQuery.all(), byLost, 5, 10)).isEmpty();
        assertThat(JobsPresenter.namespaces(jobs)).containsExactly("a", "b");
    }

    private static DashboardSnapshot fleet(int nodesPerPool) {
        List<NodeSummary> nodes = new ArrayList<>();
        Map<String, List<GpuView>> gpus = new HashMap<>();
        for (String pool : List.of("p1", "p2")) {
            for (int n = 0; n < nodesPerPool; n++) {
                String name = pool + "-" + n;
                GpuHealth worst = n == 0 && pool.equals("p2") ? GpuHealth.FAILED : GpuHealth.HEALTHY;
                nodes.add(new NodeSummary(
                        name,
                        pool,
                        pool.equals("p1") ? CapacityType.SPOT : CapacityType.ON_DEMAND,
                        "z1",
                        "p5",
                        8,
                        NodeLifecycle.READY,
                        NOW,
                        false,
                        false,
                        false,
                        worst,
                        0));
                List<GpuView> list = new ArrayList<>();
                for (int g = 0; g < 8; g++) {
                    GpuHealth h = g == 3 ? worst : GpuHealth.HEALTHY;
                    list.add(new GpuView(
                            name,
                            "GPU-" + name + "-" + g,
                            g,
                            "H100",
                            NOW,
                            50.0 + g,
                            1.0,
                            1.0,
                            60.0,
                            300.0,
                            0L,
                            0L,
                            0L,
                            0L,
                            0,
                            null,
                            null,
                            h,
                            null,
                            null,
                            null));
                }
                gpus.put(name, list);
            }
        }
        return new DashboardSnapshot(
                NOW,
                nodes,
                gpus,
                Map.of("p1-1", List.of("ns/job")),
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                GoodputView.EMPTY,
                List.of(),
                1);
    }

    @Test
    void theHeatMapHasOneCellPerGpuGroupedByPoolAndZone() {
        HeatMapModel m = FleetPresenter.heatMap(fleet(1000), FleetQuery.all());
        assertThat(m.nodes()).hasSize(2000);
        assertThat(m.columns()).isEqualTo(8);
        assertThat(m.values()).hasSize(16_000).doesNotContainNull();
        assertThat(m.groups()).extracting(HeatMapModel.Group::label).containsExactly("p1 · z1", "p2 · z1");
        assertThat(m.groups().get(1).unhealthy()).isEqualTo(1);
        assertThat(m.value(1000, 3)).isEqualTo(2.0);
        String option = Charts.heatMap(m);
        assertThat(option).contains("\"dataZoom\"").contains("\"piecewise\"");
    }

    @Test
    void theChartIsSentOnlyTheRowsOfItsWindowAtTheirPlacesInTheWholeMap() throws Exception {
        HeatMapModel m = FleetPresenter.heatMap(fleet(1000), FleetQuery.all());
        HeatMapModel.Window first = FleetPresenter.window(m);
        assertThat(first.first()).isZero();
        assertThat(first.rows()).isEqualTo(FleetPresenter.VISIBLE_ROWS);
        assertThat(first.total()).isEqualTo(2000);

        HeatMapModel.Window w = FleetPresenter.window(m, 995, 1034);
        assertThat(w.nodes()).hasSize(40).startsWith("p1-995").contains("p2-0").endsWith("p2-34");
        var o = Charts.JSON.readTree(Charts.heatMap(w));
        assertThat(o.at("/llWindow/first").asInt()).isEqualTo(995);
        assertThat(o.at("/llWindow/total").asInt()).isEqualTo(2000);
        assertThat(o.at("/yAxis/data")).hasSize(40);
        assertThat(o.at("/yAxis/data/0").asText()).isEqualTo("p1-995");
        assertThat(o.at("/dataZoom/0/startValue").asInt()).isEqualTo(995);
        assertThat(o.at("/dataZoom/0/endValue").asInt()).isEqualTo(1034);
        var cells = o.at("/series/0/data");
        assertThat(cells).hasSize(40 * 8);
        java.util.Set<Integer> rows = new java.util.TreeSet<>();
        for (var cell : cells) {
            var v = cell.isArray() ? cell : cell.get("value");
            rows.add(v.get(1).asInt());
            assertThat(v.get(2).asDouble())
                    .isEqualTo(m.value(v.get(1).asInt(), v.get(0).asInt()));
        }
        assertThat(rows).hasSize(40).first().isEqualTo(995);
        assertThat(rows).last().isEqualTo(1034);
        // The failed GPU of p2-0 (row 1000) keeps its glyph.
        assertThat(Charts.heatMap(w)).contains("\"value\":[3,1000,2.0]").contains("\"formatter\":\"✕\"");
    }

    @Test
    void aWindowStaysInsideTheMapAndKeepsItsHeight() {
        HeatMapModel m = FleetPresenter.heatMap(fleet(50), FleetQuery.all());
        assertThat(FleetPresenter.window(m, 90, 129))
                .extracting(HeatMapModel.Window::first, HeatMapModel.Window::rows)
                .containsExactly(60, 40);
        assertThat(FleetPresenter.window(m, -5, 34))
                .extracting(HeatMapModel.Window::first, HeatMapModel.Window::rows)
                .containsExactly(0, 40);
        // Zoomed out to the whole map: every row.
        assertThat(FleetPresenter.window(m, 0, 99).rows()).isEqualTo(100);
        HeatMapModel small = FleetPresenter.heatMap(fleet(3), FleetQuery.all());
        HeatMapModel.Window all = FleetPresenter.window(small, 20, 59);
        assertThat(all)
                .extracting(HeatMapModel.Window::first, HeatMapModel.Window::rows)
                .containsExactly(0, 6);
        assertThat(Charts.heatMap(all)).contains("\"dataZoom\":[]");
        HeatMapModel none = FleetPresenter.heatMap(fleet(0), FleetQuery.all());
        assertThat(FleetPresenter.window(none).rows()).isZero();
        assertThat(Charts.heatMap(none)).contains("\"data\":[]");
    }

    @Test
    void heatMapFiltersAndMetrics() {
        DashboardSnapshot s = fleet(3);
        assertThat(FleetPresenter.heatMap(
                                s, new FleetQuery(null, CapacityType.ON_DEMAND, null, null, HeatMapModel.Metric.HEALTH))
                        .nodes())
                .containsExactly("p2-0", "p2-1", "p2-2");
        assertThat(FleetPresenter.heatMap(
                                s, new FleetQuery(null, null, GpuHealth.FAILED, null, HeatMapModel.Metric.HEALTH))
                        .nodes())
                .containsExactly("p2-0");
        assertThat(FleetPresenter.heatMap(s, new FleetQuery(null, null, null, "ns/job", HeatMapModel.Metric.HEALTH))
                        .nodes())
                .containsExactly("p1-1");
        HeatMapModel util =
                FleetPresenter.heatMap(s, new FleetQuery("p1", null, null, null, HeatMapModel.Metric.UTILISATION));
        assertThat(util.value(0, 7)).isEqualTo(57.0);
        assertThat(Charts.heatMap(util)).contains("\"continuous\"");
    }
}
