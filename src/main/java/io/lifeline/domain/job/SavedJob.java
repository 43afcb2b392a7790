package io.lifeline.domain.job;

import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.job.checkpoint.SavedCheckpoints;
import io.lifeline.domain.job.command.CommandAckView;
import io.lifeline.domain.job.goodput.SavedLedger;
import io.lifeline.domain.job.incident.SavedIncidents;
import io.lifeline.domain.job.membership.SavedMembership;
import io.lifeline.domain.job.recovery.Advice;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One job's state as plain values, part of {@link SavedJobs}: its spec, lifecycle, run, the parts that account for it
 * (goodput ledger, membership, checkpoints, incidents), its recent history and its share of pools and capacity types.
 *
 * @param name                  {@code namespace/name}
 * @param incarnation           which run under this name (epoch ms of its first event)
 * @param spec                  what the job asked for
 * @param state                 lifecycle state
 * @param stateSince            when it began
 * @param submittedAt           earliest submission time seen
 * @param finishedAt            when it ended, may be null
 * @param finishReason          why, may be null
 * @param admitted              whether the scheduler admitted it
 * @param retiring              whether it is queued among the ended jobs forgotten oldest first
 * @param run                   progress, restarts, saves in flight, rescale accounting and counters
 * @param ledger                goodput ledger
 * @param membership            membership
 * @param checkpoints           checkpoint ledger
 * @param incidents             incident log
 * @param recentIds             event identities remembered for de-duplication, oldest first
 * @param commandAcks           the trainers' latest answer per command, oldest first
 * @param timeline              the timeline entries kept, oldest first
 * @param timelineSeq           the sequence of the newest entry
 * @param drainedSeq            the newest entry handed over for storage
 * @param evictedThroughMillis  the latest time of the entries that left memory ({@link Long#MIN_VALUE} if none)
 * @param refusals              refused transitions kept, oldest first
 * @param pools                 its share of each pool
 * @param capacities            its share of each capacity type
 * @param poolsVersion          the membership version the shares were resolved at
 * @param primaryPool           the pool most of its nodes were in, may be null
 * @param primaryCapacity       likewise for capacity types, may be null
 * @param indexedNodes          the nodes it is indexed under
 * @param indexedVersion        the membership version of that index
 * @param poolCapacities        its share of each capacity type within each pool ({@code pool|capacity}); empty in
 *                              checkpoints written before it was kept
 * @param advice                recovery's advice, oldest first; null in checkpoints written before it was kept
 */
public record SavedJob(
        String name,
        long incarnation,
        Spec spec,
        JobState state,
        Instant stateSince,
        Instant submittedAt,
        Instant finishedAt,
        String finishReason,
        boolean admitted,
        boolean retiring,
        Run run,
        SavedLedger ledger,
        SavedMembership membership,
        SavedCheckpoints checkpoints,
        SavedIncidents incidents,
        List<String> recentIds,
        List<CommandAckView> commandAcks,
        List<TimelineEntry> timeline,
        long timelineSeq,
        long drainedSeq,
        long evictedThroughMillis,
        List<RefusedTransition> refusals,
        Map<String, Pool> pools,
        Map<String, Pool> capacities,
        long poolsVersion,
        String primaryPool,
        String primaryCapacity,
        List<String> indexedNodes,
        long indexedVersion,
        Map<String, Pool> poolCapacities,
        List<Advice> advice) {

    public SavedJob {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(run, "run");
        Objects.requireNonNull(ledger, "ledger");
        Objects.requireNonNull(membership, "membership");
        Objects.requireNonNull(checkpoints, "checkpoints");
        Objects.requireNonNull(incidents, "incidents");
        recentIds = List.copyOf(recentIds);
        commandAcks = List.copyOf(commandAcks);
        timeline = List.copyOf(timeline);
        refusals = List.copyOf(refusals);
        pools = Map.copyOf(pools);
        capacities = Map.copyOf(capacities);
        indexedNodes = List.copyOf(indexedNodes);
        poolCapacities = poolCapacities == null ? Map.of() : Map.copyOf(poolCapacities);
    }

    /**
     * What the job asked for (its submission and updates).
     *
     * @param namespace                  namespace
     * @param owner                      owner, may be null
     * @param priorityClass              priority class, may be null
     * @param elastic                    elastic policy, may be null
     * @param gpusPerNode                GPUs per node (0 on CPUs), null when no spec said
     * @param checkpointIntervalSeconds  configured checkpoint interval, may be null
     * @param freshnessObjectiveMillis   freshness objective set by an operator, may be null
     * @param healsItself                how the job heals its own replica failures, may be null
     */
    public record Spec(
            String namespace,
            String owner,
            String priorityClass,
            ElasticPolicy elastic,
            Integer gpusPerNode,
            Long checkpointIntervalSeconds,
            Long freshnessObjectiveMillis,
            JobData.SelfHealing healsItself) {}

    /**
     * How the job's run goes.
     *
     * @param lastStep          latest step reported (-1 before any)
     * @param lastProgressAt    time of that report, may be null
     * @param firstProgressAt   time of the first report, may be null
     * @param samplesPerSecond  latest throughput, may be null
     * @param tokensPerSecond   latest throughput, may be null
     * @param restarts          interruptions that stopped training
     * @param lastRoundGpus     GPUs of the latest rendezvous round
     * @param agentRestarts     the agent's highest restart count
     * @param syncSave          the synchronous save in progress, may be null
     * @param exitRequested     whether the trainers acknowledged a prepare_exit
     * @param holding           whether they hold still after its save
     * @param holdingStep       the step of that save
     * @param holdingSince      when that save completed and the hold began, may be null
     * @param rescaleStartedAt  when the rescale in progress began, may be null
     * @param rescaleMillis     time spent rescaling
     * @param rescaleGpuMillis  GPU time spent rescaling
     * @param duplicates        redelivered events dropped
     * @param lateEvents        events older than the accounting clock
     * @param agentProgress     whether the trainers report {@code trainer.progress} themselves (their progress is
     *                          trusted over a controller's status)
     * @param controllerRestarts         the controller's restart counter as last seen, -1 before any
     * @param controllerInPlaceRestarts  its in-place restart attempt as last seen, -1 before any
     */
    public record Run(
            long lastStep,
            Instant lastProgressAt,
            Instant firstProgressAt,
            Double samplesPerSecond,
            Double tokensPerSecond,
            int restarts,
            int lastRoundGpus,
            int agentRestarts,
            String syncSave,
            boolean exitRequested,
            boolean holding,
            long holdingStep,
            Instant holdingSince,
            Instant rescaleStartedAt,
            long rescaleMillis,
            long rescaleGpuMillis,
            long duplicates,
            long lateEvents,
            boolean agentProgress,
            int controllerRestarts,
            int controllerInPlaceRestarts) {}

    /**
     * The job's share of one pool or capacity type.
     *
     * @param nodes          its active nodes there now
     * @param nodeMillis     node-milliseconds exposed to interruptions
     * @param interruptions  interruptions attributed to it
     */
    public record Pool(int nodes, long nodeMillis, int interruptions) {}
}
