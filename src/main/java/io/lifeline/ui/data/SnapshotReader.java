package io.lifeline.ui.data;

import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.fleet.NodeQuery;
import io.lifeline.domain.fleet.NodeSummary;
import io.lifeline.domain.gpu.GpuView;
import io.lifeline.domain.job.JobDetail;
import io.lifeline.domain.job.JobFilter;
import io.lifeline.domain.job.JobSummary;
import io.lifeline.domain.job.Jobs;
import io.lifeline.domain.job.goodput.GoodputRollup;
import io.lifeline.domain.job.goodput.GoodputView;
import io.lifeline.domain.job.goodput.RollupDimension;
import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.runtime.LiveModel;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Builds a {@link DashboardSnapshot} from the live model; runs on the model thread, keeps no model references. */
final class SnapshotReader {

    private SnapshotReader() {
    }

    static DashboardSnapshot read(LiveModel m, Instant now, long version) {
        List<NodeSummary> nodes = new ArrayList<>(m.fleet().nodes(NodeQuery.all()));
        nodes.sort(Comparator.comparing((NodeSummary n) -> Objects.toString(n.pool(), "~"))
                .thenComparing(n -> Objects.toString(n.zone(), "~")).thenComparing(NodeSummary::name));
        Map<String, List<GpuView>> gpus = new HashMap<>();
        for (GpuView g : m.fleet().gpus()) {
            gpus.computeIfAbsent(g.node(), k -> new ArrayList<>()).add(g);
        }
        gpus.replaceAll((k, v) -> {
            v.sort(Comparator.comparingInt(GpuView::index));
            return List.copyOf(v);
        });
        Map<String, List<String>> jobsByNode = new HashMap<>();
        Jobs jobs = m.jobs();
        for (NodeSummary n : nodes) {
            List<String> on = jobs.jobsOn(n.name());
            if (!on.isEmpty()) {
                jobsByNode.put(n.name(), List.copyOf(on));
            }
        }
        List<JobRow> rows = new ArrayList<>();
        List<IncidentView> open = new ArrayList<>();
        Map<IncidentCause, double[]> day = new EnumMap<>(IncidentCause.class);
        Map<IncidentCause, double[]> week = new EnumMap<>(IncidentCause.class);
        Instant dayAgo = now.minus(Duration.ofDays(1));
        Instant weekAgo = now.minus(Duration.ofDays(7));
        for (JobSummary s : jobs.list(JobFilter.all())) {
            JobDetail d = jobs.detail(s.name()).orElse(null);
            List<IncidentView> incidents = jobs.incidents(s.name()).orElse(List.of());
            IncidentView last = incidents.isEmpty() ? null : incidents.get(incidents.size() - 1);
            for (IncidentView i : incidents) {
                if (i.closedAt() == null && i.outcome() == io.lifeline.domain.job.incident.IncidentOutcome.OPEN) {
                    open.add(i);
                }
                if (i.interrupted() && i.openedAt() != null) {
                    if (!i.openedAt().isBefore(weekAgo)) {
                        add(week, i);
                    }
                    if (!i.openedAt().isBefore(dayAgo)) {
                        add(day, i);
                    }
                }
            }
            rows.add(row(s, d, last));
        }
        open.sort(Comparator.comparing(IncidentView::openedAt, Comparator.nullsLast(Comparator.reverseOrder())));
        GoodputView fleet = GoodputView.EMPTY;
        for (GoodputRollup r : jobs.rollup(RollupDimension.FLEET)) {
            fleet = r.goodput();
        }
        return new DashboardSnapshot(now, List.copyOf(nodes), Map.copyOf(gpus), Map.copyOf(jobsByNode), List.copyOf(rows),
                List.copyOf(open), stats(day), stats(week), fleet, m.fleet().nodesWithActiveNotice(), version);
    }

    private static void add(Map<IncidentCause, double[]> into, IncidentView i) {
        double[] v = into.computeIfAbsent(i.cause(), c -> new double[2]);
        v[0]++;
        v[1] += i.lostGpuHours();
    }

    private static List<CauseStat> stats(Map<IncidentCause, double[]> by) {
        List<CauseStat> out = new ArrayList<>();
        by.forEach((c, v) -> out.add(new CauseStat(c, (int) v[0], v[1])));
        out.sort(Comparator.comparingInt(CauseStat::interruptions).reversed());
        return List.copyOf(out);
    }

    private static JobRow row(JobSummary s, JobDetail d, IncidentView last) {
        ElasticPolicy e = d == null ? null : d.elastic();
        Integer min = e == null ? null : e.minNodes() * e.procsPerNode();
        Integer max = e == null ? null : e.maxNodes() * e.procsPerNode();
        long objective = d == null || d.freshness() == null ? 0 : d.freshness().objectiveMillis();
        double lost = d == null || d.goodput() == null ? 0 : d.goodput().lostGpuHours();
        return new JobRow(s.name(), s.namespace(), s.state(), s.worldSize(), min, max, s.freshnessAgeMillis(), objective,
                s.freshnessBreached(), s.ettr(), lost, s.restarts(), last == null ? null : last.cause(),
                last == null ? null : last.openedAt(), s.openIncident() != null, s.pool(), s.capacityType());
    }
}
