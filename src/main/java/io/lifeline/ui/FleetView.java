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
import io.lifeline.ui.data.DashboardData;
import io.lifeline.ui.data.DashboardSnapshot;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Optional;

/**
 * Every GPU of the fleet as one cell of a single heat map (one chart, not one component per GPU, so 16,000 GPUs
 * stay light), coloured by health, utilisation or temperature, grouped by pool and zone, with filters; a click on a
 * cell opens the node's panel.
 */
@Route(value = "fleet", layout = MainLayout.class)
@PageTitle("Fleet · Lifeline")
public class FleetView extends VerticalLayout implements BeforeEnterObserver {

    private final DashboardData data;
    private final ModelReads reads;
    private final ComboBox<String> pool = new ComboBox<>("Pool");
    private final ComboBox<CapacityType> capacity = new ComboBox<>("Capacity");
    private final ComboBox<GpuHealth> health = new ComboBox<>("Node health");
    private final ComboBox<String> job = new ComboBox<>("Job");
    private final RadioButtonGroup<HeatMapModel.Metric> metric = new RadioButtonGroup<>("Colour by");
    private final EChart chart = new EChart("640px");
    private final Div groups = new Div();
    private final Span empty = new Span("No nodes match. Nodes appear once they register or report GPU telemetry.");
    private final NodePanel panel;
    private DashboardSnapshot snapshot = DashboardSnapshot.EMPTY;
    private HeatMapModel shown;
    private String openNode;

    @Inject
    public FleetView(DashboardData data, ModelReads reads, ActionsGateway actions) {
        this.data = data;
        this.reads = reads;
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
            c.addValueChangeListener(e -> render());
        }
        metric.addValueChangeListener(e -> render());
        chart.setId("fleet-heatmap");
        chart.onClick(this::cellClicked);
        groups.setId("fleet-groups");
        groups.addClassNames("ll-groups");
        empty.setId("fleet-empty");
        empty.addClassNames("ll-empty");
        panel = new NodePanel(actions, () -> openNode(null));
        panel.setVisible(false);
        HorizontalLayout filters = new HorizontalLayout(pool, capacity, health, job, metric);
        filters.setDefaultVerticalComponentAlignment(FlexComponent.Alignment.BASELINE);
        filters.addClassName("ll-wrap");
        Div body = new Div(new Div(groups, empty, chart), panel);
        body.addClassNames("ll-fleet-body");
        add(filters, body);
        Live.bind(this, data, s -> {
            snapshot = s;
            items(s);
            render();
            if (openNode != null) {
                loadNode(openNode);
            }
        });
    }

    @Override
    public void beforeEnter(BeforeEnterEvent event) {
        event.getLocation().getQueryParameters().getSingleParameter("node").ifPresent(this::openNode);
    }

    private void items(DashboardSnapshot s) {
        List<String> pools = FleetPresenter.pools(s);
        if (!pools.equals(pool.getListDataView().getItems().toList())) {
            String v = pool.getValue();
            pool.setItems(pools);
            pool.setValue(v != null && pools.contains(v) ? v : null);
        }
        List<String> jobs = s.jobs().stream().filter(j -> j.state().isActive()).map(io.lifeline.ui.data.JobRow::name).toList();
        if (!jobs.equals(job.getListDataView().getItems().toList())) {
            String v = job.getValue();
            job.setItems(jobs);
            job.setValue(v != null && jobs.contains(v) ? v : null);
        }
    }

    /** The filters as a query. */
    public FleetQuery query() {
        return new FleetQuery(pool.getValue(), capacity.getValue(), health.getValue(), job.getValue(),
                Optional.ofNullable(metric.getValue()).orElse(HeatMapModel.Metric.HEALTH));
    }

    private void render() {
        HeatMapModel m = FleetPresenter.heatMap(snapshot, query());
        if (m.equals(shown)) {
            return;
        }
        shown = m;
        empty.setVisible(m.nodes().isEmpty());
        chart.setVisible(!m.nodes().isEmpty());
        groups.removeAll();
        for (HeatMapModel.Group g : m.groups()) {
            groups.add(Ui.badge(g.label() + ": " + g.rows() + " nodes, " + g.gpus() + " GPUs"
                    + (g.unhealthy() == 0 ? "" : ", " + g.unhealthy() + " unhealthy"), g.unhealthy() == 0 ? "" : "error"));
        }
        chart.setOption(Charts.heatMap(m));
    }

    private void cellClicked(String valueJson) {
        try {
            var v = Charts.JSON.readTree(valueJson);
            int row = v.get(1).asInt();
            if (shown != null && row >= 0 && row < shown.nodes().size()) {
                openNode(shown.nodes().get(row));
            }
        } catch (java.io.IOException | RuntimeException e) {
            // Not a cell (a legend or the zoom bar): nothing to open.
        }
    }

    /** Opens (or, with null, closes) the node panel. */
    public void openNode(String node) {
        openNode = node;
        panel.setVisible(node != null);
        if (node != null) {
            loadNode(node);
        }
    }

    private void loadNode(String node) {
        UI ui = UI.getCurrent();
        reads.node(node).whenComplete((m, ex) -> {
            if (ui == null) {
                return;
            }
            try {
                ui.access(() -> {
                    if (!node.equals(openNode)) {
                        return;
                    }
                    if (ex != null || m.isEmpty()) {
                        panel.setVisible(false);
                        Notifications.error(ex != null ? "Could not read node " + node + ": " + ex.getMessage()
                                : "Node " + node + " is not known.");
                        openNode = null;
                    } else {
                        panel.show(m.get());
                    }
                });
            } catch (com.vaadin.flow.component.UIDetachedException e) {
                // The tab closed.
            }
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
