package io.lifeline.ui;

import com.vaadin.flow.component.AttachEvent;
import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.Anchor;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.orderedlayout.FlexComponent;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.component.select.Select;
import com.vaadin.flow.router.BeforeEnterEvent;
import com.vaadin.flow.router.BeforeEnterObserver;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import com.vaadin.flow.theme.lumo.LumoUtility;
import io.lifeline.domain.fleet.reliability.GroupBy;
import io.lifeline.domain.fleet.reliability.Interruption;
import io.lifeline.domain.fleet.reliability.InterruptionCause;
import io.lifeline.domain.fleet.reliability.LemonNode;
import io.lifeline.domain.fleet.reliability.NodeAdmissionFailures;
import io.lifeline.domain.fleet.reliability.ReliabilityReport;
import io.lifeline.domain.fleet.reliability.ReliabilityRow;
import io.lifeline.security.ReliabilityReads;
import io.lifeline.ui.data.DashboardData;
import jakarta.inject.Inject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Fleet reliability: per pool, zone, instance type or capacity type, the node-days in service, the interruptions by
 * cause, the MTBF and the rate per 1,000 node-days with their exact intervals, a chart of the MTBF with its interval,
 * the lemon nodes with the interruptions that make them one (each links to its node on the fleet page), and the
 * recovery time of the caller's jobs' interruptions by phase ({@link RecoveryPhasesSection}). Read
 * through the same {@link ReliabilityReads} as {@code GET /api/v1/fleet/reliability}, for the signed-in caller's
 * scope; read again as the fleet changes (at most every few seconds). The window, grouping and cause live in the URL
 * ({@code ?window=7d&groupBy=zone&cause=gpu-failure}).
 */
@Route(value = "reliability", layout = MainLayout.class)
@PageTitle("Reliability · Lifeline")
public class ReliabilityView extends VerticalLayout implements BeforeEnterObserver {

    static final String ALL = "all";
    /** Reading the ledger is cheap, but not worth redoing on every snapshot of a busy fleet. */
    private static final long MIN_REREAD_MILLIS = 5000;

    private final ModelReads reads;
    private final Select<String> window = new Select<>();
    private final Select<GroupBy> groupBy = new Select<>();
    private final Select<String> cause = new Select<>();
    private final Span summary = new Span();
    private final Div status = new Div();
    private final Grid<ReliabilityRow> grid = new Grid<>();
    private final H2 chartTitle = new H2();
    private final EChart chart = new EChart("320px");
    private final Div chartEmpty = new Div();
    private final Grid<LemonNode> lemons = new Grid<>();
    private final Div lemonsEmpty = new Div();
    private final Grid<NodeAdmissionFailures> admissions = new Grid<>();
    private final RecoveryPhasesSection phases;
    private boolean restoring;
    private ReliabilityReport report;
    private long readAt;
    private boolean reading;
    private boolean again;

