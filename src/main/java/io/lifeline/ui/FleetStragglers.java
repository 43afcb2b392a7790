package io.lifeline.ui;

import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.html.ListItem;
import com.vaadin.flow.component.html.UnorderedList;
import io.lifeline.domain.job.straggler.Straggler;
import io.lifeline.domain.job.straggler.StragglerView;
import io.lifeline.ui.data.JobRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The fleet view's list of jobs held back by a straggler: the job, the slow node and rank, the GPU-hours lost. */
final class FleetStragglers extends Div {

    private List<String> shown;

    FleetStragglers() {
        setId("fleet-stragglers");
    }

    void show(List<JobRow> jobs) {
        List<String> lines = lines(jobs);
        if (lines.equals(shown)) {
            return;
        }
        shown = lines;
        removeAll();
        if (lines.isEmpty()) {
            add(Ui.empty("No job is held back by a straggler."));
            return;
        }
        UnorderedList list = new UnorderedList();
        lines.forEach(l -> list.add(new ListItem(l)));
        add(list);
    }

    /** One line per job with stragglers, the most costly first. */
    static List<String> lines(List<JobRow> jobs) {
        List<JobRow> held = new ArrayList<>();
        for (JobRow j : jobs) {
            if (j.stragglers() != null && !j.stragglers().stragglers().isEmpty()) {
                held.add(j);
            }
        }
        held.sort((a, b) ->
                Double.compare(b.stragglers().gpuHoursLost(), a.stragglers().gpuHoursLost()));
        List<String> out = new ArrayList<>(held.size());
        for (JobRow j : held) {
            StragglerView v = j.stragglers();
            Straggler s = v.stragglers().get(0);
            out.add(String.format(
                    Locale.ENGLISH,
                    "%s: rank %d on %s (GPU %s) at %.2fx its peers' step time%s; %s lost",
                    j.name(),
                    s.rank(),
                    s.node() == null ? "an unknown node" : s.node(),
                    s.gpuIndex() == null ? "?" : s.gpuIndex(),
                    s.slowdown(),
                    v.stragglers().size() > 1 ? " (+" + (v.stragglers().size() - 1) + " more)" : "",
                    Format.gpuHours(v.gpuHoursLost())));
        }
        return out;
    }
}
