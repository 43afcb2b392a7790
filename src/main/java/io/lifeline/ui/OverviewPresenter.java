package io.lifeline.ui;

import io.lifeline.domain.fleet.NodeLifecycle;
import io.lifeline.domain.fleet.NodeNotice;
import io.lifeline.domain.fleet.NodeSummary;
import io.lifeline.ui.data.CauseStat;
import io.lifeline.ui.data.DashboardSnapshot;
import io.lifeline.ui.data.EttrHistory;
import io.lifeline.ui.data.JobRow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Derives the {@link OverviewModel} from a snapshot and the ETTR history. Pure: no I/O, no Vaadin. */
public final class OverviewPresenter {

    private OverviewPresenter() {}

    public static OverviewModel present(DashboardSnapshot s, EttrHistory history) {
        EttrHistory.Window day = history.window(s.builtAt(), Duration.ofDays(1), s.fleetGoodput());
        EttrHistory.Window week = history.window(s.builtAt(), Duration.ofDays(7), s.fleetGoodput());
        int gpus = 0;
        for (NodeSummary n : s.nodes()) {
            gpus += n.gpuCount();
        }
        int active = (int) s.jobs().stream().filter(j -> j.state().isActive()).count();
        List<JobRow> breaching =
                new ArrayList<>(s.jobs().stream().filter(JobRow::breached).toList());
        breaching.sort(Comparator.comparing(JobRow::freshnessRatio, Comparator.nullsLast(Comparator.reverseOrder())));
        double lost = s.causes7d().stream().mapToDouble(CauseStat::lostGpuHours).sum();
        return new OverviewModel(
                s.builtAt(),
                day,
                week,
                s.nodes().size(),
                gpus,
                active,
                s.openIncidents(),
                s.causes7d(),
                lost,
                List.copyOf(breaching),
                atRisk(s));
    }

    private static List<OverviewModel.NodeAtRisk> atRisk(DashboardSnapshot s) {
        Map<String, NodeNotice> notices = new HashMap<>();
        for (NodeNotice n : s.notices()) {
            notices.put(n.node(), n);
        }
        List<OverviewModel.NodeAtRisk> out = new ArrayList<>();
        for (NodeSummary n : s.nodes()) {
            NodeNotice notice = notices.get(n.name());
            String why = null;
            if (notice != null && notice.notice() != null) {
                why = Format.words(notice.notice().kind());
            } else if (n.state() == NodeLifecycle.DRAINING) {
                why = "draining";
            } else if (n.cordoned() && n.state() != NodeLifecycle.TERMINATED) {
                why = "cordoned";
            }
            if (why != null) {
                out.add(new OverviewModel.NodeAtRisk(
                        n.name(),
                        n.pool(),
                        Format.words(n.state()),
                        why,
                        notice == null || notice.notice() == null
                                ? null
                                : notice.notice().deadline(),
                        s.jobsByNode().getOrDefault(n.name(), List.of())));
            }
        }
        out.sort(Comparator.comparing(
                OverviewModel.NodeAtRisk::deadline, Comparator.nullsLast(Comparator.naturalOrder())));
        return List.copyOf(out);
    }
}
