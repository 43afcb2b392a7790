package io.lifeline.ui;

import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.orderedlayout.FlexComponent;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.select.Select;
import com.vaadin.flow.theme.lumo.LumoUtility;
import io.lifeline.domain.job.incident.RecoveryPhase;
import io.lifeline.domain.job.recoverytime.PhaseGroupBy;
import io.lifeline.domain.job.recoverytime.RecoveryPhaseReport;
import io.lifeline.domain.job.recoverytime.RecoveryPhaseRow;
import io.lifeline.security.RecoveryPhaseReads;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Reliability page's "Recovery time by phase": for the interruptions of the signed-in caller's jobs that closed in
 * the last 7 or 30 days, per cause, pool or both, each phase's median and 90th percentile and a stacked bar of the
 * medians. Read through the same {@link RecoveryPhaseReads} as {@code GET /api/v1/reliability/recovery-phases}; its
 * window and grouping live in the page's URL ({@code phasesWindow}, {@code phasesBy}).
 */
final class RecoveryPhasesSection extends Div {

    private final ModelReads reads;
    private final Runnable changed;
    private final Select<String> window = new Select<>();
    private final Select<PhaseGroupBy> by = new Select<>();
    private final Span summary = new Span();
    private final Div status = new Div();
    private final Grid<RecoveryPhaseRow> grid = new Grid<>();
    private final H2 chartTitle = new H2("Median seconds by phase");
    private final EChart chart = new EChart("320px");
    private boolean restoring;
    private RecoveryPhaseReport report;
    private boolean reading;
    private boolean again;

    /** A section that reads through {@code reads} and calls {@code changed} when a selector changes. */
    RecoveryPhasesSection(ModelReads reads, Runnable changed) {
        this.reads = reads;
        this.changed = changed;
        setId("rel-phases");
        addClassName("ll-card");
        setWidthFull();
        window.setId("rel-phases-window");
        window.setLabel("Window");
        window.setItems(RecoveryPhaseReads.WINDOWS);
        window.setItemLabelGenerator(ReliabilityPresenter::windowLabel);
        window.setValue(RecoveryPhaseReads.DEFAULT_WINDOW);
        by.setId("rel-phases-by");
        by.setLabel("Group by");
        by.setItems(PhaseGroupBy.values());
        by.setItemLabelGenerator(RecoveryPhasesPresenter::label);
        by.setValue(PhaseGroupBy.CAUSE);
        for (Select<?> s : List.of(window, by)) {
            s.addValueChangeListener(e -> {
                if (!restoring) {
                    this.changed.run();
                    reload();
                }
            });
        }
        summary.setId("rel-phases-summary");
        summary.addClassNames("ll-muted");
        status.setId("rel-phases-status");
        HorizontalLayout filters = new HorizontalLayout(window, by, summary);
        filters.setDefaultVerticalComponentAlignment(FlexComponent.Alignment.BASELINE);
        filters.addClassName("ll-wrap");

        grid.setId("rel-phases-grid");
        grid.addThemeVariants(
                GridVariant.LUMO_COMPACT, GridVariant.LUMO_ROW_STRIPES, GridVariant.LUMO_WRAP_CELL_CONTENT);
        grid.setAllRowsVisible(true);
        grid.setWidthFull();
        grid.addColumn(RecoveryPhasesPresenter::group)
                .setKey("group")
                .setHeader("Cause")
                .setAutoWidth(true)
                .setFlexGrow(1);
        grid.addColumn(RecoveryPhaseRow::incidents)
                .setHeader("Interruptions")
                .setWidth("7em")
                .setFlexGrow(0);
        for (RecoveryPhase p : RecoveryPhase.values()) {
            grid.addColumn(r -> RecoveryPhasesPresenter.cell(r, p))
                    .setKey(p.wire())
                    .setHeader(RecoveryPhasesPresenter.phase(p) + " p50 / p90")
                    .setWidth("8em")
                    .setFlexGrow(1);
        }
        grid.addColumn(RecoveryPhasesPresenter::gpuHours)
                .setHeader("GPU-hours")
                .setWidth("7em")
                .setFlexGrow(0);

        H2 title = new H2("Recovery time by phase");
        title.addClassNames(LumoUtility.FontSize.MEDIUM, LumoUtility.Margin.Top.NONE);
        chartTitle.addClassNames(LumoUtility.FontSize.SMALL, LumoUtility.Margin.Top.MEDIUM);
        chart.setId("rel-phases-chart");
        Paragraph how = new Paragraph(
                "Detection until the interruption was known and acted on (a hang's decision apart),"
                        + " rescheduling off the nodes and back, rendezvous of the restarted workers, restore until the first"
                        + " step, and the progress thrown away since the last checkpoint. Each cell: median / 90th percentile.");
        how.addClassNames("ll-muted", LumoUtility.FontSize.SMALL);
        add(title, filters, how, status, grid, chartTitle, chart);
    }

