package io.lifeline.ui;

import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.combobox.ComboBox;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.orderedlayout.FlexComponent;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.component.radiobutton.RadioButtonGroup;
import com.vaadin.flow.router.BeforeEnterEvent;
import com.vaadin.flow.router.BeforeEnterObserver;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.gpu.GpuHealth;
import io.lifeline.policy.ColocationService;
import io.lifeline.ui.data.DashboardData;
import io.lifeline.ui.data.DashboardSnapshot;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every GPU of the fleet as one cell of a single heat map (one chart, not one component per GPU, so 16,000 GPUs
 * stay light; the browser is sent only the rows its zoom bar shows, and asks for others as it moves), coloured by
 * health, utilisation or temperature, grouped by pool and zone, with filters; a click on a cell opens the node's
 * panel. The map is keyboard-operable (arrow keys, Enter; a live region names the focused GPU) and health is never
 * colour alone (glyphs on the cells, words in the tooltip and the legend). The filters and the open node live in the
 * URL ({@code ?pool=&capacity=&health=&job=&metric=&node=}), so a pasted link opens the same view.
 */
@Route(value = "fleet", layout = MainLayout.class)
@PageTitle("Fleet · Lifeline")
public class FleetView extends VerticalLayout implements BeforeEnterObserver {

    private final ModelReads reads;
    private final ComboBox<String> pool = new ComboBox<>("Pool");
    private final ComboBox<CapacityType> capacity = new ComboBox<>("Capacity");
    private final ComboBox<GpuHealth> health = new ComboBox<>("Node health");
    private final ComboBox<String> job = new ComboBox<>("Job");
    private final RadioButtonGroup<HeatMapModel.Metric> metric = new RadioButtonGroup<>("Colour by");
    private final EChart chart = new EChart("640px");
    private final Div groups = new Div();
    private final Span empty = new Span("No nodes match. Nodes appear once they register or report GPU telemetry.");
    private final Div legend = new Div();
    private final Div focused = new Div();
    private final NodePanel panel;
    private String wantPool;
    private String wantJob;
    private boolean restoring;
    private DashboardSnapshot snapshot = DashboardSnapshot.EMPTY;
    private HeatMapModel shown;
    /** The rows the browser shows (asked for by its zoom bar), and the filters they were asked under. */
    private int windowFrom;

    private int windowTo = FleetPresenter.VISIBLE_ROWS - 1;
    private FleetQuery windowQuery;
    private String openNode;
    private final ColocationGateway colocation;
    private final com.vaadin.flow.component.grid.Grid<ColocationService.PoolView> lending =
            new com.vaadin.flow.component.grid.Grid<>();
    private final FleetStragglers stragglers = new FleetStragglers();
    private boolean focusPanel;

    /** Reads the co-location pools off the UI thread. */
    @SuppressWarnings("FutureReturnValueIgnored") // the callback handles both outcomes
    private void loadLending() {
        UI ui = UI.getCurrent();
        if (ui == null) {
            return;
        }
        colocation.status(UiSession.scope()).whenComplete((st, ex) -> {
            if (ex == null && st != null) {
                ui.access(() ->
                        lending.setItems(st.map(ColocationService.Status::pools).orElse(List.of())));
            }
        });
    }

    private static List<String> reasons(ColocationService.PoolView v) {
        List<String> out = new java.util.ArrayList<>();
        v.windowsOpen().forEach(w -> out.add("window " + w));
        v.triggersActive().forEach(t -> out.add("demand " + t));
        return out;
    }

