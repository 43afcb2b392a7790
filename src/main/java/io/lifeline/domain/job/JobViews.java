package io.lifeline.domain.job;

import io.lifeline.domain.fleet.NodeDirectory;
import io.lifeline.domain.job.checkpoint.CheckpointEntry;
import io.lifeline.domain.job.checkpoint.FreshnessView;
import io.lifeline.domain.job.goodput.GoodputView;
import io.lifeline.domain.job.incident.Incident;
import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.domain.job.membership.RendezvousRound;
import io.lifeline.domain.job.recovery.Attempt;
import io.lifeline.domain.job.recovery.Attempts;
import io.lifeline.domain.job.recovery.RecoveryCheck;
import io.lifeline.domain.job.spot.PlacementCheck;
import io.lifeline.domain.job.spot.SpotPlacement;
import io.lifeline.domain.job.straggler.StragglerView;
import io.lifeline.domain.job.straggler.SuggestedDrain;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Builds the immutable view records of one job as of a given time. */
final class JobViews {

    private final JobsConfig config;
    private final NodeDirectory nodes;

    JobViews(JobsConfig config, NodeDirectory nodes) {
        this.config = config;
        this.nodes = nodes;
    }

    /**
     * Where the job's coordinating roles run now (nothing to check while it trains on no node). Kept until the
     * membership or the nodes' facts change: every snapshot asks every job, and both change far less often.
     */
    SpotPlacement placement(Job job) {
        if (!job.state.isActive()) {
            return SpotPlacement.NONE;
        }
        long members = job.membership.version();
        long facts = nodes.factsVersion();
        if (job.placement != null && facts >= 0 && job.placementFacts == facts && job.placementMembership == members) {
            return job.placement;
        }
        RendezvousRound round = job.membership.current();
        SpotPlacement p = PlacementCheck.check(
                job.membership.activeParticipants(), round == null ? null : round.endpointNode(), nodes);
        job.placement = p;
        job.placementMembership = members;
        job.placementFacts = facts;
        return p;
    }

    /** Freshness counting the checkpoints that survive the loss of any one node. */
    FreshnessView freshness(Job job, long now) {
        return freshness(job, now, null);
    }

    /**
     * Freshness counting only the checkpoints that survive the loss of {@code node} (null: of any one node): what a
     * drain of that node, or an unannounced loss, would leave to restore from.
     */
    FreshnessView freshness(Job job, long now, String node) {
        CheckpointEntry any = job.checkpoints.newestGood();
        CheckpointEntry newest = job.checkpoints.newestGood(
                node == null ? CheckpointEntry::survivesAnyNode : e -> e.survivesLossOf(node));
        int gpus = job.gpusHeld();
        Instant ref = newest != null ? newest.completedAt() : job.firstProgressAt;
        Long age = ref == null ? null : Math.max(0, now - ref.toEpochMilli());
        Long stepsSince = newest != null && job.lastStep >= 0 ? Math.max(0, job.lastStep - newest.step()) : null;
        double atRisk = age == null ? 0 : gpus * (double) age / GoodputView.MILLIS_PER_HOUR;
        long objective = job.freshnessObjectiveMillis(config);
        boolean breached = job.state.isActive() && age != null && age > objective;
        String counts = node == null
                ? "only checkpoints that survive the loss of any one node (object storage, shared"
                        + " file systems, replicas on two or more nodes)"
                : "only checkpoints that survive the loss of node " + node;
        return new FreshnessView(
                newest == null ? null : newest.id(),
                newest == null ? null : newest.step(),
                ref == null || newest == null ? null : ref,
                age,
                stepsSince,
                gpus,
                atRisk,
                objective,
                breached,
                job.checkpoints.verifies(),
                any == null ? null : any.id(),
                any == null || any.durability() == null
                        ? null
                        : any.durability().wire(),
                any != null && any != newest,
                node,
                counts);
    }

    GoodputView goodput(Job job, long now) {
        return job.ledger.view(now);
    }

    JobSummary summary(Job job, long now) {
        return summary(job, freshness(job, now), goodput(job, now));
    }

    /** The summary from the freshness and goodput already taken for the same moment (a detail needs both too). */
    private static JobSummary summary(Job job, FreshnessView f, GoodputView g) {
        Incident open = job.incidents.open();
        Integer maxRestarts = job.elastic == null ? null : job.elastic.maxRestarts();
        return new JobSummary(
                job.name,
                job.namespace,
                job.state,
                job.stateSince,
                job.gpusHeld(),
                job.membership.worldSize(),
                job.membership.activeNodeCount(),
                job.restarts,
                maxRestarts,
                // Failures only: interruptions that came with notice or by plan have a budget of their own.
                maxRestarts != null && job.incidents.failures() > maxRestarts,
                job.lastStep < 0 ? null : job.lastStep,
                job.lastProgressAt,
                f.ageMillis(),
                f.breached(),
                g.ettr(),
                g.ettrOfWall(),
                open == null ? null : open.id(),
                job.incidents.interruptions(),
                job.primaryPool,
                job.primaryCapacity,
                job.submittedAt,
                job.finishedAt,
                f.newestNotSurviving());
    }