    @Inject
    public ReliabilityView(ModelReads reads, DashboardData data) {
        this.reads = reads;
        this.phases = new RecoveryPhasesSection(reads, this::remember);
        addClassName("ll-page");
        window.setId("rel-window");
        window.setLabel("Window");
        window.setItems(ReliabilityReads.WINDOWS);
        window.setItemLabelGenerator(ReliabilityPresenter::windowLabel);
        window.setValue(ReliabilityReads.DEFAULT_WINDOW);
        groupBy.setId("rel-group-by");
        groupBy.setLabel("Group by");
        groupBy.setItems(GroupBy.values());
        groupBy.setItemLabelGenerator(ReliabilityPresenter::label);
        groupBy.setValue(GroupBy.POOL);
        cause.setId("rel-cause");
        cause.setLabel("Cause");
        List<String> causes = new ArrayList<>();
        causes.add(ALL);
        for (InterruptionCause c : InterruptionCause.values()) {
            causes.add(c.wire());
        }
        cause.setItems(causes);
        cause.setItemLabelGenerator(c -> ALL.equals(c) ? "All causes" : ReliabilityPresenter.cause(c));
        cause.setValue(ALL);
        for (Select<?> s : List.of(window, groupBy, cause)) {
            s.addValueChangeListener(e -> {
                if (!restoring) {
                    remember();
                    reload();
                }
            });
        }
        summary.setId("rel-summary");
        summary.addClassNames("ll-muted");
        status.setId("rel-status");
        HorizontalLayout filters = new HorizontalLayout(window, groupBy, cause, summary);
        filters.setDefaultVerticalComponentAlignment(FlexComponent.Alignment.BASELINE);
        filters.addClassName("ll-wrap");

        grid.setId("rel-grid");
        grid.addThemeVariants(
                GridVariant.LUMO_COMPACT, GridVariant.LUMO_ROW_STRIPES, GridVariant.LUMO_WRAP_CELL_CONTENT);
        grid.setAllRowsVisible(true);
        grid.setWidthFull();
        // Fixed widths that wrap: the table fits a laptop's screen beside the navigation without scrolling sideways.
        grid.addColumn(ReliabilityRow::group)
                .setKey("group")
                .setHeader("Pool")
                .setAutoWidth(true)
                .setFlexGrow(1);
        grid.addColumn(r -> ReliabilityPresenter.nodeDays(r.nodeHours()))
                .setHeader("Node-days in service")
                .setWidth("7em")
                .setFlexGrow(0);
        grid.addColumn(ReliabilityRow::interruptions)
                .setHeader("Interruptions")
                .setWidth("8em")
                .setFlexGrow(0);
        grid.addColumn(r -> ReliabilityPresenter.byCause(r.byCause()))
                .setHeader("By cause")
                .setWidth("12em")
                .setFlexGrow(2);
        grid.addColumn(ReliabilityPresenter::mtbfCell)
                .setKey("mtbf")
                .setHeader("MTBF (interval)")
                .setWidth("13em")
                .setFlexGrow(1);
        grid.addColumn(ReliabilityPresenter::rateCell)
                .setKey("rate")
                .setHeader("Per 1,000 node-days (interval)")
                .setWidth("12em")
                .setFlexGrow(1);

        chart.setId("rel-chart");
        chartEmpty.setId("rel-chart-empty");
        chartTitle.addClassNames(LumoUtility.FontSize.MEDIUM, LumoUtility.Margin.Top.NONE);
        Div chartCard = new Div(chartTitle, chartEmpty, chart);
        chartCard.addClassName("ll-card");
        chartCard.setWidthFull();

        lemons.setId("rel-lemons");
        lemons.addThemeVariants(GridVariant.LUMO_COMPACT, GridVariant.LUMO_WRAP_CELL_CONTENT);
        lemons.setAllRowsVisible(true);
        lemons.setWidthFull();
        lemons.addComponentColumn(ReliabilityView::nodeLink)
                .setKey("node")
                .setHeader("Node")
                .setAutoWidth(true);
        lemons.addColumn(LemonNode::pool).setHeader("Pool").setAutoWidth(true);
        lemons.addColumn(l -> ReliabilityPresenter.nodeDays(l.nodeHours()))
                .setHeader("Node-days")
                .setWidth("6em")
                .setFlexGrow(0);
        lemons.addColumn(l -> l.interruptions() + " (" + String.format(java.util.Locale.ENGLISH, "%.2f", l.expected())
                        + " expected)")
                .setHeader("Interruptions (at its pool's rate)")
                .setWidth("11em")
                .setFlexGrow(0);
        lemons.addColumn(l -> ReliabilityPresenter.tail(l.tailProbability()))
                .setHeader("Chance of as many")
                .setWidth("8em")
                .setFlexGrow(0);
        lemons.addComponentColumn(ReliabilityView::evidence)
                .setKey("evidence")
                .setHeader("Evidence")
                .setWidth("16em")
                .setFlexGrow(3);
        lemonsEmpty.setId("rel-lemons-empty");

        Div table = Ui.section("Interruptions and MTBF", grid);
        table.setWidthFull();
        Div lemonCard =
                Ui.section("Lemon nodes: interrupted far more often than the rest of their pool", lemonsEmpty, lemons);
        lemonCard.setWidthFull();
        admissions.setId("rel-admissions");
        admissions.addThemeVariants(GridVariant.LUMO_COMPACT);
        admissions.setAllRowsVisible(true);
        admissions.setWidthFull();
        admissions
                .addComponentColumn(a -> nodeLink(a.node()))
                .setKey("node")
                .setHeader("Node")
                .setAutoWidth(true);
        admissions.addColumn(NodeAdmissionFailures::pool).setHeader("Pool").setAutoWidth(true);
        admissions
                .addColumn(NodeAdmissionFailures::count)
                .setKey("count")
                .setHeader("Pods rejected")
                .setWidth("8em")
                .setFlexGrow(0);
        admissions
                .addColumn(a -> a.last() == null ? "" : Format.time(a.last(), UiSession.zone()))
                .setHeader("Last")
                .setAutoWidth(true);
        admissions
                .addColumn(a -> a.suspect() ? "swallows pods now" : "")
                .setKey("suspect")
                .setHeader("Verdict")
                .setAutoWidth(true);
        admissions.setVisible(false);
        Div admissionCard = Ui.section(
                "Admission failures: pods each node's kubelet rejected at admission or device allocation", admissions);
        admissionCard.setWidthFull();
        add(Ui.title("Reliability"), filters, status, table, chartCard, lemonCard, admissionCard, phases);
        Live.bind(this, data, s -> reloadIfStale());
    }

