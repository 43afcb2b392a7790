package io.lifeline.ui;

import io.lifeline.domain.fleet.NodeLifecycle;
import io.lifeline.domain.fleet.NodeSummary;
import io.lifeline.domain.gpu.GpuHealth;
import io.lifeline.domain.gpu.GpuView;
import io.lifeline.ui.data.DashboardSnapshot;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/** Derives the heat map from a snapshot: filters nodes, groups them by pool and zone, picks each GPU's value. */
public final class FleetPresenter {

    /** Rows the heat map shows at once (its 640 px height); the chart is sent this many rows at first. */
    public static final int VISIBLE_ROWS = 40;

    private FleetPresenter() {}

    /** The first rows of the map, as the view opens. */
    public static HeatMapModel.Window window(HeatMapModel m) {
        return window(m, 0, VISIBLE_ROWS - 1);
    }

    /**
     * The rows {@code from} to {@code to} (inclusive) of the map, as its zoom bar asks for them: kept inside the map
     * and, near its end, moved up so that it keeps its height (the map may have shrunk since the browser asked).
     */
    public static HeatMapModel.Window window(HeatMapModel m, int from, int to) {
        int total = m.nodes().size();
        int rows = Math.max(1, Math.min(to - from + 1, total));
        if (total == 0) {
            return new HeatMapModel.Window(m, 0, 0);
        }
        int first = Math.max(0, Math.min(from, total - rows));
        return new HeatMapModel.Window(m, first, rows);
    }

    public static HeatMapModel heatMap(DashboardSnapshot s, FleetQuery q) {
        List<NodeSummary> shown = new ArrayList<>();
        int columns = 0;
        for (NodeSummary n : s.nodes()) {
            if (matches(n, q, s)) {
                shown.add(n);
                columns = Math.max(
                        columns,
                        Math.max(
                                n.gpuCount(),
                                s.gpusByNode().getOrDefault(n.name(), List.of()).size()));
            }
        }
        Double[] values = new Double[shown.size() * columns];
        List<String> names = new ArrayList<>(shown.size());
        List<HeatMapModel.Group> groups = new ArrayList<>();
        String group = null;
        int first = 0;
        int gpus = 0;
        int unhealthy = 0;
        for (int row = 0; row < shown.size(); row++) {
            NodeSummary n = shown.get(row);
            String label = Objects.toString(n.pool(), "unregistered") + " · " + Objects.toString(n.zone(), "no zone");
            if (!label.equals(group)) {
                if (group != null) {
                    groups.add(new HeatMapModel.Group(group, first, row - first, gpus, unhealthy));
                }
                group = label;
                first = row;
                gpus = 0;
                unhealthy = 0;
            }
            names.add(n.name());
            // Counted from the node, not from its telemetry: registered GPUs that have not reported yet count too.
            gpus += n.gpuCount();
            for (GpuView g : s.gpusByNode().getOrDefault(n.name(), List.of())) {
                if (g.index() >= 0 && g.index() < columns) {
                    values[row * columns + g.index()] = value(g, q.metric());
                    unhealthy += g.health() == GpuHealth.HEALTHY ? 0 : 1;
                }
            }
        }
        if (group != null) {
            groups.add(new HeatMapModel.Group(group, first, shown.size() - first, gpus, unhealthy));
        }
        return new HeatMapModel(
                q.metric(),
                List.copyOf(names),
                List.copyOf(groups),
                columns,
                java.util.Collections.unmodifiableList(Arrays.asList(values)));
    }

    static boolean matches(NodeSummary n, FleetQuery q, DashboardSnapshot s) {
        return (q.pool() == null || q.pool().equals(n.pool()))
                && (q.capacityType() == null || q.capacityType() == n.capacityType())
                && (q.health() == null || q.health() == n.health())
                && (q.job() == null
                        || s.jobsByNode().getOrDefault(n.name(), List.of()).contains(q.job()))
                && n.state() != NodeLifecycle.TERMINATED;
    }

    static Double value(GpuView g, HeatMapModel.Metric m) {
        switch (m) {
            case UTILISATION:
                return g.utilizationPercent();
            case TEMPERATURE:
                return g.temperatureCelsius();
            default:
                return (double) g.health().ordinal();
        }
    }

    /** The pools present, sorted. */
    public static List<String> pools(DashboardSnapshot s) {
        TreeSet<String> p = new TreeSet<>();
        s.nodes().forEach(n -> {
            if (n.pool() != null) {
                p.add(n.pool());
            }
        });
        return List.copyOf(p);
    }
}
