package io.lifeline.ui.data;

import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.fleet.NodeNotice;
import io.lifeline.domain.fleet.NodeSnapshot;
import io.lifeline.domain.fleet.NodeSummary;
import io.lifeline.domain.gpu.GpuView;
import io.lifeline.domain.job.JobDetail;
import io.lifeline.domain.job.JobSummary;
import io.lifeline.domain.job.goodput.GoodputView;
import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.runtime.ModelSnapshot;
import io.lifeline.runtime.ModelSnapshot.JobSnapshot;
import io.lifeline.security.Scope;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/** Builds a {@link DashboardSnapshot} from a snapshot of the model; runs off the model thread. */
final class SnapshotReader {

    private SnapshotReader() {}

    /**
     * What a dashboard snapshot is made of, taken from the model's snapshot: views only, unsorted, ungrouped.
     * {@code rows}, {@code incidents} and {@code goodput} hold one entry per job, in the same order.
     */
    record Captured(
            Instant now,
            List<NodeSummary> nodes,
            List<GpuView> gpus,
            Map<String, List<String>> jobsByNode,
            List<JobRow> rows,
            List<List<IncidentView>> incidents,
            List<GoodputView> goodput,
            GoodputView fleet,
            List<NodeNotice> notices) {

        /** The goodput of the jobs {@code scope} may see, together. */
        GoodputView goodputOf(Scope scope) {
            if (scope.isEverything()) {
                return fleet;
            }
            List<GoodputView> g = new ArrayList<>();
            for (int k = 0; k < rows.size(); k++) {
                if (scope.allowsJob(rows.get(k).name())) {
                    g.add(goodput.get(k));
                }
            }
            return sum(g);
        }

        /**
         * What {@code scope} may see of it: the jobs of its namespaces (with their incidents and goodput, the fleet
         * goodput summed over them), and of the nodes only those hosting ranks of those jobs, with their GPUs (the pod
         * and namespace of another team's GPU left out), notices, and of their jobs only those in scope.
         */
        Captured scopedTo(Scope scope) {
            if (scope.isEverything()) {
                return this;
            }
            List<JobRow> r = new ArrayList<>();
            List<List<IncidentView>> i = new ArrayList<>();
            List<GoodputView> g = new ArrayList<>();
            for (int k = 0; k < rows.size(); k++) {
                if (scope.allowsJob(rows.get(k).name())) {
                    r.add(rows.get(k));
                    i.add(incidents.get(k));
                    g.add(goodput.get(k));
                }
            }
            Predicate<String> visible = Scope.nodeFilter(scope.nodesUsed(jobsByNode));
            Map<String, List<String>> byNode = new HashMap<>();
            jobsByNode.forEach((node, jobs) -> {
                if (visible.test(node)) {
                    byNode.put(node, scope.visibleJobs(jobs));
                }
            });
            return new Captured(
                    now,
                    nodes.stream().filter(n -> visible.test(n.name())).toList(),
                    gpus.stream()
                            .filter(x -> visible.test(x.node()))
                            .map(scope::visible)
                            .toList(),
                    byNode,
                    r,
                    i,
                    g,
                    sum(g),
                    notices.stream().filter(n -> visible.test(n.node())).toList());
        }
    }

    static DashboardSnapshot read(ModelSnapshot m, long version) {
        return assemble(capture(m), version);
    }

    static Captured capture(ModelSnapshot m) {
        List<NodeSummary> nodes = new ArrayList<>(m.fleet().size());
        for (NodeSnapshot n : m.fleet().nodes()) {
            nodes.add(n.summary());
        }
        List<JobRow> rows = new ArrayList<>();
        List<List<IncidentView>> incidents = new ArrayList<>();
        List<GoodputView> goodput = new ArrayList<>();
        for (JobSnapshot j : m.jobs()) {
            List<IncidentView> of = j.incidents();
            rows.add(row(j.summary(), j.detail(), of.isEmpty() ? null : of.get(of.size() - 1)));
            incidents.add(of);
            goodput.add(j.detail().goodput());
        }
        return new Captured(
                m.takenAt(),
                nodes,
                m.fleet().gpus(),
                m.jobsByNode(),
                rows,
                incidents,
                goodput,
                sum(goodput),
                m.fleet().nodesWithActiveNotice());
    }

    /** The goodput of the jobs in {@code of} together (as {@link ModelSnapshot#fleetGoodput}: jobs without any skipped). */
    static GoodputView sum(List<GoodputView> of) {
        List<GoodputView> known = of.stream().filter(Objects::nonNull).toList();
        return known.isEmpty() ? GoodputView.EMPTY : GoodputView.sum(known);
    }

    /** Sorts, groups and counts what {@link #capture} took. */
    static DashboardSnapshot assemble(Captured c, long version) {
        List<NodeSummary> nodes = new ArrayList<>(c.nodes());
        nodes.sort(Comparator.comparing((NodeSummary n) -> Objects.toString(n.pool(), "~"))
                .thenComparing(n -> Objects.toString(n.zone(), "~"))
                .thenComparing(NodeSummary::name));
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
        return new DashboardSnapshot(
                c.now(),
                List.copyOf(nodes),
                Map.copyOf(gpus),
                Map.copyOf(c.jobsByNode()),
                List.copyOf(c.rows()),
                List.copyOf(open),
                stats(day),
                stats(week),
                c.fleet(),
                c.notices(),
                version);
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
        return new JobRow(
                s.name(),
                s.namespace(),
                s.state(),
                s.worldSize(),
                min,
                max,
                s.freshnessAgeMillis(),
                objective,
                s.freshnessBreached(),
                s.ettr(),
                lost,
                s.restarts(),
                last == null ? null : last.cause(),
                last == null ? null : last.openedAt(),
                s.openIncident() != null,
                s.pool(),
                s.capacityType(),
                d == null ? null : d.stragglers());
    }
}