    @Inject
    public FleetView(DashboardData data, ModelReads reads, ActionsGateway actions, ColocationGateway colocation) {
        this.reads = reads;
        this.colocation = colocation;
        addClassName("ll-page");
        pool.setId("fleet-pool");
        capacity.setId("fleet-capacity");
        capacity.setItems(CapacityType.values());
        capacity.setItemLabelGenerator(Format::words);
        health.setId("fleet-health");
        health.setItems(GpuHealth.values());
        health.setItemLabelGenerator(Format::words);
        job.setId("fleet-job");
        metric.setId("fleet-metric");
        metric.setItems(HeatMapModel.Metric.values());
        metric.setItemLabelGenerator(HeatMapModel.Metric::label);
        metric.setValue(HeatMapModel.Metric.HEALTH);
        for (ComboBox<?> c : List.of(pool, capacity, health, job)) {
            c.setClearButtonVisible(true);
            c.addValueChangeListener(e -> {
                render();
                if (e.isFromClient()) {
                    remember();
                }
            });
        }
        metric.addValueChangeListener(e -> {
            render();
            if (e.isFromClient()) {
                remember();
            }
        });
        chart.setId("fleet-heatmap");
        chart.onClick(v -> cellClicked(v, false));
        chart.onActivate(v -> cellClicked(v, true));
        chart.onZoom((from, to, whole) -> {
            windowFrom = (int) from;
            windowTo = (int) to;
            drawWindow();
        });
        legend.setId("fleet-legend");
        legend.addClassName("ll-heat-legend");
        focused.setId("fleet-focused");
        focused.addClassName("ll-focused-gpu");
        focused.getElement().setAttribute("aria-live", "polite");
        focused.getElement().setAttribute("aria-atomic", "true");
        groups.setId("fleet-groups");
        groups.addClassNames("ll-groups");
        empty.setId("fleet-empty");
        empty.addClassNames("ll-empty");
        panel = new NodePanel(actions, () -> {
            openNode(null);
            // Back where the person was: the heat map, its focused cell kept.
            chart.getElement().executeJs("this.focus()");
        });
        panel.setVisible(false);
        HorizontalLayout filters = new HorizontalLayout(pool, capacity, health, job, metric);
        filters.setDefaultVerticalComponentAlignment(FlexComponent.Alignment.BASELINE);
        filters.addClassName("ll-wrap");
        Div body = new Div(new Div(groups, legend, empty, focused, chart), panel);
        body.addClassNames("ll-fleet-body");
        lending.setId("fleet-colocation");
        lending.setAllRowsVisible(true);
        lending.setEmptyStateText("No pool has a co-location window or demand trigger.");
        lending.addColumn(ColocationService.PoolView::pool).setHeader("Pool").setAutoWidth(true);
        lending.addColumn(v -> v.lending() ? "lending: " + String.join(", ", reasons(v)) : "training at full size")
                .setHeader("Now")
                .setFlexGrow(1);
        lending.addColumn(v -> v.cost().gpusLentNow() + " GPUs (" + v.cost().jobsLendingNow() + " jobs)")
                .setHeader("Lent to inference")
                .setAutoWidth(true);
        lending.addColumn(v -> Format.gpuHours(v.cost().gpuHoursYielded()))
                .setHeader("GPU-hours yielded")
                .setAutoWidth(true);
        lending.addColumn(v -> Format.gpuHours(v.cost().reworkGpuHours()))
                .setHeader("Rework lost")
                .setAutoWidth(true);
        add(
                Ui.title("Fleet"),
                filters,
                body,
                Ui.section("Co-location: GPUs lent to inference", lending),
                Ui.section("Stragglers", stragglers));
        Live.bind(this, data, s -> {
            loadLending();
            snapshot = s;
            stragglers.show(s.jobs());
            items(s);
            render();
            if (openNode != null) {
                loadNode(openNode);
            }
        });
    }

    /** Restores the filters and the open node from the URL. */
    @Override
    public void beforeEnter(BeforeEnterEvent event) {
        Map<String, List<String>> p = event.getLocation().getQueryParameters().getParameters();
        restoring = true;
        try {
            capacity.setValue(UrlState.enumValue(p, "capacity", CapacityType.class));
            health.setValue(UrlState.enumValue(p, "health", GpuHealth.class));
            HeatMapModel.Metric m = UrlState.enumValue(p, "metric", HeatMapModel.Metric.class);
            metric.setValue(m == null ? HeatMapModel.Metric.HEALTH : m);
            wantPool = UrlState.single(p, "pool");
            wantJob = UrlState.single(p, "job");
            items(snapshot);
        } finally {
            restoring = false;
        }
        String node = UrlState.single(p, "node");
        if (node != null) {
            openNode(node);
        }
    }

    private void items(DashboardSnapshot s) {
        List<String> pools = FleetPresenter.pools(s);
        if (!pools.equals(pool.getListDataView().getItems().toList())) {
            String v = pool.getValue();
            pool.setItems(pools);
            pool.setValue(v != null && pools.contains(v) ? v : null);
        }
        if (wantPool != null && pools.contains(wantPool)) {
            pool.setValue(wantPool);
            wantPool = null;
        }
        List<String> jobs = s.jobs().stream()
                .filter(j -> j.state().isActive())
                .map(io.lifeline.ui.data.JobRow::name)
                .toList();
        if (!jobs.equals(job.getListDataView().getItems().toList())) {
            String v = job.getValue();
            job.setItems(jobs);
            job.setValue(v != null && jobs.contains(v) ? v : null);
        }
        if (wantJob != null && jobs.contains(wantJob)) {
            job.setValue(wantJob);
            wantJob = null;
        }
    }

    /** Puts the filters and the open node in the URL (replacing the history entry: filtering is not navigating). */
    private void remember() {
        if (restoring) {
            return;
        }
        Map<String, String> p = new LinkedHashMap<>();
        p.put("pool", pool.getValue() != null ? pool.getValue() : wantPool);
        p.put("capacity", UrlState.wire(capacity.getValue()));
        p.put("health", UrlState.wire(health.getValue()));
        p.put("job", job.getValue() != null ? job.getValue() : wantJob);
        HeatMapModel.Metric m = metric.getValue();
        p.put("metric", m == null || m == HeatMapModel.Metric.HEALTH ? null : UrlState.wire(m));
        p.put("node", openNode);
        UrlState.replace("fleet", p);
    }

