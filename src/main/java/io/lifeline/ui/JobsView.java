package io.lifeline.ui;

import com.vaadin.flow.component.checkbox.Checkbox;
import com.vaadin.flow.component.combobox.ComboBox;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.orderedlayout.FlexComponent;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.component.textfield.TextField;
import com.vaadin.flow.data.renderer.ComponentRenderer;
import com.vaadin.flow.data.value.ValueChangeMode;
import com.vaadin.flow.router.BeforeEnterEvent;
import com.vaadin.flow.router.BeforeEnterObserver;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import io.lifeline.domain.job.JobState;
import io.lifeline.ui.data.DashboardData;
import io.lifeline.ui.data.DashboardSnapshot;
import io.lifeline.ui.data.JobRow;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every job in one grid. The grid is lazy: it asks the presenter for the rows it shows, from the snapshot all tabs
 * share, so no tab keeps its own list; a new snapshot refreshes it only when the filtered rows changed. The filters
 * live in the URL ({@code ?q=&state=&namespace=&stale=1&incident=1}); Enter on a row opens the job, as a click does.
 */
@Route(value = "jobs", layout = MainLayout.class)
@PageTitle("Jobs · Lifeline")
public class JobsView extends VerticalLayout implements BeforeEnterObserver {

    private final TextField search = new TextField();
    private final ComboBox<JobState> state = new ComboBox<>("State");
    private final ComboBox<String> namespace = new ComboBox<>("Namespace");
    private final Checkbox breached = new Checkbox("Stale checkpoint");
    private final Checkbox incident = new Checkbox("Open incident");
    private final Grid<JobRow> grid = new Grid<>();
    private final Span count = new Span();
    private int shownHash;
    private String wantNamespace;
    private boolean restoring;
    private DashboardSnapshot snapshot = DashboardSnapshot.EMPTY;

    @Inject
    public JobsView(DashboardData data) {
        addClassName("ll-page");
        setSizeFull();
        search.setId("job-search");
        search.setLabel("Search");
        search.setPlaceholder("namespace/name");
        search.setClearButtonVisible(true);
        search.setValueChangeMode(ValueChangeMode.LAZY);
        state.setId("job-state");
        state.setItems(JobState.values());
        state.setItemLabelGenerator(Format::words);
        state.setClearButtonVisible(true);
        namespace.setId("job-namespace");
        namespace.setClearButtonVisible(true);
        breached.setId("job-breached");
        incident.setId("job-incident");
        search.addValueChangeListener(e -> changed());
        state.addValueChangeListener(e -> changed());
        namespace.addValueChangeListener(e -> changed());
        breached.addValueChangeListener(e -> changed());
        incident.addValueChangeListener(e -> changed());
        count.setId("job-count");
        count.addClassNames("ll-muted");
        HorizontalLayout filters = new HorizontalLayout(search, state, namespace, breached, incident, count);
        filters.setDefaultVerticalComponentAlignment(FlexComponent.Alignment.BASELINE);
        filters.addClassName("ll-wrap");
        buildGrid();
        add(Ui.title("Jobs"), filters, grid);
        setFlexGrow(1, grid);
        Live.bind(this, data, s -> {
            snapshot = s;
            namespaceItems(s);
            refresh(false);
        });
    }

    private void buildGrid() {
        grid.setId("jobs-grid");
        grid.addThemeVariants(GridVariant.LUMO_COMPACT, GridVariant.LUMO_ROW_STRIPES);
        grid.setSizeFull();
        grid.setMultiSort(true);
        grid.addColumn(JobRow::name)
                .setHeader("Job")
                .setKey("name")
                .setSortable(true)
                .setAutoWidth(true)
                .setFlexGrow(2);
        grid.addColumn(new ComponentRenderer<>(j -> Ui.badge(Format.words(j.state()), stateTheme(j.state()))))
                .setHeader("State")
                .setKey("state")
                .setSortable(true)
                .setAutoWidth(true);
        grid.addColumn(j -> j.worldSize() + " (" + Format.text(j.minWorldSize()) + "–" + Format.text(j.maxWorldSize())
                        + ")")
                .setHeader("World size (min–max)")
                .setKey("world")
                .setSortable(true)
                .setAutoWidth(true);
        grid.addColumn(new ComponentRenderer<>(JobsView::freshnessBadge))
                .setHeader("Checkpoint age / objective")
                .setKey("freshness")
                .setSortable(true)
                .setAutoWidth(true);
        grid.addColumn(j -> Format.percent(j.ettr()))
                .setHeader("ETTR")
                .setKey("ettr")
                .setSortable(true);
        grid.addColumn(j -> Format.gpuHours(j.lostGpuHours()))
                .setHeader("Lost")
                .setKey("lost")
                .setSortable(true)
                .setAutoWidth(true);
        grid.addColumn(JobRow::restarts)
                .setHeader("Restarts")
                .setKey("restarts")
                .setSortable(true);
        grid.addColumn(j -> j.lastIncidentCause() == null
                        ? "—"
                        : Format.words(j.lastIncidentCause())
                                + (j.incidentOpen()
                                        ? " (open)"
                                        : ", " + Format.ago(j.lastIncidentAt(), snapshot.builtAt())))
                .setHeader("Last incident")
                .setKey("incident")
                .setSortable(true)
                .setAutoWidth(true);
        grid.setItems(
                q ->
                        JobsPresenter.page(snapshot.jobs(), query(), q.getSortOrders(), q.getOffset(), q.getLimit())
                                .stream(),
                q -> JobsPresenter.filter(snapshot.jobs(), query(), List.of()).size());
        grid.addItemClickListener(e -> JobDetailView.open(e.getItem().name()));
        Ui.openOnEnter(grid, j -> JobDetailView.open(j.name()));
        grid.setEmptyStateText("No jobs match.");
    }

