package io.lifeline.ui;

import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.data.renderer.ComponentRenderer;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import com.vaadin.flow.router.RouteAlias;
import io.lifeline.action.view.ActionQuery;
import io.lifeline.domain.action.ActionState;
import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.policy.NoticePolicyGain;
import io.lifeline.security.identity.Caller;
import io.lifeline.ui.data.DashboardData;
import io.lifeline.ui.data.EttrHistory;
import io.lifeline.ui.data.JobRow;
import jakarta.inject.Inject;
import java.time.Instant;

/** The page operators keep open: fleet ETTR, open incidents, what interruptions cost, jobs and nodes at risk. */
@Route(value = "", layout = MainLayout.class)
@RouteAlias(value = "overview", layout = MainLayout.class)
@PageTitle("Overview · Lifeline")
public class OverviewView extends VerticalLayout {

    private final ActionsGateway actions;
    private final Div kpis = new Div();
    private final Span gainFigure = new Span();
    private final Span gainWorth = new Span();
    private final Span gainCaption = new Span();
    private final EChart causes = new EChart("280px");
    private final Span causesEmpty = new Span("No interruptions in the last 7 days.");
    private final Grid<IncidentView> incidents = new Grid<>();
    private final Grid<JobRow> breaching = new Grid<>();
    private final Grid<OverviewModel.NodeAtRisk> nodes = new Grid<>();
    private final Span status = new Span("Loading…");
    private OverviewModel shown;
    private String inFlight = "…";
    private long inFlightAt;

    @Inject
    public OverviewView(DashboardData data, ActionsGateway actions, NoticePolicyGain gain) {
        this.actions = actions;
        addClassName("ll-page");
        kpis.addClassNames("ll-kpis");
        kpis.setId("kpis");
        causes.setId("causes-chart");
        status.setId("status");
        status.addClassNames("ll-muted");
        incidents.setId("open-incidents");
        incidents.addColumn(IncidentView::job).setHeader("Job").setAutoWidth(true);
        incidents.addColumn(i -> Format.words(i.cause())).setHeader("Cause").setAutoWidth(true);
        incidents
                .addColumn(i -> Format.ago(i.openedAt(), shown == null ? Instant.now() : shown.at()))
                .setHeader("Opened");
        incidents
                .addColumn(i -> i.phases().isEmpty()
                        ? "—"
                        : Format.words(i.phases().get(i.phases().size() - 1).phase()))
                .setHeader("Phase");
        incidents.addColumn(i -> Format.text(i.originNode())).setHeader("Node");
        incidents.addColumn(i -> Format.gpuHours(i.lostGpuHours())).setHeader("Lost so far");
        incidents.addItemClickListener(e -> JobDetailView.open(e.getItem().job()));
        Ui.openOnEnter(incidents, i -> JobDetailView.open(i.job()));
        breaching.setId("breaching-jobs");
        breaching.addColumn(JobRow::name).setHeader("Job").setAutoWidth(true);
        breaching.addColumn(new ComponentRenderer<>(JobsView::freshnessBadge)).setHeader("Checkpoint age / objective");
        breaching.addColumn(j -> Format.words(j.state())).setHeader("State");
        breaching.addItemClickListener(e -> JobDetailView.open(e.getItem().name()));
        Ui.openOnEnter(breaching, j -> JobDetailView.open(j.name()));
        nodes.setId("nodes-at-risk");
        nodes.addColumn(OverviewModel.NodeAtRisk::name).setHeader("Node").setAutoWidth(true);
        nodes.addColumn(n -> Format.text(n.pool())).setHeader("Pool");
        nodes.addColumn(OverviewModel.NodeAtRisk::why).setHeader("Why");
        nodes.addColumn(n -> n.deadline() == null ? "—" : Format.time(n.deadline(), UiSession.zone()))
                .setHeader("Deadline");
        nodes.addColumn(n -> n.jobs().isEmpty() ? "—" : String.join(", ", n.jobs()))
                .setHeader("Jobs on it");
        nodes.addItemClickListener(e -> openNode(e.getItem().name()));
        Ui.openOnEnter(nodes, n -> openNode(n.name()));
        for (Grid<?> g : new Grid<?>[] {incidents, breaching, nodes}) {
            g.addThemeVariants(GridVariant.LUMO_COMPACT, GridVariant.LUMO_ROW_STRIPES);
            g.setAllRowsVisible(true);
        }
        incidents.setEmptyStateText("No open incidents.");
        breaching.setEmptyStateText("Every job's newest checkpoint is within its objective.");
        nodes.setEmptyStateText("No node has a pending notice, and none is draining or cordoned.");
        Div charts = new Div(
                Ui.section("Interruptions and lost GPU-hours by cause, last 7 days", causesEmpty, causes),
                Ui.section("Open incidents", incidents));
        charts.addClassNames("ll-two");
        Div risk = new Div(
                Ui.section("Jobs breaching their checkpoint-freshness objective", breaching),
                Ui.section("Nodes with notices, draining or cordoned", nodes));
        risk.addClassNames("ll-two");
        gainFigure.setId("gain-figure");
        gainFigure.addClassNames("ll-kpi-value");
        gainWorth.setId("gain-worth");
        gainCaption.setId("gain-caption");
        gainCaption.addClassNames("ll-muted");
        Div gainBox = new Div(gainFigure, new Div(gainWorth), new Div(gainCaption));
        gainBox.setId("lifeline-gain");
        add(
                Ui.title("Overview"),
                status,
                kpis,
                Ui.section("What Lifeline's notice policy gained, recent jobs", gainBox),
                charts,
                risk);
        Live.bind(
                this,
                data,
                s -> render(
                        OverviewPresenter.present(s, data.ettrHistory(UiSession.scope()), gain.of(UiSession.scope()))));
        addAttachListener(e -> loadInFlight(e.getUI()));
    }

