package io.lifeline.ui.data;

import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.fleet.NodeNotice;
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

    /**
     * What is copied out on the model's thread: views only, unsorted and ungrouped, so the thread (which applies no
     * event meanwhile) is held as briefly as possible; {@link #assemble} does the rest on the caller's thread.
     */
    record Captured(Instant now, List<NodeSummary> nodes, List<GpuView> gpus, Map<String, List<String>> jobsByNode,
                    List<JobRow> rows, List<List<IncidentView>> incidents, GoodputView fleet, List<NodeNotice> notices) {
    }

    static DashboardSnapshot read(LiveModel m, Instant now, long version) {
        return assemble(capture(m, now), version);
    }

    /** Runs on the model's thread. */
    static Captured capture(LiveModel m, Instant now) {
        List<NodeSummary> nodes = m.fleet().nodes(NodeQuery.all());
        List<GpuView> gpus = m.fleet().gpusUnordered();
        Map<String, List<String>> jobsByNode = new HashMap<>();
        Jobs jobs = m.jobs();
        for (NodeSummary n : nodes) {
            List<String> on = jobs.jobsOn(n.name());
            if (!on.isEmpty()) {
                jobsByNode.put(n.name(), List.copyOf(on));
            }
        }
        List<JobRow> rows = new ArrayList<>();
        List<List<IncidentView>> incidents = new ArrayList<>();
        for (JobSummary s : jobs.list(JobFilter.all())) {
            JobDetail d = jobs.detail(s.name()).orElse(null);
            List<IncidentView> of = jobs.incidents(s.name()).orElse(List.of());
            rows.add(row(s, d, of.isEmpty() ? null : of.get(of.size() - 1)));
            incidents.add(of);
        }
        GoodputView fleet = GoodputView.EMPTY;
        for (GoodputRollup r : jobs.rollup(RollupDimension.FLEET)) {
            fleet = r.goodput();
        }
        return new Captured(now, nodes, gpus, jobsByNode, rows, incidents, fleet, m.fleet().nodesWithActiveNotice());
    }

    /** Sorts, groups and counts what {@link #capture} copied; runs on any thread. */
    static DashboardSnapshot assemble(Captured c, long version) {
        List<NodeSummary> nodes = new ArrayList<>(c.nodes());
        nodes.sort(Comparator.comparing((NodeSummary n) -> Objects.toString(n.pool(), "~"))
                .thenComparing(n -> Objects.toString(n.zone(), "~")).thenComparing(NodeSummary::name));
        Map<String, List<GpuView>> gpus = new HashMap<>();
        for (GpuView g : c.gpus()) {
            gpus.computeIfAbsent(g.node(), k -> new ArrayList<>()).add(g);
        }
        gpus.replaceAll((k, v) -> {
            v.sort(Comparator.comparingInt(GpuView::index));
            return List.copyOf(v);
        });
        List<IncidentView> open = new ArrayList<>();
        Map<IncidentCause, double[]> day = new EnumMap<>(IncidentCause.class);
        Map<IncidentCause, double[]> week = new EnumMap<>(IncidentCause.class);
        Instant dayAgo = c.now().minus(Duration.ofDays(1));
        Instant weekAgo = c.now().minus(Duration.ofDays(7));
        for (List<IncidentView> of : c.incidents()) {
            for (IncidentView i : of) {
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
        }
        open.sort(Comparator.comparing(IncidentView::openedAt, Comparator.nullsLast(Comparator.reverseOrder())));
        return new DashboardSnapshot(c.now(), List.copyOf(nodes), Map.copyOf(gpus), Map.copyOf(c.jobsByNode()),
                List.copyOf(c.rows()), List.copyOf(open), stats(day), stats(week), c.fleet(), c.notices(), version);
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
