package io.lifeline.ui;

import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.html.H1;
import com.vaadin.flow.component.html.ListItem;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.html.UnorderedList;
import com.vaadin.flow.component.orderedlayout.FlexComponent;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.component.select.Select;
import com.vaadin.flow.component.textfield.IntegerField;
import com.vaadin.flow.data.renderer.ComponentRenderer;
import com.vaadin.flow.router.BeforeEnterEvent;
import com.vaadin.flow.router.BeforeEnterObserver;
import com.vaadin.flow.router.HasDynamicTitle;
import com.vaadin.flow.router.Route;
import com.vaadin.flow.router.RouteParameters;
import io.lifeline.action.StackCaptureRequests;
import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.job.JobSummary;
import io.lifeline.domain.job.TimelineCursor;
import io.lifeline.domain.job.TimelineEntry;
import io.lifeline.domain.job.TimelinePage;
import io.lifeline.domain.job.advice.IntervalAdvice;
import io.lifeline.domain.job.checkpoint.CheckpointView;
import io.lifeline.domain.job.checkpoint.FreshnessView;
import io.lifeline.domain.job.goodput.GoodputView;
import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.domain.job.membership.RendezvousRound;
import io.lifeline.domain.job.recovery.RecoveryView;
import io.lifeline.domain.policy.colocation.ColocationLedger;
import io.lifeline.ui.data.DashboardData;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One job: its interruption timeline as a chart, goodput breakdown, whether it is hung (with the newest stacks of its
 * ranks), its recovery (budgets, the ladder's advice, the attempts), incidents, membership history, checkpoints
 * with lineage and verification, the checkpoint-interval advice, and (for operators) actions behind a confirmation.
 * The timeline's time window lives in the URL ({@code ?from=...&to=...}, ISO-8601 instants): zooming the chart or
 * choosing a window in the list (the keyboard way) updates it, and a pasted link opens the same window.
 *
 * <p>Below the chart, the timeline's entries in that window, in time order like the API: the first page, then
 * "Load more" for the next ones, paging with the API's cursor through the entries memory holds and those stored
 * beyond its ring. When the last page is shown and the window is open-ended, new entries are appended as the job
 * changes. Every read runs off the UI thread and reaches the page by {@code UI.access}.
 */
@Route(value = "jobs/:namespace/:name", layout = MainLayout.class)
public class JobDetailView extends VerticalLayout implements BeforeEnterObserver, HasDynamicTitle {

    private final ModelReads reads;
    private final ActionsGateway actions;
    private final H1 title = new H1();
    private final Div summary = new Div();
    private final HorizontalLayout actionBar = new HorizontalLayout();
    private final EChart timeline = new EChart("360px");
    private final EChart goodputChart = new EChart("260px");
    private final Grid<Map.Entry<String, Long>> goodput = new Grid<>();
    private final Grid<IncidentView> incidents = new Grid<>();
    private final Grid<RendezvousRound> rounds = new Grid<>();
    private final Grid<CheckpointView> checkpoints = new Grid<>();
    private final Grid<TimelineEntry> entries = new Grid<>();
    private final Grid<ColocationLedger.Episode> lendings = new Grid<>();
    private final ColocationGateway colocation;
    private List<ColocationLedger.Episode> lent = List.of();
    private final Button moreEntries = new Button("Load more");
    private final Span entriesState = new Span();
    private final List<TimelineEntry> listed = new ArrayList<>();
    /** Bumped when the list starts over (another job or window), so that late pages of the old one are dropped. */
    private int listGeneration;

    private boolean listing;
    private boolean listAtEnd;
    private final Div advice = new Div();
    private final Div spot = new Div();
    private final StragglerSection stragglers;
    private final HangSection hang;
    private final RecoverySection recovery = new RecoverySection();
    private final ObjectiveSection objective = new ObjectiveSection();
    private final ObjectivesGateway objectives;
    private final WhatIfPanel whatIf = new WhatIfPanel(() -> this.job);
    private final Div state = new Div();
    private final Div content = new Div();
    private Grid.Column<CheckpointView> restoreColumn;
    private final Select<Window> window = new Select<>();
    private String job;
    private JobDetailModel shown;
    private Long from;
    private Long to;

    /** Entries per page of the timeline list. */
    static final int ENTRIES_PAGE = 100;

    /** The time windows offered for the timeline; CUSTOM is what zooming the chart made. */
    enum Window {
        WHOLE("Whole run", null),
        LAST_15_MIN("Last 15 minutes", Duration.ofMinutes(15)),
        LAST_HOUR("Last hour", Duration.ofHours(1)),
        LAST_6_HOURS("Last 6 hours", Duration.ofHours(6)),
        LAST_DAY("Last 24 hours", Duration.ofHours(24)),
        CUSTOM("Zoomed", null);

        final String label;
        final Duration length;

        Window(String label, Duration length) {
            this.label = label;
            this.length = length;
        }
    }

    @Inject
    public JobDetailView(
            DashboardData data,
            ModelReads reads,
            ActionsGateway actions,
            ColocationGateway colocation,
            StackCaptureRequests stackRequests,
            ObjectivesGateway objectives) {
        this.reads = reads;
        this.objectives = objectives;
        this.actions = actions;
        this.colocation = colocation;
        this.stragglers = new StragglerSection(actions);
        this.hang = new HangSection(stackRequests);
        addClassName("ll-page");
        title.addClassNames("ll-title");
        summary.setId("job-summary");
        summary.addClassNames("ll-kpis");
        actionBar.setId("job-actions");
        actionBar.setDefaultVerticalComponentAlignment(FlexComponent.Alignment.BASELINE);
        timeline.setId("job-timeline");
        timeline.onZoom(this::zoomed);
        window.setId("timeline-window");
        window.setLabel("Time window");
        window.setItems(Window.values());
        window.setItemLabelGenerator(w -> w != Window.CUSTOM || from == null
                ? w.label
                : "From " + Format.shortTime(Instant.ofEpochMilli(from), UiSession.zone()) + " to "
                        + Format.shortTime(Instant.ofEpochMilli(to), UiSession.zone()));
        window.setItemEnabledProvider(w -> w != Window.CUSTOM);
        window.setValue(Window.WHOLE);
        window.addValueChangeListener(e -> {
            if (e.isFromClient()) {
                windowChosen(e.getValue());
            }
        });
        goodputChart.setId("job-goodput-chart");
        state.setId("job-state");
        buildGrids();
        advice.setId("job-advice");
        Div row =
                new Div(Ui.section("Goodput", goodputChart, goodput), Ui.section("Checkpoint interval advice", advice));
        row.addClassNames("ll-two");
        spot.setId("job-spot");
        moreEntries.setId("timeline-more");
        moreEntries.addClickListener(e -> fetchEntries());
        entriesState.setId("timeline-entries-state");
        entriesState.addClassNames("ll-muted");
        HorizontalLayout entriesBar = new HorizontalLayout(moreEntries, entriesState);
        entriesBar.setDefaultVerticalComponentAlignment(FlexComponent.Alignment.BASELINE);
        content.add(
                summary,
                objective,
                Ui.section("Interruption timeline", window, timeline),
                row,
                Ui.section("Spot placement", spot),
                Ui.section("Hang", hang),
                Ui.section("Recovery", recovery),
                Ui.section("Stragglers", stragglers),
                Ui.section("Timeline entries", entries, entriesBar),
                Ui.section("Co-location windows (GPUs lent to inference)", lendings),
                Ui.section("Incidents", incidents),
                Ui.section("Checkpoints", checkpoints),
                Ui.section("Membership history", rounds));
        content.addComponentAtIndex(5, whatIf);
        content.setWidthFull();
        add(title, actionBar, state, content);
        Live.bind(this, data, s -> load());
    }

    /** Reads the job's co-location windows off the UI thread; the chart is drawn again when they changed. */
    @SuppressWarnings("FutureReturnValueIgnored") // the callback handles both outcomes
    private void loadLendings(JobDetailModel m) {
        UI ui = UI.getCurrent();
        String asked = job;
        colocation.episodes(UiSession.scope(), asked).whenComplete((list, ex) -> {
            if (ui == null || ex != null || list == null) {
                return;
            }
            ui.access(() -> {
                if (!asked.equals(job) || list.equals(lent)) {
                    return;
                }
                lent = list;
                lendings.setItems(list);
                timeline.setOption(TimelineChart.timeline(m, from, to, lent));
            });
        });
    }

    /** Reads the objectives the job is under off the UI thread; the section hides while there are none. */
    @SuppressWarnings("FutureReturnValueIgnored") // the callback handles both outcomes
    private void loadObjectives() {
        UI ui = UI.getCurrent();
        String asked = job;
        objectives.forJob(UiSession.scope(), asked).whenComplete((list, ex) -> {
            if (ex != null || list == null) {
                return;
            }
            Ui.access(ui, () -> {
                if (asked.equals(job)) {
                    objective.show(asked, list);
                }
            });
        });
    }

    /** Navigates to a job given as {@code namespace/name}. */
    public static void open(String job) {
        int slash = job.indexOf('/');
        if (slash > 0) {
            UI.getCurrent()
                    .navigate(
                            JobDetailView.class,
                            new RouteParameters(
                                    Map.of("namespace", job.substring(0, slash), "name", job.substring(slash + 1))));
        }
    }

    @Override
    public void beforeEnter(BeforeEnterEvent event) {
        RouteParameters p = event.getRouteParameters();
        job = p.get("namespace").orElse("") + "/" + p.get("name").orElse("");
        title.setText(job);
        whatIf.show(job);
        Map<String, List<String>> q = event.getLocation().getQueryParameters().getParameters();
        from = instant(UrlState.single(q, "from"));
        to = instant(UrlState.single(q, "to"));
        if (from == null || to == null || to <= from) {
            from = null;
            to = null;
        }
        window.getDataProvider().refreshAll();
        window.setValue(from == null ? Window.WHOLE : Window.CUSTOM);
        shown = null;
        state.setText("Loading…");
        content.setVisible(false);
        load();
        restartEntries();
    }

    @Override
    public String getPageTitle() {
        return (job == null ? "Job" : job) + " · Lifeline";
    }

    @SuppressWarnings("FutureReturnValueIgnored") // the callback handles both outcomes
    private void load() {
        UI ui = UI.getCurrent();
        String asked = job;
        if (ui == null || asked == null) {
            return;
        }
        reads.job(UiSession.scope(), asked).whenComplete((m, ex) -> {
            Ui.access(ui, () -> {
                if (!asked.equals(job)) {
                    return;
                }
                if (ex != null) {
                    state.removeAll();
                    state.add(Ui.error("Could not read " + asked + ": " + ex.getMessage()));
                } else if (m.isEmpty()) {
                    state.removeAll();
                    state.add(Ui.empty(
                            "No job " + asked + " is known. It appears once its scheduler or trainers report."));
                    content.setVisible(false);
                } else {
                    render(m.get());
                }
            });
        });
    }

    void render(JobDetailModel m) {
        if (shown != null && sameExceptTime(m, shown)) {
            return;
        }
        boolean first = shown == null;
        shown = m;
        state.removeAll();
        content.setVisible(true);
        JobSummary s = m.detail().summary();
        FreshnessView f = m.detail().freshness();
        GoodputView g = m.detail().goodput();
        summary.removeAll();
        summary.add(
                Ui.kpi(
                        "job-kpi-state",
                        "State",
                        Format.words(s.state()),
                        "since " + Format.ago(s.stateSince(), m.at())),
                Ui.kpi("job-kpi-world", "World size", String.valueOf(s.worldSize()), elastic(m)),
                Ui.kpi(
                        "job-kpi-ettr",
                        "ETTR",
                        Format.percent(s.ettr()),
                        Format.percent(s.ettrOfWall()) + " of wall time"),
                Ui.kpi(
                        "job-kpi-lost",
                        "Lost",
                        Format.gpuHours(g.lostGpuHours()),
                        "of " + Format.gpuHours(g.heldGpuHours()) + " held"),
                Ui.kpi(
                        "job-kpi-freshness",
                        "Newest checkpoint that survives a node",
                        f == null ? "—" : f.checkpointId() == null ? "none" : Format.duration(f.ageMillis()),
                        f == null
                                ? ""
                                : (f.checkpointId() == null && f.ageMillis() != null
                                                ? Format.duration(f.ageMillis()) + " of training unprotected · "
                                                : "")
                                        + "objective " + Format.duration(f.objectiveMillis())
                                        + (f.breached() ? " · BREACHED" : "") + " · at risk "
                                        + Format.gpuHours(f.workAtRiskGpuHours())
                                        + (f.newestNotSurviving()
                                                ? " · NODE-LOCAL: newest " + f.newestCheckpointId()
                                                        + " is lost with its node"
                                                : "")),
                Ui.kpi(
                        "job-kpi-progress",
                        "Progress",
                        ProgressKpi.value(s, m.detail().progress()),
                        ProgressKpi.hint(m.detail().progress(), m.at())),
                Ui.kpi("job-kpi-restarts", "Restarts", String.valueOf(s.restarts()), restartsHint(s, m.recovery())));
        timeline.setOption(TimelineChart.timeline(m, from, to, lent));
        timeline.setDescription(TimelineChart.describe(m));
        loadLendings(m);
        goodputChart.setDescription(TimelineChart.describeGoodput(g));
        goodputChart.setOption(TimelineChart.goodput(g));
        goodput.setItems(new ArrayList<>(TimelineChart.buckets(g).entrySet()));
        List<IncidentView> newestFirst = new ArrayList<>(m.incidents());
        Collections.reverse(newestFirst);
        incidents.setItems(newestFirst);
        List<CheckpointView> cps = new ArrayList<>(
                m.checkpoints() == null ? List.of() : m.checkpoints().checkpoints());
        Collections.reverse(cps);
        checkpoints.setItems(cps);
        List<RendezvousRound> rs = new ArrayList<>(
                m.membership() == null ? List.of() : m.membership().rounds());
        Collections.reverse(rs);
        rounds.setItems(rs);
        renderAdvice(m.advice());
        renderStorage(m);
        SpotSection.render(spot, m.spot());
        stragglers.show(m.detail().stragglers(), m.namespace());
        hang.show(m.name(), m.namespace(), m.hang(), m.incidents(), m.stacks());
        recovery.show(m.recovery(), m.detail().healsItself());
        loadObjectives();
        if (first) {
            renderActions(m);
        } else if (listAtEnd && to == null) {
            // The whole list is shown and the window has no end: what the job did since comes next.
            fetchEntries();
        }
    }

    /** Starts the entry list over with the first page of the current job and window. */
    private void restartEntries() {
        listGeneration++;
        listing = false;
        listAtEnd = false;
        listed.clear();
        entries.setItems(List.of());
        entriesState.setText("Loading…");
        fetchEntries();
    }

    /** Reads the page after the last entry listed and appends it; at most one read at a time. */
    private void fetchEntries() {
        UI ui = UI.getCurrent();
        String asked = job;
        if (ui == null || asked == null || listing) {
            return;
        }
        listing = true;
        moreEntries.setEnabled(false);
        int generation = listGeneration;
        String cursor = listed.isEmpty()
                ? null
                : TimelineCursor.after(listed.get(listed.size() - 1)).toString();
        reads.timeline(
                        UiSession.scope(),
                        asked,
                        from == null ? null : Instant.ofEpochMilli(from),
                        to == null ? null : Instant.ofEpochMilli(to),
                        cursor,
                        ENTRIES_PAGE)
                .whenComplete((page, ex) -> {
                    Ui.access(ui, () -> {
                        if (generation == listGeneration) {
                            listing = false;
                            entriesRead(page, ex);
                        }
                    });
                });
    }

    private void entriesRead(Optional<TimelinePage> page, Throwable ex) {
        if (ex != null) {
            entriesState.setText(
                    "Could not read the timeline: " + (ex.getCause() != null ? ex.getCause() : ex).getMessage());
            moreEntries.setEnabled(true);
            return;
        }
        if (page.isEmpty()) {
            entriesState.setText("");
            listAtEnd = true;
            return;
        }
        TimelinePage p = page.get();
        if (!p.entries().isEmpty()) {
            listed.addAll(p.entries());
            entries.setItems(new ArrayList<>(listed));
        }
        listAtEnd = p.nextCursor() == null;
        moreEntries.setEnabled(!listAtEnd);
        moreEntries.setText(listAtEnd ? "All entries shown" : "Load more");
        entriesState.setText(listed.size() + (listed.size() == 1 ? " entry" : " entries") + " shown");
    }

    /** A window picked from the list: the last so long up to now (or the job's end), or the whole run. */
    private void windowChosen(Window w) {
        if (w == null || w == Window.CUSTOM) {
            return;
        }
        if (w == Window.WHOLE || shown == null) {
            from = null;
            to = null;
        } else {
            Instant end = shown.detail().summary().finishedAt() != null
                    ? shown.detail().summary().finishedAt()
                    : shown.at();
            to = end.toEpochMilli() / 1000 * 1000;
            from = to - w.length.toMillis();
        }
        redrawTimeline();
        rememberWindow();
        restartEntries();
    }

    /** The person zoomed or panned the chart. */
    private void zoomed(long start, long end, boolean whole) {
        if (whole) {
            from = null;
            to = null;
        } else {
            from = start / 1000 * 1000;
            to = Math.max(from + 1000, end / 1000 * 1000);
        }
        window.getDataProvider().refreshAll();
        window.setValue(from == null ? Window.WHOLE : Window.CUSTOM);
        rememberWindow();
        restartEntries();
    }

    private void redrawTimeline() {
        if (shown != null) {
            timeline.setOption(TimelineChart.timeline(shown, from, to, lent));
        }
    }

    private void rememberWindow() {
        Map<String, String> p = new java.util.LinkedHashMap<>();
        p.put("from", from == null ? null : Instant.ofEpochMilli(from).toString());
        p.put("to", to == null ? null : Instant.ofEpochMilli(to).toString());
        UrlState.replace("jobs/" + job, p);
    }

    private static Long instant(String iso) {
        if (iso == null) {
            return null;
        }
        try {
            return Instant.parse(iso).toEpochMilli();
        } catch (java.time.format.DateTimeParseException e) {
            try {
                return Long.parseLong(iso);
            } catch (NumberFormatException e2) {
                return null;
            }
        }
    }

    private static boolean sameExceptTime(JobDetailModel a, JobDetailModel b) {
        return a.detail().equals(b.detail())
                && a.incidents().equals(b.incidents())
                && java.util.Objects.equals(a.checkpoints(), b.checkpoints())
                && java.util.Objects.equals(a.membership(), b.membership())
                && java.util.Objects.equals(a.stacks(), b.stacks())
                && java.util.Objects.equals(a.recovery(), b.recovery())
                && java.util.Objects.equals(
                        a.hang() == null ? null : a.hang().state(),
                        b.hang() == null ? null : b.hang().state())
                && a.at().toEpochMilli() / 10_000 == b.at().toEpochMilli() / 10_000;
    }

    /**
     * Under the restart count: failures against the budget, which counts failures only (an interruption with notice
     * or by plan has a budget of its own), or the interruptions when the job declares no budget.
     */
    static String restartsHint(JobSummary s, RecoveryView r) {
        if (s.maxRestarts() == null) {
            return s.interruptions() + " interruptions";
        }
        return (r == null ? "failures" : r.budgets().failures() + " failures") + " of a budget of " + s.maxRestarts()
                + (s.restartBudgetExhausted() ? " · SPENT" : "");
    }

    private static String elastic(JobDetailModel m) {
        var e = m.detail().elastic();
        return e == null
                ? "not elastic"
                : "min " + e.minNodes() * e.procsPerNode() + " · max " + e.maxNodes() * e.procsPerNode()
                        + " (" + e.procsPerNode() + " per node)"
                        + (e.rdzvBackend() == null ? "" : " · rendezvous " + e.rdzvBackend())
                        + (e.autoscaling() == null ? "" : " · scaled on " + e.autoscaling());
    }

    private void renderAdvice(IntervalAdvice a) {
        advice.removeAll();
        if (a == null) {
            advice.add(Ui.empty("No advice yet."));
            return;
        }
        UnorderedList l = new UnorderedList(
                new ListItem("Current interval: " + Format.seconds(a.currentIntervalSeconds())
                        + (a.intervalSource() == null ? "" : " (" + a.intervalSource() + ")")),
                new ListItem("Recommended: " + Format.seconds(a.recommendedSeconds())
                        + (a.formula() == null ? "" : " (" + a.formula() + ")")),
                new ListItem("Checkpoint cost C: " + Format.seconds(a.checkpointCostSeconds()) + " over "
                        + a.costSamples() + " saves"),
                new ListItem("Mean time between interruptions M: " + Format.seconds(a.mtbiSeconds()) + " ("
                        + a.interruptionsObserved() + " interruptions in "
                        + String.format(java.util.Locale.ENGLISH, "%.0f", a.exposureNodeHours()) + " node-hours)"),
                new ListItem("Expected ETTR: " + Format.percent(a.expectedEttrCurrent()) + " now, "
                        + Format.percent(a.expectedEttrRecommended()) + " at the recommended interval"));
        String objective = ObjectiveAdviceText.of(a);
        if (objective != null) {
            ListItem o = new ListItem(objective);
            o.setId("job-advice-objective");
            l.add(o);
        }
        advice.add(l);
        for (String n : a.notes()) {
            Span note = new Span(n);
            note.addClassNames("ll-muted");
            advice.add(new Div(note));
        }
    }

    /** A line per storage target the job writes to, under the advice. */
    private void renderStorage(JobDetailModel m) {
        for (io.lifeline.domain.storage.StorageTargetView t : m.storage()) {
            Div line = new Div(new Span(StorageText.of(t, m.advice())));
            line.addClassNames("job-storage");
            advice.add(line);
        }
    }

    private void renderActions(JobDetailModel m) {
        actionBar.removeAll();
        restoreColumn.setVisible(UiSession.mayActOnJob(m.namespace()) && actions.available());
        if (!UiSession.mayActOnJob(m.namespace())) {
            return;
        }
        if (!actions.available()) {
            Span none = new Span("Actions unavailable in this deployment.");
            none.setId("actions-unavailable");
            none.addClassNames("ll-muted");
            actionBar.add(none);
            return;
        }
        Button ckpt = actionButton("action-checkpoint", "Checkpoint now", ActionKind.CHECKPOINT_NOW, Map.of());
        ckpt.addThemeVariants(ButtonVariant.LUMO_PRIMARY);
        IntegerField workers = new IntegerField("Workers (nodes)");
        workers.setId("rescale-workers");
        workers.setStepButtonsVisible(true);
        workers.setMin(1);
        var elastic = m.detail().elastic();
        if (elastic != null) {
            workers.setMin(elastic.minNodes());
            workers.setMax(elastic.maxNodes());
            workers.setHelperText(elastic.minNodes() + "–" + elastic.maxNodes());
        }
        workers.setValue(Math.max(1, m.detail().summary().nodes()));
        workers.setWidth("10rem");
        Button rescale = new Button(
                "Rescale…",
                e -> dialog(
                        ActionKind.RESCALE,
                        Map.of("workers", String.valueOf(workers.getValue() == null ? 0 : workers.getValue()))));
        rescale.setId("action-rescale");
        actionBar.add(
                ckpt,
                workers,
                rescale,
                actionButton("action-preempt", "Preempt…", ActionKind.PREEMPT, Map.of()),
                actionButton("action-resume", "Resume…", ActionKind.RESUME, Map.of()));
    }

    private Button actionButton(String id, String label, ActionKind kind, Map<String, String> params) {
        Button b = new Button(label, e -> dialog(kind, params));
        b.setId(id);
        return b;
    }

    private void dialog(ActionKind kind, Map<String, String> params) {
        new ActionDialog(actions, ActionDialog.request(kind, job, params), UiSession.caller()).start();
    }

    private void buildGrids() {
        goodput.setId("job-goodput");
        goodput.addThemeVariants(GridVariant.LUMO_COMPACT);
        goodput.setAllRowsVisible(true);
        goodput.addColumn(Map.Entry::getKey).setHeader("Bucket").setAutoWidth(true);
        goodput.addColumn(e -> Format.duration(e.getValue())).setHeader("Time");
        goodput.addColumn(e -> shown == null || shown.detail().goodput().wallMillis() == 0
                        ? "—"
                        : Format.percent(
                                (double) e.getValue() / shown.detail().goodput().wallMillis()))
                .setHeader("Share");
        incidents.setId("job-incidents");
        incidents.addThemeVariants(GridVariant.LUMO_COMPACT);
        incidents.setAllRowsVisible(true);
        incidents.addColumn(IncidentView::id).setHeader("Incident").setAutoWidth(true);
        incidents.addColumn(i -> Format.words(i.cause())).setHeader("Cause");
        incidents.addColumn(i -> Format.words(i.outcome())).setHeader("Outcome");
        incidents
                .addColumn(i -> Format.time(i.openedAt(), UiSession.zone()))
                .setHeader("Opened")
                .setAutoWidth(true);
        incidents.addColumn(i -> Format.duration(i.downtimeMillis())).setHeader("Downtime");
        incidents
                .addColumn(i -> i.hangMillis() == 0 ? "—" : Format.duration(i.hangMillis()))
                .setHeader("Hung");
        incidents.addColumn(i -> Format.gpuHours(i.lostGpuHours())).setHeader("Lost");
        incidents
                .addColumn(i -> i.actualLeadMillis() == null ? "—" : Format.duration(i.actualLeadMillis()))
                .setHeader("Warning");
        incidents.addColumn(i -> Format.text(i.originNode())).setHeader("Node");
        incidents.setEmptyStateText("No interruptions so far.");
        checkpoints.setId("job-checkpoints");
        checkpoints.setEmptyStateText("No checkpoint reported yet.");
        checkpoints.addThemeVariants(GridVariant.LUMO_COMPACT);
        checkpoints.setAllRowsVisible(true);
        checkpoints.addColumn(CheckpointView::id).setHeader("Checkpoint").setAutoWidth(true);
        checkpoints.addColumn(CheckpointView::step).setHeader("Step");
        checkpoints
                .addColumn(new ComponentRenderer<>(c -> Ui.badge(
                        Format.words(c.status()),
                        c.good() ? "success" : c.status().name().equals("STARTED") ? "contrast" : "error")))
                .setHeader("Status");
        checkpoints
                .addColumn(c -> Format.time(c.completedAt(), UiSession.zone()))
                .setHeader("Completed")
                .setAutoWidth(true);
        checkpoints
                .addColumn(c -> c.verifiedAt() == null
                        ? "not verified"
                        : "verified " + Format.shortTime(c.verifiedAt(), UiSession.zone()))
                .setHeader("Verification");
        checkpoints
                .addColumn(c -> c.restoredFrom() == null ? "—" : "from " + c.restoredFrom())
                .setHeader("Lineage");
        checkpoints.addColumn(new ComponentRenderer<>(TrustBadge::of)).setHeader("Trust");
        checkpoints
                .addColumn(new ComponentRenderer<>(c -> c.durability() == null
                        ? Ui.badge("—", "contrast")
                        : Ui.badge(
                                c.durability() + (c.nodes().isEmpty() ? "" : " (" + String.join(", ", c.nodes()) + ")"),
                                c.survivesAnyNode() ? "success" : "error")))
                .setHeader("Stored")
                .setAutoWidth(true);
        checkpoints.addColumn(c -> Format.bytes(c.bytes())).setHeader("Size");
        checkpoints.addColumn(c -> Format.duration(c.blockingMillis())).setHeader("Blocked");
        checkpoints
                .addColumn(c -> c.restoreCount() == 0 ? "—" : c.restoreCount() + "×")
                .setHeader("Restored");
        restoreColumn = checkpoints
                .addColumn(new ComponentRenderer<>(this::restoreButton))
                .setHeader("Restore")
                .setKey("restore")
                .setAutoWidth(true)
                .setFlexGrow(0);
        restoreColumn.setVisible(false);
        lendings.setId("job-colocation");
        lendings.setAllRowsVisible(true);
        lendings.setEmptyStateText("This job has not lent GPUs to inference.");
        lendings.addColumn(e -> Format.shortTime(e.openedAt(), UiSession.zone()))
                .setHeader("Shrunk")
                .setAutoWidth(true);
        lendings.addColumn(e -> e.closedAt() == null ? "lending now" : Format.shortTime(e.closedAt(), UiSession.zone()))
                .setHeader("Grown back")
                .setAutoWidth(true);
        lendings.addColumn(e -> e.gpusLentNow() > 0 ? e.gpusLentNow() + " now" : e.maxGpusLent() + " at most")
                .setHeader("GPUs lent")
                .setAutoWidth(true);
        lendings.addColumn(e -> Format.gpuHours(e.gpuHoursYielded()))
                .setHeader("GPU-hours yielded")
                .setAutoWidth(true);
        lendings.addColumn(
                        e -> Format.gpuHours(e.reworkGpuHours()) + (e.checkpointFirst() ? " (checkpoint first)" : ""))
                .setHeader("Rework lost")
                .setFlexGrow(1);
        entries.setId("job-timeline-entries");
        entries.addThemeVariants(GridVariant.LUMO_COMPACT);
        // A long history scrolls inside the grid, which renders only the rows in view.
        entries.setHeight("24rem");
        entries.setEmptyStateText("No timeline entries in this window.");
        entries.addColumn(e -> Format.time(e.time(), UiSession.zone()))
                .setHeader("Time")
                .setAutoWidth(true);
        entries.addColumn(e -> Format.words(e.kind())).setHeader("Kind").setAutoWidth(true);
        entries.addColumn(TimelineEntry::type).setHeader("Type").setAutoWidth(true);
        entries.addColumn(TimelineEntry::summary).setHeader("What happened").setFlexGrow(1);
        entries.addColumn(e -> Format.text(e.incidentId()))
                .setHeader("Incident")
                .setAutoWidth(true);
        rounds.setId("job-rounds");
        rounds.setEmptyStateText("No rendezvous reported yet.");
        rounds.addThemeVariants(GridVariant.LUMO_COMPACT);
        rounds.setAllRowsVisible(true);
        rounds.addColumn(r -> Format.time(r.time(), UiSession.zone()))
                .setHeader("Formed")
                .setAutoWidth(true);
        rounds.addColumn(RendezvousRound::round).setHeader("Round");
        rounds.addColumn(RendezvousRound::worldSize).setHeader("World size");
        rounds.addColumn(RendezvousRound::nodeCount).setHeader("Nodes");
        rounds.addColumn(r -> Format.text(r.runId())).setHeader("Run");
    }

    private com.vaadin.flow.component.Component restoreButton(CheckpointView c) {
        if (shown == null || !c.good() || !UiSession.mayActOnJob(shown.namespace()) || !actions.available()) {
            return new Span();
        }
        Button b = new Button("Restore…", e -> dialog(ActionKind.RESTORE, Map.of("checkpointId", c.id())));
        b.addThemeVariants(ButtonVariant.LUMO_SMALL, ButtonVariant.LUMO_TERTIARY);
        b.addClassName("ll-restore");
        return b;
    }

    /** The timeline entries listed so far, for tests. */
    public List<TimelineEntry> listedEntries() {
        return List.copyOf(listed);
    }

    /** The model shown, for tests. */
    public JobDetailModel shown() {
        return shown;
    }

    /** The objectives shown in the "Objective" section (null before the first read), for tests. */
    List<io.lifeline.domain.objective.ObjectiveStatus> shownObjectives() {
        return objective.shown();
    }
}