    JobDetail detail(Job job, long now) {
        Incident open = job.incidents.open();
        IncidentView openView = open == null
                ? null
                : open.view(job.ledger.pendingMillis(now), job.ledger.activity(), job.ledger.gpus());
        FreshnessView f = freshness(job, now);
        GoodputView g = goodput(job, now);
        return new JobDetail(
                summary(job, f, g),
                job.owner,
                job.priorityClass,
                job.elastic,
                job.gpusPerNode == null ? 0 : job.gpusPerNode,
                job.checkpointIntervalSeconds,
                job.finishReason,
                job.samplesPerSecond,
                job.tokensPerSecond,
                job.agentRestarts,
                f,
                g,
                job.membership.view(job.name),
                openView,
                job.incidents.interruptionsByCause(),
                job.refusals.toList(),
                job.duplicates,
                job.lateEvents,
                placement(job),
                stragglers(job),
                job.healsItself,
                ProgressView.of(job));
    }

    StragglerView stragglers(Job job) {
        if (job.stragglers == null) {
            return StragglerView.NONE;
        }
        StragglerView v = job.stragglers.view();
        SuggestedDrain drain = SuggestedDrain.of(job.name, v, job.elastic, job.membership.activeNodeCount());
        return drain == null ? v : v.withSuggestion(drain);
    }

    List<Attempt> attempts(Job j, long now) {
        CheckpointEntry good = j.checkpoints.newestGood();
        return Attempts.of(
                incidents(j, now),
                j.incidents.interruptions(),
                j.firstProgressAt != null ? j.firstProgressAt : j.submittedAt,
                j.lastStep < 0 ? null : j.lastStep,
                good == null ? null : good.step(),
                j.membership.activeNodes());
    }

    RecoveryCheck.Observation observation(
            Job j, String incident, Boolean nodeCordoned, String node, Instant since, long now) {
        IncidentView seen = null;
        for (IncidentView i : incidents(j, now)) {
            if (i.id().equals(incident)) {
                seen = i;
            }
        }
        RendezvousRound round = j.membership.current();
        return new RecoveryCheck.Observation(
                j.state.name().toLowerCase(java.util.Locale.ROOT),
                j.state == JobState.RUNNING,
                j.state.isTerminal(),
                j.state.isWaiting(),
                seen == null ? null : seen.outcome(),
                seen == null ? null : seen.closedAt(),
                j.lastProgressAt,
                j.lastStep < 0 ? null : j.lastStep,
                j.membership.activeNodes(),
                round == null ? null : round.time(),
                nodeCordoned,
                node == null || since == null ? null : j.membership.leftAfter(node, since),
                seen == null ? List.of() : seen.membersAtStop());
    }

    List<IncidentView> incidents(Job job, long now) {
        return job.incidents.views(job.ledger.pendingMillis(now), job.ledger.activity(), job.ledger.gpus());
    }

    /**
     * What memory holds of a timeline page: entries with {@code from <= time < to} (null bounds are open), after the
     * cursor, in time order, at most {@code limit + 1}, and where the job's ring starts.
     */
    TimelineSlice timeline(Job job, Instant from, Instant to, TimelineCursor cursor, int limit, long now) {
        int n = Math.max(1, limit);
        List<TimelineEntry> all = new ArrayList<>();
        long oldest = job.timelineSeq + 1;
        for (TimelineEntry e : job.timeline) {
            oldest = Math.min(oldest, e.seq());
            if (TimelineSlice.inRange(e, from, to) && cursor.precedes(e)) {
                all.add(e);
            }
        }
        all.sort(TimelineCursor.ORDER);
        List<TimelineEntry> held = all.size() > n + 1 ? all.subList(0, n + 1) : all;
        List<IncidentView> overlapping = new ArrayList<>();
        for (IncidentView i : incidents(job, now)) {
            boolean startsBeforeEnd = to == null || i.openedAt().isBefore(to);
            boolean endsAfterStart =
                    from == null || i.closedAt() == null || !i.closedAt().isBefore(from);
            if (startsBeforeEnd && endsAfterStart) {
                overlapping.add(i);
            }
        }
        long through = job.evictedThroughMillis;
        boolean needsStored =
                oldest > 1 && cursor.millis() <= through && (from == null || from.toEpochMilli() <= through);
        return new TimelineSlice(
                job.name, job.incarnation, cursor, n, List.copyOf(held), oldest, needsStored, List.copyOf(overlapping));
    }
}