    private void namespaceItems(DashboardSnapshot s) {
        List<String> ns = JobsPresenter.namespaces(s.jobs());
        String selected = namespace.getValue();
        if (!ns.equals(namespace.getListDataView().getItems().toList())) {
            namespace.setItems(ns);
            if (selected != null && ns.contains(selected)) {
                namespace.setValue(selected);
            }
        }
        if (wantNamespace != null && ns.contains(wantNamespace)) {
            String wanted = wantNamespace;
            wantNamespace = null;
            namespace.setValue(wanted);
        }
    }

    /** Restores the filters from the URL. */
    @Override
    public void beforeEnter(BeforeEnterEvent event) {
        Map<String, List<String>> p = event.getLocation().getQueryParameters().getParameters();
        restoring = true;
        try {
            String q = UrlState.single(p, "q");
            search.setValue(q == null ? "" : q);
            state.setValue(UrlState.enumValue(p, "state", JobState.class));
            breached.setValue(UrlState.flag(p, "stale"));
            incident.setValue(UrlState.flag(p, "incident"));
            wantNamespace = UrlState.single(p, "namespace");
            namespaceItems(snapshot);
        } finally {
            restoring = false;
        }
        refresh(true);
    }

    private void changed() {
        refresh(true);
        if (restoring) {
            return;
        }
        Map<String, String> p = new LinkedHashMap<>();
        p.put("q", search.getValue());
        p.put("state", UrlState.wire(state.getValue()));
        p.put("namespace", namespace.getValue() != null ? namespace.getValue() : wantNamespace);
        p.put("stale", breached.getValue() ? "1" : null);
        p.put("incident", incident.getValue() ? "1" : null);
        UrlState.replace("jobs", p);
    }

    private JobsQuery query() {
        return new JobsQuery(
                search.getValue(), state.getValue(), namespace.getValue(), breached.getValue(), incident.getValue());
    }

    private void refresh(boolean force) {
        List<JobRow> rows = JobsPresenter.filter(snapshot.jobs(), query(), List.of());
        int hash = rows.hashCode();
        if (!force && hash == shownHash) {
            return;
        }
        shownHash = hash;
        count.setText(rows.size() + " of " + snapshot.jobs().size() + " jobs");
        grid.getDataProvider().refreshAll();
    }

    static String stateTheme(JobState s) {
        switch (s) {
            case RUNNING:
            case SUCCEEDED:
                return "success";
            case RECOVERING:
            case FAILED:
                return "error";
            case PENDING:
                return "contrast";
            default:
                return "";
        }
    }

    /**
     * "12 min / 10 min" coloured green below 75 % of the objective, amber below it, red past it; not by colour alone:
     * amber ones start with "!", those past the objective with "✕" (as on the fleet heat map), and the badge's
     * title says it in words.
     */
    static Span freshnessBadge(JobRow j) {
        if (j.checkpointAgeMillis() == null) {
            return Ui.badge("no checkpoint", j.breached() ? "error" : "contrast");
        }
        Double r = j.freshnessRatio();
        int level = j.breached() || r != null && r >= 1 ? 2 : r != null && r >= 0.75 ? 1 : 0;
        String text = Format.duration(j.checkpointAgeMillis()) + " / " + Format.duration(j.objectiveMillis());
        Span b = Ui.badge((level == 2 ? "✕ " : level == 1 ? "! " : "") + text, Ui.level(level));
        b.getElement()
                .setAttribute(
                        "title",
                        level == 2
                                ? "past the objective"
                                : level == 1 ? "nearing the objective" : "within the objective");
        b.getElement().setAttribute("data-level", String.valueOf(level));
        return b;
    }

    /** The grid, for tests. */
    public Grid<JobRow> grid() {
        return grid;
    }
}