    private static void openNode(String node) {
        UI.getCurrent()
                .navigate(
                        FleetView.class,
                        new com.vaadin.flow.router.QueryParameters(java.util.Map.of("node", java.util.List.of(node))));
    }

    @SuppressWarnings("FutureReturnValueIgnored") // the callback handles both outcomes
    private void loadInFlight(UI ui) {
        if (!actions.available()) {
            inFlight = "unavailable";
            return;
        }
        Caller caller = UiSession.caller();
        actions.list(caller, new ActionQuery(null, ActionState.RUNNING, null, null, null, null, 50, null))
                .thenCombine(
                        actions.list(
                                caller, new ActionQuery(null, ActionState.PENDING, null, null, null, null, 50, null)),
                        (r, p) -> r.items().size() + p.items().size())
                .whenComplete((n, ex) -> ui.access(() -> {
                    inFlight = ex != null ? "unavailable" : String.valueOf(n);
                    if (shown != null) {
                        renderKpis(shown);
                    }
                }));
    }

    void render(OverviewModel m) {
        if (m.equals(shown)) {
            return;
        }
        shown = m;
        status.setText(
                m.nodes() == 0 && m.jobsActive() == 0
                        ? "No data yet: nothing has reported to Lifeline."
                        : "As of " + Format.time(m.at(), UiSession.zone()));
        renderKpis(m);
        gainFigure.setText(OverviewPresenter.gainFigure(m.gain()));
        gainWorth.setText(OverviewPresenter.gainWorth(m.gain()));
        gainCaption.setText(OverviewPresenter.gainCaption(m.gain()));
        causesEmpty.setVisible(m.causes7d().isEmpty());
        causes.setVisible(!m.causes7d().isEmpty());
        causes.setOption(Charts.causes(m.causes7d()));
        causes.setDescription(Charts.describeCauses(m.causes7d()));
        incidents.setItems(m.openIncidents());
        breaching.setItems(m.breaching());
        nodes.setItems(m.nodesAtRisk());
        if (isAttached() && System.currentTimeMillis() - inFlightAt > 5000) {
            inFlightAt = System.currentTimeMillis();
            getUI().ifPresent(this::loadInFlight);
        }
    }

    private void renderKpis(OverviewModel m) {
        kpis.removeAll();
        // A caller limited to namespaces sees the ETTR of its own jobs, never the fleet's.
        String ettr = UiSession.scope().isEverything() ? "Fleet ETTR" : "Your jobs' ETTR";
        kpis.add(
                Ui.kpi(
                        "kpi-ettr-24h",
                        ettr + ", 24 h",
                        Format.percent(m.ettr24h().ettr()),
                        coverage(m.ettr24h())),
                Ui.kpi("kpi-ettr-7d", ettr + ", 7 d", Format.percent(m.ettr7d().ettr()), coverage(m.ettr7d())),
                Ui.kpi(
                        "kpi-incidents",
                        "Open incidents",
                        String.valueOf(m.openIncidents().size()),
                        m.jobsActive() + " jobs training"),
                Ui.kpi("kpi-lost", "Lost, 7 d", Format.gpuHours(m.lostGpuHours7d()), "rework and recovery"),
                Ui.kpi(
                        "kpi-breaching",
                        "Stale checkpoints",
                        String.valueOf(m.breaching().size()),
                        "jobs past objective"),
                Ui.kpi(
                        "kpi-nodes",
                        "Nodes at risk",
                        String.valueOf(m.nodesAtRisk().size()),
                        m.nodes() + " nodes · " + m.gpus() + " GPUs"),
                Ui.kpi("kpi-actions", "Actions in flight", inFlight, "running or pending"));
    }

    private static String coverage(EttrHistory.Window w) {
        if (w.complete()) {
            return "productive / time holding GPUs";
        }
        if (w.covered().isZero()) {
            return "since jobs started (history still short)";
        }
        return "over the last " + Format.duration(w.covered().toMillis()) + " (history still short)";
    }

    /** The model shown, for tests. */
    public OverviewModel shown() {
        return shown;
    }
}
