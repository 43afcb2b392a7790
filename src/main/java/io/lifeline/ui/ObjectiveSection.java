package io.lifeline.ui;

import com.vaadin.flow.component.html.Anchor;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.theme.lumo.LumoUtility;
import io.lifeline.domain.objective.ObjectiveStatus;
import java.util.List;

/**
 * The job page's "Objective" section: each goodput objective the job is under (its scope held the job at the last
 * sample), with its state, ETTR against the target and the budget left, and a link to the Objectives page. Hidden
 * while the job is under none.
 */
final class ObjectiveSection extends Div {

    private final Div rows = new Div();
    private List<ObjectiveStatus> shown;

    ObjectiveSection() {
        setId("job-objective");
        addClassName("ll-card");
        H2 h = new H2("Objective");
        h.addClassNames(LumoUtility.FontSize.MEDIUM, LumoUtility.Margin.Top.NONE);
        add(h, rows);
        setVisible(false);
    }

    /** Shows {@code objectives} of {@code job}; none hides the section. */
    void show(String job, List<ObjectiveStatus> objectives) {
        if (objectives.equals(shown)) {
            return;
        }
        shown = objectives;
        rows.removeAll();
        setVisible(!objectives.isEmpty());
        for (ObjectiveStatus s : objectives) {
            Div row = new Div();
            row.addClassName("job-objective-row");
            row.getElement().setAttribute("data-objective", s.objective().name());
            Span badge = Ui.badge(ObjectivesPresenter.state(s.state()), ObjectivesPresenter.theme(s.state()));
            badge.getElement().setAttribute("data-state", s.state().wire());
            Span name = new Span(s.objective().name());
            name.addClassNames(LumoUtility.FontWeight.SEMIBOLD);
            row.add(
                    name,
                    new Span(" "),
                    badge,
                    new Span(" · " + ObjectivesPresenter.headline(s.objective()) + " · ETTR "
                            + ObjectivesPresenter.ettr(s) + " · budget " + left(s) + " · burn 1h "
                            + ObjectivesPresenter.rate(s.burnRates().get("1h")) + ", 6h "
                            + ObjectivesPresenter.rate(s.burnRates().get("6h"))));
            rows.add(row);
        }
        Anchor more = new Anchor(ObjectivesPresenter.objectivesHref(job), "See them on the Objectives page");
        more.setId("job-objective-link");
        rows.add(new Div(more));
    }

    /** "27.7 GPU-h left (69 %)" or "overspent by 3.0 GPU-h". */
    static String left(ObjectiveStatus s) {
        if (s.remainingGpuHours() < 0) {
            return "overspent by " + Format.gpuHours(-s.remainingGpuHours());
        }
        Double share = s.remainingShare();
        return Format.gpuHours(s.remainingGpuHours()) + " left"
                + (share == null ? "" : String.format(java.util.Locale.ENGLISH, " (%.0f %%)", share * 100));
    }

    List<ObjectiveStatus> shown() {
        return shown;
    }
}
