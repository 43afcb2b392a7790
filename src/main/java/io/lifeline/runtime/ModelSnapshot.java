package io.lifeline.runtime;

import io.lifeline.domain.fleet.FleetSnapshot;
import io.lifeline.domain.job.JobDetail;
import io.lifeline.domain.job.JobSummary;
import io.lifeline.domain.job.Jobs;
import io.lifeline.domain.job.checkpoint.CheckpointHistory;
import io.lifeline.domain.job.goodput.GoodputView;
import io.lifeline.domain.job.incident.IncidentView;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The whole model at one moment, immutable: what the dashboards, the metrics and the alert rules read, published by
 * {@link ModelSnapshots}. Holds views only, never the model's own objects, so any thread may read it.
 *
 * @param sequence       increases by one with each snapshot of this process
 * @param takenAt        the model's clock when it was taken
 * @param appliedEvents  events the model had applied by then
 * @param fleet          every node, with its GPUs
 * @param jobs           every job the model holds, by name
 * @param jobsByNode     nodes hosting ranks, with their jobs by name
 */
public record ModelSnapshot(long sequence, Instant takenAt, long appliedEvents, FleetSnapshot fleet,
                            List<JobSnapshot> jobs, Map<String, List<String>> jobsByNode) {

    /** Before the first snapshot: nothing. */
    public static final ModelSnapshot EMPTY = new ModelSnapshot(0, Instant.EPOCH, 0, FleetSnapshot.EMPTY, List.of(),
            Map.of());

    public ModelSnapshot {
        jobs = List.copyOf(jobs);
        jobsByNode = Map.copyOf(jobsByNode);
    }

    /**
     * One job as it was.
     *
     * @param summary      its row
     * @param detail       everything about it now
     * @param incidents    its incidents, oldest first, the open one last
     * @param checkpoints  its checkpoint history
     */
    public record JobSnapshot(JobSummary summary, JobDetail detail, List<IncidentView> incidents,
                              CheckpointHistory checkpoints) {

        public String name() {
            return summary.name();
        }
    }

    /** Goodput of the whole fleet: the sum over its jobs (worked out when asked, on the caller's thread). */
    public GoodputView fleetGoodput() {
        List<GoodputView> all = new ArrayList<>(jobs.size());
        for (JobSnapshot j : jobs) {
            if (j.detail().goodput() != null) {
                all.add(j.detail().goodput());
            }
        }
        return all.isEmpty() ? GoodputView.EMPTY : GoodputView.sum(all);
    }

    /** The jobs with ranks on the node, by name. */
    public List<String> jobsOn(String node) {
        return jobsByNode.getOrDefault(node, List.of());
    }

    /**
     * Takes a snapshot; must run on the model's thread (or wherever the model is only touched by this caller).
     * Nodes unchanged since {@code previous} keep its views.
     */
    public static ModelSnapshot take(LiveModel m, ModelSnapshot previous, Instant now, long appliedEvents) {
        FleetSnapshot fleet = m.fleet().snapshot(previous.fleet());
        Jobs jobs = m.jobs();
        List<JobSnapshot> out = new ArrayList<>(jobs.size());
        for (JobDetail d : jobs.details()) {
            String name = d.summary().name();
            out.add(new JobSnapshot(d.summary(), d, jobs.incidents(name).orElse(List.of()),
                    jobs.checkpoints(name).orElse(null)));
        }
        return new ModelSnapshot(previous.sequence() + 1, now, appliedEvents, fleet, out, jobs.jobsByNode());
    }
}
