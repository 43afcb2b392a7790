package io.lifeline.ui;

import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.html.ListItem;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.html.UnorderedList;
import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.action.ActionRequest;
import io.lifeline.domain.job.straggler.Straggler;
import io.lifeline.domain.job.straggler.StragglerView;
import io.lifeline.domain.job.straggler.SuggestedDrain;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The job page's "Stragglers" section: the ranks persistently slower than their peers, where they run, what they
 * cost, and the drain of the slowest one's node to start.
 */
final class StragglerSection extends Div {

    private final ActionsGateway actions;
    private StragglerView shown;

    StragglerSection(ActionsGateway actions) {
        this.actions = actions;
        setId("job-stragglers");
    }

    /** Shows {@code v} (null: nothing reported) for a job of {@code namespace}. */
    void show(StragglerView v, String namespace) {
        if (v != null && v.equals(shown)) {
            return;
        }
        shown = v;
        removeAll();
        if (v == null || v.windows() == 0) {
            add(Ui.empty("No step times reported yet (the trainer agent sends them from every rank)."));
            return;
        }
        if (v.stragglers().isEmpty()) {
            add(new Div(Ui.badge("No straggler", "success"), new Span(" " + lines(v).get(0))));
            return;
        }
        add(new Div(
                Ui.badge(
                        "! " + v.stragglers().size() + " straggling rank"
                                + (v.stragglers().size() == 1 ? "" : "s"),
                        "error"),
                new Span(" " + lines(v).get(0))));
        UnorderedList list = new UnorderedList();
        list.setId("job-stragglers-list");
        for (String line : lines(v).subList(1, lines(v).size())) {
            list.add(new ListItem(line));
        }
        add(list);
        SuggestedDrain d = v.suggestion();
        if (d != null && UiSession.mayActOnNodes() && actions.available()) {
            Button drain = new Button(
                    "Drain " + d.node() + "…",
                    e -> new ActionDialog(
                                    actions,
                                    new ActionRequest(ActionKind.DRAIN, d.node(), Map.of(), d.reason()),
                                    UiSession.caller())
                            .start());
            drain.setId("job-stragglers-drain");
            Span note = new Span(
                    d.withinElasticBounds()
                            ? " the job shrinks to the nodes that keep pace"
                            : " the job is at its elastic minimum: it stops until a replacement node joins");
            note.addClassNames("ll-muted");
            add(new Div(drain, note));
        }
    }

    /** What the section says: a headline, then one line per straggler (plain text, for tests and screen readers). */
    static List<String> lines(StragglerView v) {
        List<String> out = new ArrayList<>();
        out.add(String.format(
                Locale.ENGLISH,
                "%d ranks reporting, median step %s; %s lost to stragglers",
                v.ranksReporting(),
                v.medianStepSeconds() == null ? "—" : seconds(v.medianStepSeconds()),
                Format.gpuHours(v.gpuHoursLost())));
        for (Straggler s : v.stragglers()) {
            out.add(String.format(
                    Locale.ENGLISH,
                    "rank %d on %s, GPU %s: %s per step, %.2fx the median of its peers" + " (%s), slow since %s",
                    s.rank(),
                    s.node() == null ? "an unknown node" : s.node(),
                    s.gpuIndex() == null ? "?" : s.gpuIndex(),
                    seconds(s.stepSeconds()),
                    s.slowdown(),
                    seconds(s.peerMedianSeconds()),
                    s.slowSince() == null ? "—" : Format.shortTime(s.slowSince(), UiSession.zone())));
        }
        return out;
    }

    private static String seconds(double s) {
        return String.format(Locale.ENGLISH, "%.3f s", s);
    }
}
