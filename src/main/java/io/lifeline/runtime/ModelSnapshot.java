package io.lifeline.runtime;

import io.lifeline.domain.fleet.FleetSnapshot;
import io.lifeline.domain.job.JobDetail;
import io.lifeline.domain.job.JobSnapshotViews;
import io.lifeline.domain.job.JobSummary;
import io.lifeline.domain.job.checkpoint.CheckpointHistory;
import io.lifeline.domain.job.goodput.GoodputView;
import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.domain.job.recovery.Advice;
import io.lifeline.domain.storage.StorageTargetView;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
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
 * @param nodeJobs       nodes hosting ranks, with their jobs by name: worked out from {@code jobs} when first asked
 *                       for ({@link #jobsByNode()}), on the reader's thread
 * @param storage        the checkpoint storage targets with every job's figures, by name
 */
public record ModelSnapshot(
        long sequence,
        Instant takenAt,
        long appliedEvents,
        FleetSnapshot fleet,
        List<JobSnapshot> jobs,
        NodeJobs nodeJobs,
        List<StorageTargetView> storage) {

    /** Before the first snapshot: nothing. */
    public static final ModelSnapshot EMPTY =
            new ModelSnapshot(0, Instant.EPOCH, 0, FleetSnapshot.EMPTY, List.of(), List.of());

    public ModelSnapshot {
        jobs = List.copyOf(jobs);
        storage = storage == null ? List.of() : List.copyOf(storage);
    }

    private ModelSnapshot(
            long sequence,
            Instant takenAt,
            long appliedEvents,
            FleetSnapshot fleet,
            List<JobSnapshot> jobs,
            List<StorageTargetView> storage) {
        this(sequence, takenAt, appliedEvents, fleet, jobs, new NodeJobs(jobs), storage);
    }

    /** Nodes hosting ranks, with their jobs by name (as {@code Jobs.jobsByNode} when the snapshot was taken). */
    public Map<String, List<String>> jobsByNode() {
        return nodeJobs.map();
    }

    /** The node-to-jobs map of a snapshot's jobs, worked out once, when first asked for. */
    public static final class NodeJobs {
        private final List<JobSnapshot> jobs;
        private volatile Map<String, List<String>> map;

        NodeJobs(List<JobSnapshot> jobs) {
            this.jobs = jobs;
        }

        Map<String, List<String>> map() {
            Map<String, List<String>> m = map;
            if (m == null) {
                // The jobs come in name order, so each node's list is too.
                Map<String, List<String>> lists = new HashMap<>();
                for (JobSnapshot j : jobs) {
                    for (String node : j.nodes()) {
                        lists.computeIfAbsent(node, n -> new ArrayList<>()).add(j.name());
                    }
                }
                lists.replaceAll((node, names) -> List.copyOf(names));
                m = Map.copyOf(lists);
                map = m;
            }
            return m;
        }
    }

    /**
     * One job as it was.
     *
     * @param summary      its row
     * @param detail       everything about it now
     * @param incidents    its incidents, oldest first, the open one last
     * @param checkpoints  its checkpoint history
     * @param nodes        the nodes hosting its ranks
     * @param recovery     the recovery ladder's newest advice for it, or null
     */
    public record JobSnapshot(
            JobSummary summary,
            JobDetail detail,
            List<IncidentView> incidents,
            CheckpointHistory checkpoints,
            List<String> nodes,
            Advice recovery) {

        /** A job without recovery advice. */
        public JobSnapshot(
                JobSummary summary,
                JobDetail detail,
                List<IncidentView> incidents,
                CheckpointHistory checkpoints,
                List<String> nodes) {
            this(summary, detail, incidents, checkpoints, nodes, null);
        }

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
        return jobsByNode().getOrDefault(node, List.of());
    }

    /**
     * Takes a snapshot; must run on the model's thread (or wherever the model is only touched by this caller).
     * Nodes unchanged since {@code previous} keep its views.
     */
    public static ModelSnapshot take(LiveModel m, ModelSnapshot previous, Instant now, long appliedEvents) {
        FleetSnapshot fleet = m.fleet().snapshot(previous.fleet());
        List<JobSnapshotViews> views = m.jobs().snapshotViews();
        List<JobSnapshot> out = new ArrayList<>(views.size());
        for (JobSnapshotViews v : views) {
            out.add(new JobSnapshot(
                    v.detail().summary(), v.detail(), v.incidents(), v.checkpoints(), v.nodes(), v.recovery()));
        }
        return new ModelSnapshot(
                previous.sequence() + 1,
                now,
                appliedEvents,
                fleet,
                out,
                m.storage().snapshot(now));
    }
}
