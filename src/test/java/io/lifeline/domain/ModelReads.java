package io.lifeline.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.fleet.Fleet;
import io.lifeline.domain.fleet.FleetSnapshot;
import io.lifeline.domain.fleet.NodeNotice;
import io.lifeline.domain.fleet.NodeSnapshot;
import io.lifeline.domain.fleet.PoolGpuHealth;
import io.lifeline.domain.fleet.SavedFleet;
import io.lifeline.domain.fleet.SavedNode;
import io.lifeline.domain.gpu.GpuView;
import io.lifeline.domain.job.JobDetail;
import io.lifeline.domain.job.JobFilter;
import io.lifeline.domain.job.JobSummary;
import io.lifeline.domain.job.Jobs;
import io.lifeline.domain.job.SavedJob;
import io.lifeline.domain.job.SavedJobs;
import io.lifeline.domain.job.TimelinePage;
import io.lifeline.domain.job.advice.IntervalAdvice;
import io.lifeline.domain.job.checkpoint.CheckpointHistory;
import io.lifeline.domain.job.checkpoint.CheckpointView;
import io.lifeline.domain.job.goodput.GoodputRollup;
import io.lifeline.domain.job.goodput.RollupDimension;
import io.lifeline.domain.job.history.HistorySlice;
import io.lifeline.domain.job.incident.IncidentView;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything a reader can ask the model, taken at once, so that two models can be compared read by read: the fleet
 * snapshot, GPUs, pool health and notices, and per job its detail, incidents, timeline, checkpoints, history slices and
 * advice, the goodput roll-ups and the node index.
 */
public record ModelReads(
        List<NodeSnapshot> nodes,
        List<GpuView> gpus,
        List<PoolGpuHealth> poolHealth,
        List<NodeNotice> notices,
        List<JobSummary> summaries,
        List<JobDetail> details,
        Map<String, List<IncidentView>> incidents,
        Map<String, TimelinePage> timelines,
        Map<String, CheckpointHistory> checkpoints,
        Map<String, HistorySlice<IncidentView>> incidentSlices,
        Map<String, HistorySlice<CheckpointView>> checkpointSlices,
        Map<String, IntervalAdvice> advice,
        Map<RollupDimension, List<GoodputRollup>> rollups,
        Map<String, List<String>> jobsByNode,
        int jobCount,
        long ignoredEvents,
        long lostTimelineEntries) {

    /** Takes every read of a fleet and the jobs that read it; {@code fleet} may be null for jobs alone. */
    public static ModelReads of(Fleet fleet, Jobs jobs) {
        List<NodeSnapshot> nodes = new ArrayList<>(
                fleet == null ? List.of() : fleet.snapshot(FleetSnapshot.EMPTY).nodes());
        nodes.sort(Comparator.comparing(NodeSnapshot::name));
        List<JobSummary> summaries = jobs.list(JobFilter.all());
        Map<String, List<IncidentView>> incidents = new LinkedHashMap<>();
        Map<String, TimelinePage> timelines = new LinkedHashMap<>();
        Map<String, CheckpointHistory> checkpoints = new LinkedHashMap<>();
        Map<String, HistorySlice<IncidentView>> incidentSlices = new LinkedHashMap<>();
        Map<String, HistorySlice<CheckpointView>> checkpointSlices = new LinkedHashMap<>();
        Map<String, IntervalAdvice> advice = new LinkedHashMap<>();
        for (JobSummary s : summaries) {
            String job = s.name();
            incidents.put(job, jobs.incidents(job).orElseThrow());
            timelines.put(job, jobs.timeline(job, null, null, null, 100_000).orElseThrow());
            checkpoints.put(job, jobs.checkpoints(job).orElseThrow());
            incidentSlices.put(job, jobs.incidentSlice(job, null, 1_000).orElseThrow());
            checkpointSlices.put(job, jobs.checkpointSlice(job, null, 1_000).orElseThrow());
            advice.put(job, jobs.advice(job).orElseThrow());
        }
        Map<RollupDimension, List<GoodputRollup>> rollups = new LinkedHashMap<>();
        for (RollupDimension d : RollupDimension.values()) {
            rollups.put(d, jobs.rollup(d));
        }
        return new ModelReads(
                nodes,
                fleet == null ? List.of() : fleet.gpus(),
                fleet == null ? List.of() : fleet.gpuHealthByPool(),
                fleet == null ? List.of() : fleet.nodesWithActiveNotice(),
                summaries,
                jobs.details(),
                incidents,
                timelines,
                checkpoints,
                incidentSlices,
                checkpointSlices,
                advice,
                rollups,
                jobs.jobsByNode(),
                jobs.size(),
                jobs.ignoredEvents(),
                jobs.lostTimelineEntries());
    }

    /** Asserts that {@code actual} reads as this, one read at a time so that a failure names the read. */
    public void assertSameAs(ModelReads actual, String context) {
        assertThat(actual.nodes()).as("%s: fleet snapshot", context).isEqualTo(nodes);
        assertThat(actual.gpus()).as("%s: GPUs", context).isEqualTo(gpus);
        assertThat(actual.poolHealth()).as("%s: GPU health by pool", context).isEqualTo(poolHealth);
        assertThat(actual.notices()).as("%s: active notices", context).isEqualTo(notices);
        assertThat(actual.summaries()).as("%s: job list", context).isEqualTo(summaries);
        assertThat(actual.details()).as("%s: job details", context).isEqualTo(details);
        assertThat(actual.incidents()).as("%s: incidents", context).isEqualTo(incidents);
        assertThat(actual.timelines()).as("%s: timelines", context).isEqualTo(timelines);
        assertThat(actual.checkpoints()).as("%s: checkpoints", context).isEqualTo(checkpoints);
        assertThat(actual.incidentSlices()).as("%s: incident history", context).isEqualTo(incidentSlices);
        assertThat(actual.checkpointSlices())
                .as("%s: checkpoint history", context)
                .isEqualTo(checkpointSlices);
        assertThat(actual.advice()).as("%s: advice", context).isEqualTo(advice);
        assertThat(actual.rollups()).as("%s: goodput roll-ups", context).isEqualTo(rollups);
        assertThat(actual.jobsByNode()).as("%s: jobs by node", context).isEqualTo(jobsByNode);
        assertThat(actual).as("%s: counters", context).isEqualTo(this);
    }

    /** A saved model in a canonical order (nodes and jobs by name), so that two saves can be compared as values. */
    public static SavedModel canonical(SavedFleet fleet, SavedJobs jobs) {
        List<SavedNode> nodes = new ArrayList<>(fleet.nodes());
        nodes.sort(Comparator.comparing(SavedNode::name));
        List<SavedJob> all = new ArrayList<>(jobs.jobs());
        all.sort(Comparator.comparing(SavedJob::name));
        return new SavedModel(
                new SavedFleet(fleet.changes(), nodes, fleet.terminations()),
                new SavedJobs(
                        all,
                        jobs.ended(),
                        jobs.timelineQueue(),
                        jobs.recordsQueue(),
                        jobs.ignored(),
                        jobs.lostTimelineEntries()));
    }
}
