package io.lifeline.ui;

import io.lifeline.domain.fleet.NodeLifecycle;
import io.lifeline.domain.fleet.NodeNotice;
import io.lifeline.domain.fleet.NodeSummary;
import io.lifeline.domain.replay.FleetCounterfactual;
import io.lifeline.ui.data.CauseStat;
import io.lifeline.ui.data.DashboardSnapshot;
import io.lifeline.ui.data.EttrHistory;
import io.lifeline.ui.data.JobRow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Derives the {@link OverviewModel} from a snapshot and the ETTR history. Pure: no I/O, no Vaadin. */
public final class OverviewPresenter {

    private OverviewPresenter() {}

    public static OverviewModel present(DashboardSnapshot s, EttrHistory history, FleetCounterfactual gain) {
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
                atRisk(s),
                gain == null ? FleetCounterfactual.none(null) : gain);
    }

    /** The headline: ETTR with Lifeline and without its actions, on the same history. */
    static String gainFigure(FleetCounterfactual g) {
        if (g.computedAt() == null) {
            return "Replaying the recent jobs' interruptions without Lifeline's actions…";
        }
        if (g.ettrWith() == null) {
            return "No job has held GPUs yet: nothing to compare.";
        }
        return "ETTR with Lifeline " + percent2(g.ettrWith()) + " / without Lifeline's actions "
                + percent2(g.ettrWithout()) + " (same history)";
    }

    /** What the difference is worth, and over which jobs. */
    static String gainWorth(FleetCounterfactual g) {
        if (g.computedAt() == null || g.ettrWith() == null) {
            return "";
        }
        String jobs = g.jobs() + (g.jobs() == 1 ? " recent job, " : " recent jobs, ") + g.jobsNoticed()
                + " with an interruption notice";
        if (g.jobsActed() == 0) {
            return "No gain counted: " + jobs + ", none under the notice policy.";
        }
        double points = (g.ettrWith() - g.ettrWithout()) * 100;
        return String.format(
                Locale.ENGLISH,
                "%+.2f points: %s of training kept (%s) over %s.",
                points,
                Format.gpuHours(g.keptGpuHours()),
                Format.duration(Math.round(g.keptHours() * 3_600_000)),
                jobs);
    }

    /** What the counterfactual assumes, and whether Lifeline acted at all. */
    static String gainCaption(FleetCounterfactual g) {
        StringBuilder b = new StringBuilder(
                "Without: the same interruptions replayed through the what-if simulator with the notice policy off "
                        + "(no save at the notice, no drain), at each job's own checkpoint interval and measured "
                        + "checkpoint cost; the training the replay finds the policy kept is taken off the measured "
                        + "ETTR. Other actions (fatal-XID drains, regrowth, co-location) are not counted. ");
        String mode = g.noticePolicyMode();
        if ("on".equals(mode)) {
            b.append("The notice policy (notice-checkpoint-drain) is on here: Lifeline acted on the notices.");
        } else if (mode != null) {
            b.append("The notice policy (notice-checkpoint-drain) is ")
                    .append(mode)
                    .append(" here: Lifeline recorded what it would do but did not act, so no gain is counted.");
        }
        for (String n : g.notes()) {
            if (g.computedAt() != null) {
                b.append(' ')
                        .append(Character.toUpperCase(n.charAt(0)))
                        .append(n.substring(1))
                        .append('.');
            }
        }
        return b.toString();
    }

    private static String percent2(Double ratio) {
        return ratio == null ? "—" : String.format(Locale.ENGLISH, "%.2f %%", ratio * 100);
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