    @Override
    protected void onAttach(AttachEvent e) {
        super.onAttach(e);
        reload();
        phases.reload();
    }

    /** Restores the window, grouping and cause from the URL; unknown values keep the defaults. */
    @Override
    public void beforeEnter(BeforeEnterEvent event) {
        Map<String, List<String>> p = event.getLocation().getQueryParameters().getParameters();
        restoring = true;
        try {
            String w = UrlState.single(p, "window");
            window.setValue(w != null && ReliabilityReads.WINDOWS.contains(w) ? w : ReliabilityReads.DEFAULT_WINDOW);
            String g = UrlState.single(p, "groupBy");
            groupBy.setValue(g == null ? GroupBy.POOL : GroupBy.fromWire(g).orElse(GroupBy.POOL));
            String c = UrlState.single(p, "cause");
            cause.setValue(
                    c == null
                            ? ALL
                            : InterruptionCause.fromWire(c)
                                    .map(InterruptionCause::wire)
                                    .orElse(ALL));
        } finally {
            restoring = false;
        }
        phases.restore(p);
        if (isAttached()) {
            reload();
            phases.reload();
        }
    }

    private void remember() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("window", ReliabilityReads.DEFAULT_WINDOW.equals(window.getValue()) ? null : window.getValue());
        p.put(
                "groupBy",
                groupBy.getValue() == null || groupBy.getValue() == GroupBy.POOL
                        ? null
                        : groupBy.getValue().wire());
        p.put("cause", ALL.equals(cause.getValue()) ? null : cause.getValue());
        phases.remember(p);
        UrlState.replace("reliability", p);
    }

    private void reloadIfStale() {
        if (System.currentTimeMillis() - readAt >= MIN_REREAD_MILLIS) {
            reload();
            phases.reload();
        }
    }

    /** Reads the report for the selections off the UI thread; a change while a read runs reads again after it. */
    @SuppressWarnings("FutureReturnValueIgnored") // the callback handles both outcomes
    void reload() {
        UI ui = UI.getCurrent();
        if (ui == null) {
            return;
        }
        if (reading) {
            again = true;
            return;
        }
        reading = true;
        readAt = System.currentTimeMillis();
        int days = ReliabilityReads.windowDays(window.getValue()).orElse(30);
        GroupBy by = groupBy.getValue() == null ? GroupBy.POOL : groupBy.getValue();
        InterruptionCause c = ALL.equals(cause.getValue())
                ? null
                : InterruptionCause.fromWire(cause.getValue()).orElse(null);
        reads.reliability(UiSession.scope(), days, by, c).whenComplete((r, ex) -> {
            Ui.access(ui, () -> {
                reading = false;
                show(r, ex);
                if (again) {
                    again = false;
                    reload();
                }
            });
        });
    }

    private void show(ReliabilityReport r, Throwable ex) {
        status.removeAll();
        if (ex != null) {
            status.add(Ui.error("Could not read the fleet's reliability: " + AlertsGateway.message(ex)));
            return;
        }
        if (r.equals(report)) {
            return;
        }
        report = r;
        String by = ReliabilityPresenter.label(r.groupBy());
        grid.getColumnByKey("group").setHeader(by);
        grid.setItems(r.rows());
        long interruptions =
                r.rows().stream().mapToLong(ReliabilityRow::interruptions).sum();
        summary.setText(r.rows().size() + " " + (r.rows().size() == 1 ? "group" : "groups") + " · " + interruptions
                + (r.cause() == null
                        ? " interruptions"
                        : " interruptions of cause "
                                + ReliabilityPresenter.cause(r.cause().wire()))
                + " since "
                + Format.time(r.from(), UiSession.zone()) + " · " + ReliabilityPresenter.confidence(r.confidence())
                + " exact intervals");
        if (r.rows().isEmpty()) {
            status.add(Ui.empty("No node was in service in this window"
                    + (UiSession.scope().isEverything() ? "." : " among the nodes your jobs run on.")));
        }
        chartTitle.setText("MTBF by " + by.toLowerCase(java.util.Locale.ROOT) + " with its "
                + ReliabilityPresenter.confidence(r.confidence()) + " interval (log scale)");
        boolean drawn = !ReliabilityPresenter.drawn(r).isEmpty();
        chart.setVisible(drawn);
        chartEmpty.removeAll();
        if (!drawn) {
            chartEmpty.add(Ui.empty("No group had an interruption in this window: there is no MTBF to draw."));
        }
        chart.setDescription(ReliabilityPresenter.describe(r));
        chart.setOption(ReliabilityPresenter.chart(r));
        lemons.setItems(r.lemons());
        lemons.setVisible(!r.lemons().isEmpty());
        lemonsEmpty.removeAll();
        if (r.lemons().isEmpty()) {
            lemonsEmpty.add(Ui.empty("No lemon node: no node was interrupted far more often than its pool."));
        }
        admissions.setItems(r.admissionFailures());
        admissions.setVisible(!r.admissionFailures().isEmpty());
    }

    private static Anchor nodeLink(LemonNode l) {
        return nodeLink(l.node());
    }

    private static Anchor nodeLink(String node) {
        Anchor a = new Anchor("fleet?node=" + URLEncoder.encode(node, StandardCharsets.UTF_8), node);
        a.getElement().setAttribute("title", "Open " + node + " on the fleet page");
        return a;
    }

    /** The admission failures per node shown, for tests. */
    public Grid<NodeAdmissionFailures> admissions() {
        return admissions;
    }

    private static Div evidence(LemonNode l) {
        Div d = new Div();
        d.addClassName("ll-evidence");
        for (Interruption i : l.evidence()) {
            d.add(new Div(ReliabilityPresenter.evidence(i, UiSession.zone())));
        }
        return d;
    }

    /** The report shown, for tests. */
    public ReliabilityReport report() {
        return report;
    }

    public Grid<ReliabilityRow> grid() {
        return grid;
    }

    public Grid<LemonNode> lemons() {
        return lemons;
    }

    public Select<String> windowSelect() {
        return window;
    }

    public Select<GroupBy> groupBySelect() {
        return groupBy;
    }

    public Select<String> causeSelect() {
        return cause;
    }

    public EChart chart() {
        return chart;
    }

    /** The section of recovery time by phase. */
    RecoveryPhasesSection phases() {
        return phases;
    }
}
