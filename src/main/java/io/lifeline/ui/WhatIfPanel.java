package io.lifeline.ui;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.radiobutton.RadioButtonGroup;
import com.vaadin.flow.component.textfield.TextField;
import com.vaadin.flow.theme.lumo.LumoUtility;
import io.lifeline.domain.replay.WhatIfReport;
import io.lifeline.domain.replay.WhatIfRequest;
import io.lifeline.domain.replay.WhatIfRow;
import io.lifeline.runtime.WhatIfService;
import jakarta.enterprise.inject.spi.CDI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The job page's "What if" panel: the job's interruptions replayed at the intervals asked for (and the advised one),
 * with the notice policy off and on, drawn as ETTR against the interval with the current and advised intervals marked,
 * and the rows side by side with what happened. It replays only when asked (a replay costs CPU), through the same
 * service as {@code POST /api/v1/whatif}.
 */
final class WhatIfPanel extends Div {

    /** The notice policy settings offered; each is the list of settings replayed. */
    enum Notice {
        BOTH("Off and on", List.of(false, true)),
        ON("On", List.of(true)),
        OFF("Off", List.of(false));

        final String label;

        @SuppressWarnings("ImmutableEnumChecker") // always a List.of, which cannot change
        final List<Boolean> settings;

        Notice(String label, List<Boolean> settings) {
            this.label = label;
            this.settings = settings;
        }
    }

    private final Supplier<String> job;
    private final TextField intervals = new TextField("Intervals (seconds)");
    private final RadioButtonGroup<Notice> notice = new RadioButtonGroup<>("Notice policy");
    private final Button run = new Button("Run what-if");
    private final EChart chart = new EChart("300px");
    private final Grid<WhatIfRow> table = new Grid<>();
    private final Div state = new Div();
    /** The job whose answer is shown (the view is reused when another job is opened). */
    private String shownJob;

    WhatIfPanel(Supplier<String> job) {
        this.job = job;
        setId("job-whatif");
        addClassNames("ll-card");
        H2 h = new H2("What if");
        h.setId("job-whatif-title");
        h.addClassNames(LumoUtility.FontSize.MEDIUM, LumoUtility.Margin.Top.NONE);
        getElement().setAttribute("role", "region");
        getElement().setAttribute("aria-labelledby", "job-whatif-title");
        intervals.setId("whatif-intervals");
        intervals.setValue("300, 900, 1800");
        intervals.setWidth("24em");
        intervals.setHelperText("Training time between two saves, separated by commas; the advised interval is added");
        intervals.setErrorMessage("Numbers of seconds above zero, separated by commas");
        notice.setId("whatif-notice");
        notice.setItems(Notice.values());
        notice.setItemLabelGenerator(n -> n.label);
        notice.setValue(Notice.BOTH);
        run.setId("whatif-run");
        run.addClickListener(e -> replay());
        chart.setId("whatif-chart");
        chart.setVisible(false);
        table.setId("whatif-table");
        table.setAllRowsVisible(true);
        table.setVisible(false);
        table.getElement().setAttribute("aria-label", "What-if scenarios and what happened");
        table.addColumn(WhatIfRow::name)
                .setHeader("Scenario")
                .setAutoWidth(true)
                .setFlexGrow(1);
        number("ETTR", r -> Format.percent(r.ettr()));
        number("Model ETTR", r -> Format.percent(r.modelEttr()));
        number("ETTR of wall", r -> Format.percent(r.ettrOfWall()));
        number("Lost rework", r -> hours(r.lostReworkHours()));
        number("Recovery", r -> hours(r.recoveryHours()));
        number("GPU-h lost", r -> Format.gpuHours(r.lostGpuHours()));
        number("Cost", r -> r.lostCost() == null ? "no price" : String.format(Locale.ENGLISH, "%,.2f", r.lostCost()));
        state.setId("whatif-state");
        // Announced when a replay starts, ends or fails, without moving the focus.
        state.getElement().setAttribute("role", "status");
        state.getElement().setAttribute("aria-live", "polite");
        Div controls = new Div(intervals, notice, run);
        controls.addClassNames("ll-toolbar");
        add(h, controls, state, chart, table);
    }

