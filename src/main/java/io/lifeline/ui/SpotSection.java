package io.lifeline.ui;

import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.html.ListItem;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.html.UnorderedList;
import io.lifeline.domain.job.spot.CapacityCost;
import io.lifeline.domain.job.spot.CapacityInterval;
import io.lifeline.domain.job.spot.CoordinatorNode;
import io.lifeline.domain.job.spot.SpotPlacement;
import io.lifeline.domain.job.spot.SpotReport;
import io.lifeline.domain.job.spot.SpotVerdict;
import java.util.Locale;

/** The job page's "Spot placement" section: the placement flag, the interval per capacity type and the verdict. */
final class SpotSection {

    private SpotSection() {}

    static void render(Div target, SpotReport r) {
        target.removeAll();
        if (r == null) {
            target.add(Ui.empty("Nothing known yet."));
            return;
        }
        SpotPlacement p = r.placement();
        Div flag = new Div();
        flag.setId("job-spot-placement");
        if (p.flagged()) {
            flag.add(Ui.badge("! Coordinator on spot", "error"), new Span(" " + p.warning()));
        } else if (p.coordinators().isEmpty()) {
            flag.add(Ui.badge("No placement", "contrast"), new Span(" the job holds no nodes now."));
        } else {
            flag.add(Ui.badge("Placement OK", "success"), new Span(" " + coordinators(p)));
        }
        target.add(flag);
        UnorderedList intervals = new UnorderedList();
        intervals.setId("job-spot-intervals");
        for (CapacityInterval ci : r.intervals()) {
            intervals.add(new ListItem(
                    "Checkpoint every " + Format.seconds(ci.advice().recommendedSeconds()) + " on " + ci.capacityType()
                            + " (" + rate(ci.interruptionsPerNodeHour()) + ")"));
        }
        target.add(intervals);
        SpotVerdict v = r.verdict();
        Div verdict = new Div();
        verdict.setId("job-spot-verdict");
        String theme = v.cheaper() == SpotVerdict.Choice.ON_DEMAND
                ? "error"
                : v.cheaper() == SpotVerdict.Choice.SPOT ? "success" : "contrast";
        verdict.add(
                Ui.badge("Cheaper per useful GPU-hour: " + Format.words(v.cheaper()), theme),
                new Span(
                        " spot " + cost(v.spot()) + " · on-demand " + cost(v.onDemand()) + " (pool " + v.pool() + ")"));
        target.add(verdict);
        if (v.warning() != null) {
            target.add(Ui.error(v.warning()));
        }
        for (String n : v.notes()) {
            Span note = new Span(n);
            note.addClassNames("ll-muted");
            target.add(new Div(note));
        }
    }

    private static String coordinators(SpotPlacement p) {
        StringBuilder b = new StringBuilder();
        for (CoordinatorNode c : p.coordinators()) {
            if (!b.isEmpty()) {
                b.append("; ");
            }
            b.append(String.join(" and ", c.roles().stream().map(Format::words).toList()))
                    .append(" on ")
                    .append(c.node())
                    .append(" (")
                    .append(c.capacityType() == null ? "unknown capacity" : c.capacityType())
                    .append(")");
        }
        return b.toString();
    }

    private static String rate(Double perNodeHour) {
        return perNodeHour == null
                ? "no exposure observed"
                : String.format(Locale.ENGLISH, "%.3f interruptions per node-hour", perNodeHour);
    }

    private static String cost(CapacityCost c) {
        if (c.costPerUsefulGpuHour() == null) {
            return "unknown";
        }
        return String.format(
                Locale.ENGLISH,
                "%.2f/useful GPU-h (price %.2f, ETTR %s)",
                c.costPerUsefulGpuHour(),
                c.pricePerGpuHour(),
                Format.percent(c.ettr()));
    }
}
