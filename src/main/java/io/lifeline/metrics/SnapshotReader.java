package io.lifeline.metrics;

import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.TrainerData.Participant;
import io.lifeline.domain.fleet.NodeLifecycle;
import io.lifeline.domain.fleet.NodeSummary;
import io.lifeline.domain.fleet.PoolGpuHealth;
import io.lifeline.domain.gpu.GpuHealth;
import io.lifeline.domain.job.JobDetail;
import io.lifeline.domain.job.JobState;
import io.lifeline.domain.job.JobSummary;
import io.lifeline.domain.job.checkpoint.FreshnessView;
import io.lifeline.domain.job.goodput.GoodputView;
import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.domain.job.membership.MembershipView;
import io.lifeline.metrics.SeriesSnapshot.IncidentSample;
import io.lifeline.metrics.SeriesSnapshot.JobSample;
import io.lifeline.metrics.SeriesSnapshot.PoolGpus;
import io.lifeline.runtime.ModelSnapshot;
import io.lifeline.runtime.ModelSnapshot.JobSnapshot;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** Works out a {@link SeriesSnapshot} from a snapshot of the model; runs on the metrics thread. */
final class SnapshotReader {

    /** Pool label of GPUs whose node has not registered yet. */
    static final String UNREGISTERED_POOL = "unregistered";

    private SnapshotReader() {}

    static SeriesSnapshot read(ModelSnapshot model, boolean withNodes) {
        List<JobSample> samples = new ArrayList<>();
        Map<JobState, Integer> byState = new EnumMap<>(JobState.class);
        for (JobState s : JobState.values()) {
            byState.put(s, 0);
        }
        for (JobSnapshot j : model.jobs()) {
            byState.merge(j.summary().state(), 1, Integer::sum);
            samples.add(job(j.summary(), j.detail(), j.incidents(), withNodes));
        }
        Map<NodeLifecycle, Integer> nodesByState = new EnumMap<>(NodeLifecycle.class);
        for (NodeLifecycle l : NodeLifecycle.values()) {
            nodesByState.put(l, 0);
        }
        int cordoned = 0;
        int notices = 0;
        Map<String, GpuHealth> unhealthy = new TreeMap<>();
        Map<String, Integer> lemons = new TreeMap<>();
        for (NodeSummary n : model.fleet().summaries()) {
            nodesByState.merge(n.state(), 1, Integer::sum);
            if (n.state() == NodeLifecycle.TERMINATED) {
                continue;
            }
            cordoned += n.cordoned() ? 1 : 0;
            notices += n.noticeActive() ? 1 : 0;
            if (n.health() != GpuHealth.HEALTHY) {
                unhealthy.put(n.name(), n.health());
            }
            if (n.lemonScore() > 0) {
                lemons.put(n.name(), n.lemonScore());
            }
        }
        List<PoolGpus> gpus = new ArrayList<>();
        for (PoolGpuHealth p : model.fleet().gpuHealthByPool()) {
            Map<GpuHealth, Integer> c = new EnumMap<>(GpuHealth.class);
            c.put(GpuHealth.HEALTHY, p.healthy());
            c.put(GpuHealth.DEGRADED, p.degraded());
            c.put(GpuHealth.FAILED, p.failed());
            gpus.add(new PoolGpus(p.pool() == null ? UNREGISTERED_POOL : p.pool(), c));
        }
        return new SeriesSnapshot(
                model.takenAt(),
                List.copyOf(samples),
                byState,
                nodesByState,
                cordoned,
                notices,
                List.copyOf(gpus),
                unhealthy,
                lemons);
    }

    private static JobSample job(JobSummary s, JobDetail d, List<IncidentView> incidents, boolean withNodes) {
        FreshnessView f = d.freshness();
        ElasticPolicy e = d.elastic();
        Integer min = e == null ? null : e.minNodes() * e.procsPerNode();
        Integer max = e == null ? null : e.maxNodes() * e.procsPerNode();
        List<IncidentSample> inc = new ArrayList<>(incidents.size());
        for (IncidentView v : incidents) {
            inc.add(new IncidentSample(
                    v.id(),
                    v.cause(),
                    v.lostGpuHours(),
                    v.noticeAt() != null,
                    v.interrupted(),
                    v.checkpointBeforeExit(),
                    v.stopRequest(),
                    v.evictionStopMillis()));
        }
        return new JobSample(
                s.name(),
                s.namespace(),
                s.submittedAt(),
                s.state(),
                s.freshnessAgeMillis() == null ? null : s.freshnessAgeMillis() / 1000.0,
                f == null ? null : f.objectiveMillis() / 1000.0,
                s.freshnessBreached(),
                f == null ? 0 : f.workAtRiskGpuHours(),
                s.worldSize(),
                min,
                max,
                s.gpusHeld(),
                s.ettr(),
                s.ettrOfWall(),
                s.restarts(),
                s.restartBudgetExhausted(),
                d.openIncident() == null ? null : d.openIncident().cause(),
                Map.copyOf(d.interruptionsByCause()),
                List.copyOf(inc),
                withNodes ? nodes(d.membership()) : List.of(),
                d.goodput() == null ? GoodputView.EMPTY : d.goodput(),
                d.stragglers());
    }

    private static List<String> nodes(MembershipView m) {
        if (m == null) {
            return List.of();
        }
        Set<String> out = new LinkedHashSet<>();
        for (Participant p : m.placement()) {
            if (p.node() != null) {
                out.add(p.node());
            }
        }
        return List.copyOf(out);
    }
}