    /** Restores the window and grouping from the page's URL parameters; unknown values keep the defaults. */
    void restore(Map<String, List<String>> params) {
        restoring = true;
        try {
            String w = UrlState.single(params, "phasesWindow");
            window.setValue(
                    w != null && RecoveryPhaseReads.WINDOWS.contains(w) ? w : RecoveryPhaseReads.DEFAULT_WINDOW);
            by.setValue(PhaseGroupBy.parse(UrlState.single(params, "phasesBy")).orElse(PhaseGroupBy.CAUSE));
        } finally {
            restoring = false;
        }
    }

    /** Puts the section's URL parameters into {@code params} (defaults left out). */
    void remember(Map<String, String> params) {
        params.put(
                "phasesWindow", RecoveryPhaseReads.DEFAULT_WINDOW.equals(window.getValue()) ? null : window.getValue());
        params.put(
                "phasesBy",
                by.getValue() == null || by.getValue() == PhaseGroupBy.CAUSE
                        ? null
                        : by.getValue().wire());
    }

    /** Reads the report off the UI thread; a change while a read runs reads again after it. */
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
        int days = RecoveryPhaseReads.windowDays(window.getValue()).orElse(7);
        PhaseGroupBy group = by.getValue() == null ? PhaseGroupBy.CAUSE : by.getValue();
        reads.recoveryPhases(UiSession.scope(), days, group).whenComplete((r, ex) -> {
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

    private void show(RecoveryPhaseReport r, Throwable ex) {
        status.removeAll();
        if (ex != null) {
            status.add(Ui.error("Could not read the recovery phases: " + AlertsGateway.message(ex)));
            return;
        }
        if (r.equals(report)) {
            return;
        }
        report = r;
        grid.getColumnByKey("group").setHeader(RecoveryPhasesPresenter.label(r.groupBy()));
        grid.setItems(RecoveryPhasesPresenter.rows(r));
        summary.setText(RecoveryPhasesPresenter.summary(r, UiSession.zone()));
        boolean any = r.all().incidents() > 0;
        if (!any) {
            status.add(Ui.empty("No interruption closed in this window"
                    + (UiSession.scope().isEverything() ? "." : " among your jobs.")));
        }
        chartTitle.setText("Median seconds by phase, per "
                + RecoveryPhasesPresenter.label(r.groupBy()).toLowerCase(Locale.ROOT)
                + " (stacked: a sum of medians, not the median recovery)");
        chartTitle.setVisible(any);
        chart.setVisible(any);
        chart.setDescription(RecoveryPhasesPresenter.describe(r));
        chart.setOption(RecoveryPhasesPresenter.chart(r));
    }

    /** The report shown, for tests. */
    RecoveryPhaseReport report() {
        return report;
    }

    Grid<RecoveryPhaseRow> grid() {
        return grid;
    }

    Select<String> windowSelect() {
        return window;
    }

    Select<PhaseGroupBy> bySelect() {
        return by;
    }

    EChart chart() {
        return chart;
    }
}