    private void number(String header, com.vaadin.flow.function.ValueProvider<WhatIfRow, String> value) {
        table.addColumn(value)
                .setHeader(header)
                .setAutoWidth(true)
                .setFlexGrow(0)
                .setTextAlign(com.vaadin.flow.component.grid.ColumnTextAlign.END);
    }

    /** Forgets an answer about another job than {@code name}. */
    void show(String name) {
        if (shownJob != null && !shownJob.equals(name)) {
            shownJob = null;
            chart.setVisible(false);
            table.setVisible(false);
            table.setItems(List.of());
            say("", false);
        }
    }

    /** The intervals typed, or null when the text is not a list of positive numbers. */
    static List<Double> intervals(String text) {
        List<Double> out = new ArrayList<>();
        for (String s : text == null ? new String[0] : text.split("[,;\\s]+")) {
            if (s.isBlank()) {
                continue;
            }
            try {
                double v = Double.parseDouble(s);
                if (!(v > 0) || Double.isInfinite(v)) {
                    return null;
                }
                out.add(v);
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return out;
    }

    private void replay() {
        String name = job.get();
        UI ui = UI.getCurrent();
        if (name == null || ui == null || name.indexOf('/') <= 0) {
            return;
        }
        if (!UiSession.scope().allowsNamespace(name.substring(0, name.indexOf('/')))) {
            say("Your scope does not include the namespace of " + name + ".", true);
            return;
        }
        List<Double> taus = intervals(intervals.getValue());
        intervals.setInvalid(taus == null);
        if (taus == null) {
            say("Intervals: numbers of seconds above zero, separated by commas.", true);
            return;
        }
        List<Boolean> settings = (notice.getValue() == null ? Notice.BOTH : notice.getValue()).settings;
        run.setEnabled(false);
        say("Replaying " + name + "…", false);
        try {
            WhatIfService service = CDI.current().select(WhatIfService.class).get();
            service.job(name, new WhatIfRequest(taus, true, null, null, null, settings, List.of()))
                    .whenComplete((r, ex) -> {
                        Ui.access(ui, () -> {
                            run.setEnabled(true);
                            if (!name.equals(job.get())) {
                                say("", false);
                            } else if (ex != null) {
                                say("Could not replay: " + reason(ex), true);
                            } else if (r.isEmpty()) {
                                say("No job " + name + " is known.", true);
                            } else {
                                render(name, r.get());
                            }
                        });
                    });
        } catch (RuntimeException e) {
            run.setEnabled(true);
            say("Could not replay: " + reason(e), true);
        }
    }

    private static String reason(Throwable ex) {
        Throwable cause = ex instanceof CompletionException && ex.getCause() != null ? ex.getCause() : ex;
        if (cause instanceof java.util.concurrent.TimeoutException) {
            return "the replay took longer than lifeline.whatif.deadline allows.";
        }
        return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
    }

    private void say(String text, boolean error) {
        state.setText(text);
        state.setClassName("ll-error", error && !text.isEmpty());
        state.setClassName("ll-muted", !error);
    }

    private void render(String name, WhatIfReport r) {
        shownJob = name;
        say(summary(r), false);
        chart.setOption(option(r));
        chart.setDescription(describe(r));
        chart.setVisible(true);
        table.setItems(r.rows());
        table.setVisible(true);
    }

    static String summary(WhatIfReport r) {
        return String.format(
                Locale.ENGLISH,
                "%d scenarios replayed through the model in %d ms; %d interruptions, %d GPUs; "
                        + "current interval %s, advised %s.%s",
                r.rows().size() - 1,
                r.elapsedMillis(),
                r.rows().get(0).interruptions(),
                r.gpus(),
                Format.seconds(r.currentIntervalSeconds()),
                Format.seconds(r.advisedIntervalSeconds()),
                r.notes().isEmpty() ? "" : " " + String.join(" ", r.notes()));
    }

    private static String hours(double h) {
        return String.format(Locale.ENGLISH, "%.2f h", h);
    }

    /** The replayed rows with {@code notice} set and an ETTR, by interval. */
    private static List<WhatIfRow> line(WhatIfReport r, boolean notice) {
        return r.rows().stream()
                .filter(x -> !x.actual()
                        && Boolean.valueOf(notice).equals(x.noticePolicy())
                        && x.intervalSeconds() != null
                        && x.ettr() != null)
                .sorted(Comparator.comparing(WhatIfRow::intervalSeconds))
                .toList();
    }

    /** The chart in words, for screen readers. */
    static String describe(WhatIfReport r) {
        StringBuilder b = new StringBuilder("ETTR against the checkpoint interval");
        for (boolean notice : new boolean[] {false, true}) {
            List<WhatIfRow> rows = line(r, notice);
            if (!rows.isEmpty()) {
                b.append("; notice policy ")
                        .append(notice ? "on" : "off")
                        .append(": ")
                        .append(rows.stream()
                                .map(x -> Format.seconds(x.intervalSeconds()) + " " + Format.percent(x.ettr()))
                                .collect(Collectors.joining(", ")));
            }
        }
        if (r.currentIntervalSeconds() != null) {
            b.append("; current interval ").append(Format.seconds(r.currentIntervalSeconds()));
        }
        if (r.advisedIntervalSeconds() != null) {
            b.append("; advised ").append(Format.seconds(r.advisedIntervalSeconds()));
        }
        return b.append('.').toString();
    }

    /**
     * ETTR against τ, one line per notice setting (told apart by dash and symbol as well as colour), the current and
     * advised intervals marked as vertical lines on the first.
     */
    static String option(WhatIfReport r) {
        ObjectNode o = Charts.base();
        o.putObject("tooltip").put("trigger", "axis");
        o.putObject("legend").put("top", 0);
        o.putObject("grid").put("left", 56).put("right", 24).put("top", 64).put("bottom", 40);
        o.putObject("xAxis")
                .put("type", "value")
                .put("name", "interval (s)")
                .put("nameLocation", "middle")
                .put("nameGap", 26)
                .put("scale", true);
        o.putObject("yAxis").put("type", "value").put("name", "ETTR").put("scale", true);
        ArrayNode series = o.putArray("series");
        for (boolean notice : new boolean[] {false, true}) {
            List<WhatIfRow> rows = line(r, notice);
            if (rows.isEmpty()) {
                continue;
            }
            ObjectNode s = series.addObject()
                    .put("type", "line")
                    .put("name", "notice policy " + (notice ? "on" : "off"))
                    .put("symbol", notice ? "triangle" : "circle")
                    .put("symbolSize", 8)
                    .put("color", notice ? "#e69f00" : "#1676f3");
            s.putObject("lineStyle").put("type", notice ? "dashed" : "solid").put("width", 2);
            ArrayNode data = s.putArray("data");
            rows.forEach(x ->
                    data.addArray().add(Math.round(x.intervalSeconds())).add(Math.round(x.ettr() * 10000) / 10000.0));
            if (series.size() == 1) {
                ObjectNode markLine =
                        s.putObject("markLine").put("symbol", "none").put("silent", true);
                markLine.putObject("lineStyle").put("color", Charts.BODY).put("type", "dotted");
                ArrayNode marks = markLine.putArray("data");
                // Labels one above the other: the two intervals are often close.
                mark(marks, "current", r.currentIntervalSeconds(), 4);
                mark(marks, "advised", r.advisedIntervalSeconds(), 18);
            }
        }
        return Charts.themed(o);
    }

    private static void mark(ArrayNode marks, String name, Double seconds, int distance) {
        if (seconds != null) {
            ObjectNode m = marks.addObject().put("name", name).put("xAxis", Math.round(seconds));
            m.putObject("label")
                    .put("formatter", name)
                    .put("position", "end")
                    .put("distance", distance)
                    .put("color", Charts.TEXT);
        }
    }
}