    /** The filters as a query. */
    public FleetQuery query() {
        return new FleetQuery(
                pool.getValue(),
                capacity.getValue(),
                health.getValue(),
                job.getValue(),
                Optional.ofNullable(metric.getValue()).orElse(HeatMapModel.Metric.HEALTH));
    }

    private void render() {
        FleetQuery q = query();
        if (!q.equals(windowQuery)) {
            // Other filters, another map: back to its top.
            windowQuery = q;
            windowFrom = 0;
            windowTo = FleetPresenter.VISIBLE_ROWS - 1;
        }
        HeatMapModel m = FleetPresenter.heatMap(snapshot, q);
        if (m.equals(shown)) {
            return;
        }
        shown = m;
        empty.setVisible(m.nodes().isEmpty());
        chart.setVisible(!m.nodes().isEmpty());
        legend.removeAll();
        if (m.metric() == HeatMapModel.Metric.HEALTH) {
            legend.add(new Span("GPU health:"));
            for (int i = 0; i < Charts.HEALTH_WORDS.size(); i++) {
                Span swatch = new Span(Charts.HEALTH_GLYPHS.get(i));
                swatch.addClassName("ll-heat-swatch");
                swatch.getStyle()
                        .set("background", Charts.HEALTH_COLOURS.get(i))
                        .set("color", Charts.HEALTH_GLYPH_COLOURS.get(i));
                swatch.getElement().setAttribute("aria-hidden", "true");
                Span item = new Span(swatch, new Span(Charts.HEALTH_WORDS.get(i)));
                legend.add(item);
            }
        } else {
            legend.add(new Span(
                    m.metric().label() + ": lighter cells are lower, darker cells higher (scale below the map)."));
        }
        legend.setVisible(!m.nodes().isEmpty());
        boolean isHealth = m.metric() == HeatMapModel.Metric.HEALTH;
        chart.setKeyboardGrid(
                "GPU heat map, " + m.nodes().size() + " nodes by " + m.columns() + " GPUs, coloured by "
                        + m.metric().label().toLowerCase(java.util.Locale.ROOT)
                        + ". Arrow keys move between GPUs, Page Up and Page Down by ten nodes, Enter opens the node.",
                "fleet-focused",
                isHealth ? Charts.HEALTH_WORDS : null,
                m.metric() == HeatMapModel.Metric.UTILISATION ? " %" : " °C");
        groups.removeAll();
        for (HeatMapModel.Group g : m.groups()) {
            groups.add(Ui.badge(
                    g.label() + ": " + g.rows() + " nodes, " + g.gpus() + " GPUs"
                            + (g.unhealthy() == 0 ? "" : ", " + g.unhealthy() + " unhealthy"),
                    g.unhealthy() == 0 ? "" : "error"));
        }
        drawWindow();
    }

    /** Sends the chart the rows of its window only (a live update or a zoom: the same few rows' worth). */
    private void drawWindow() {
        if (shown != null) {
            chart.setOption(Charts.heatMap(FleetPresenter.window(shown, windowFrom, windowTo)));
        }
    }

    private void cellClicked(String valueJson, boolean keyboard) {
        try {
            var v = Charts.JSON.readTree(valueJson);
            int row = v.get(1).asInt();
            if (shown != null && row >= 0 && row < shown.nodes().size()) {
                openNode(shown.nodes().get(row));
                remember();
                if (keyboard) {
                    focusPanel = true;
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            // Not a cell (a legend or the zoom bar): nothing to open.
        }
    }

    /** Opens (or, with null, closes) the node panel. */
    public void openNode(String node) {
        boolean changed = !java.util.Objects.equals(node, openNode);
        openNode = node;
        panel.setVisible(node != null);
        if (node != null) {
            loadNode(node);
        }
        if (changed && UI.getCurrent() != null) {
            remember();
        }
    }

    @SuppressWarnings("FutureReturnValueIgnored") // the callback handles both outcomes
    private void loadNode(String node) {
        UI ui = UI.getCurrent();
        reads.node(UiSession.scope(), node).whenComplete((m, ex) -> {
            if (ui == null) {
                return;
            }
            Ui.access(ui, () -> {
                if (!node.equals(openNode)) {
                    return;
                }
                if (ex != null || m.isEmpty()) {
                    panel.setVisible(false);
                    Notifications.error(
                            ex != null
                                    ? "Could not read node " + node + ": " + ex.getMessage()
                                    : "Node " + node + " is not known.");
                    openNode = null;
                    focusPanel = false;
                    remember();
                } else {
                    panel.show(m.get());
                    if (focusPanel) {
                        focusPanel = false;
                        panel.focusTitle();
                    }
                }
            });
        });
    }

    /** What the heat map shows, for tests. */
    public HeatMapModel shown() {
        return shown;
    }

    public NodePanel panel() {
        return panel;
    }
}
