package io.lifeline.domain.alert;

import io.lifeline.domain.job.recovery.Advice;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What the rules look at, taken from the model at one moment. A section that is null was not available (for example
 * the actions service did not answer): the rules reading it are skipped for that evaluation, so their alerts keep
 * their state instead of resolving for lack of data. An empty list means "nothing of that kind".
 *
 * @param jobs           jobs (active or not)
 * @param notices        interruption notices that reached nodes of jobs, as incidents recorded them
 * @param xids           recent XIDs of GPUs
 * @param nodes          nodes with their lemon score
 * @param failedActions  actions that ended FAILED recently
 * @param ingest         ingest backlog and dead-letter counter
 * @param brake          the automation brake
 * @param objectives     the goodput objectives with their burn
 * @param storage        the checkpoint storage targets
 */
public record AlertSnapshot(
        List<JobFacts> jobs,
        List<NoticeFacts> notices,
        List<XidFacts> xids,
        List<NodeFacts> nodes,
        List<FailedAction> failedActions,
        IngestFacts ingest,
        BrakeFacts brake,
        List<ObjectiveFacts> objectives,
        List<StorageFacts> storage) {

    /** A snapshot without the storage targets' section (their rule is skipped). */
    public AlertSnapshot(
            List<JobFacts> jobs,
            List<NoticeFacts> notices,
            List<XidFacts> xids,
            List<NodeFacts> nodes,
            List<FailedAction> failedActions,
            IngestFacts ingest,
            BrakeFacts brake,
            List<ObjectiveFacts> objectives) {
        this(jobs, notices, xids, nodes, failedActions, ingest, brake, objectives, null);
    }

    /** A snapshot without the objectives' section (their rules are skipped). */
    public AlertSnapshot(
            List<JobFacts> jobs,
            List<NoticeFacts> notices,
            List<XidFacts> xids,
            List<NodeFacts> nodes,
            List<FailedAction> failedActions,
            IngestFacts ingest,
            BrakeFacts brake) {
        this(jobs, notices, xids, nodes, failedActions, ingest, brake, null);
    }

    /** A snapshot without the automation brake's section (its rule is skipped). */
    public AlertSnapshot(
            List<JobFacts> jobs,
            List<NoticeFacts> notices,
            List<XidFacts> xids,
            List<NodeFacts> nodes,
            List<FailedAction> failedActions,
            IngestFacts ingest) {
        this(jobs, notices, xids, nodes, failedActions, ingest, null);
    }

    public AlertSnapshot {
        jobs = jobs == null ? null : List.copyOf(jobs);
        notices = notices == null ? null : List.copyOf(notices);
        xids = xids == null ? null : List.copyOf(xids);
        nodes = nodes == null ? null : List.copyOf(nodes);
        failedActions = failedActions == null ? null : List.copyOf(failedActions);
        objectives = objectives == null ? null : List.copyOf(objectives);
        storage = storage == null ? null : List.copyOf(storage);
    }

    /**
     * One checkpoint storage target.
     *
     * @param target              its name (the storage root)
     * @param namespaces          the namespaces of the jobs writing there
     * @param freeBytes           free space now, or null when no job reads it
     * @param capacityBytes       its size, or null
     * @param secondsUntilFull    at the current write rate, or null when not known or nothing is added
     * @param netBytesPerHour     what the writing jobs add per hour, net of retention
     * @param largestRecentBytes  the largest recent checkpoint written there
     * @param alertBefore         alert when it is full sooner than this ({@code lifeline.storage.alert-before})
     */
    public record StorageFacts(
            String target,
            List<String> namespaces,
            Long freeBytes,
            Long capacityBytes,
            Double secondsUntilFull,
            double netBytesPerHour,
            long largestRecentBytes,
            Duration alertBefore) {

        public StorageFacts {
            namespaces = List.copyOf(namespaces);
        }

        /** The one namespace writing there, or null when several (or none) do. */
        public String namespace() {
            return namespaces.size() == 1 ? namespaces.get(0) : null;
        }
    }

    /**
     * One goodput objective as its last sample left it.
     *
     * @param name        its name
     * @param scope       {@code kind:value}
     * @param namespace   the namespace of its scope, or null when it spans namespaces
     * @param ettrTarget  its target
     * @param ettr        ETTR over its window, or null
     * @param burnRates   burn rate by window label ({@code 5m}, {@code 30m}, {@code 1h}, {@code 6h})
     * @param fastBurn    the 1 h / 5 min pair burns at the fast threshold
     * @param slowBurn    the 6 h / 30 min pair burns at the slow threshold
     * @param remaining   share of the budget left (negative overspent), or null
     */
    public record ObjectiveFacts(
            String name,
            String scope,
            String namespace,
            double ettrTarget,
            Double ettr,
            java.util.Map<String, Double> burnRates,
            boolean fastBurn,
            boolean slowBurn,
            Double remaining) {}

    /** A snapshot with nothing in it (every section present and empty). */
    public static AlertSnapshot empty() {
        return new AlertSnapshot(List.of(), List.of(), List.of(), List.of(), List.of(), null);
    }

    /**
     * One job.
     *
     * @param job                       job name ({@code namespace/name})
     * @param namespace                 its namespace
     * @param active                    whether it holds nodes and trains (freshness only matters then)
     * @param freshnessAgeMillis        age of its newest good checkpoint (or of its first training without one), or null
     * @param freshnessObjectiveMillis  its freshness objective
     * @param restartTimes              when it stopped for a restart, recent ones (bounded by the model)
     * @param coordinatorOnSpot         whether its rank 0 or rendezvous endpoint runs on spot while its pools offer
     *                                  on-demand capacity
     * @param placementWarning          what the placement check said, when it flagged the job; else null
     * @param nodeLocalCheckpoint       whether its newest good checkpoint would be lost with a node
     * @param stragglers                its stragglers now, or null when not known
     * @param hang                      its open hang incident, or null when it has none
     * @param stopAdvice                the recovery ladder's newest advice when it is to stop the job (not failed)
     *                                  and the job is not training, else null
     * @param noSpace                   its latest save refused for want of space with none completed since, or null
     */
    public record JobFacts(
            String job,
            String namespace,
            boolean active,
            Long freshnessAgeMillis,
            long freshnessObjectiveMillis,
            List<Instant> restartTimes,
            boolean coordinatorOnSpot,
            String placementWarning,
            boolean nodeLocalCheckpoint,
            io.lifeline.domain.job.straggler.StragglerView stragglers,
            HangFacts hang,
            Advice stopAdvice,
            io.lifeline.domain.job.checkpoint.NoSpaceRefusal noSpace) {

        public JobFacts {
            restartTimes = List.copyOf(restartTimes);
        }

        /** A job whose saves were not refused for space. */
        public JobFacts(
                String job,
                String namespace,
                boolean active,
                Long freshnessAgeMillis,
                long freshnessObjectiveMillis,
                List<Instant> restartTimes,
                boolean coordinatorOnSpot,
                String placementWarning,
                boolean nodeLocalCheckpoint,
                io.lifeline.domain.job.straggler.StragglerView stragglers,
                HangFacts hang,
                Advice stopAdvice) {
            this(
                    job,
                    namespace,
                    active,
                    freshnessAgeMillis,
                    freshnessObjectiveMillis,
                    restartTimes,
                    coordinatorOnSpot,
                    placementWarning,
                    nodeLocalCheckpoint,
                    stragglers,
                    hang,
                    stopAdvice,
                    null);
        }

        /** A job the recovery ladder has not decided to stop. */
        public JobFacts(
                String job,
                String namespace,
                boolean active,
                Long freshnessAgeMillis,
                long freshnessObjectiveMillis,
                List<Instant> restartTimes,
                boolean coordinatorOnSpot,
                String placementWarning,
                boolean nodeLocalCheckpoint,
                io.lifeline.domain.job.straggler.StragglerView stragglers,
                HangFacts hang) {
            this(
                    job,
                    namespace,
                    active,
                    freshnessAgeMillis,
                    freshnessObjectiveMillis,
                    restartTimes,
                    coordinatorOnSpot,
                    placementWarning,
                    nodeLocalCheckpoint,
                    stragglers,
                    hang,
                    null);
        }

        /** A job without an open hang incident. */
        public JobFacts(
                String job,
                String namespace,
                boolean active,
                Long freshnessAgeMillis,
                long freshnessObjectiveMillis,
                List<Instant> restartTimes,
                boolean coordinatorOnSpot,
                String placementWarning,
                boolean nodeLocalCheckpoint,
                io.lifeline.domain.job.straggler.StragglerView stragglers) {
            this(
                    job,
                    namespace,
                    active,
                    freshnessAgeMillis,
                    freshnessObjectiveMillis,
                    restartTimes,
                    coordinatorOnSpot,
                    placementWarning,
                    nodeLocalCheckpoint,
                    stragglers,
                    null);
        }

        /** A job without straggler facts. */
        public JobFacts(
                String job,
                String namespace,
                boolean active,
                Long freshnessAgeMillis,
                long freshnessObjectiveMillis,
                List<Instant> restartTimes,
                boolean coordinatorOnSpot,
                String placementWarning,
                boolean nodeLocalCheckpoint) {
            this(
                    job,
                    namespace,
                    active,
                    freshnessAgeMillis,
                    freshnessObjectiveMillis,
                    restartTimes,
                    coordinatorOnSpot,
                    placementWarning,
                    nodeLocalCheckpoint,
                    null,
                    null);
        }

        /** A job whose placement was not flagged and whose newest checkpoint survives a node (or that has none). */
        public JobFacts(
                String job,
                String namespace,
                boolean active,
                Long freshnessAgeMillis,
                long freshnessObjectiveMillis,
                List<Instant> restartTimes) {
            this(
                    job,
                    namespace,
                    active,
                    freshnessAgeMillis,
                    freshnessObjectiveMillis,
                    restartTimes,
                    false,
                    null,
                    false,
                    null,
                    null);
        }
    }

    /**
     * A job's open incident of cause hang: its workers are alive and none of them makes progress.
     *
     * @param incident      the incident's id
     * @param stoppedAt     when the hang was detected (the incident stopped training)
     * @param hangMillis    how long the job has been hung, from its last progress
     * @param suspectNodes  the nodes of the suspected ranks, the first suspect's first (may be empty)
     * @param detail        what the detector said: the kind of hang, stalled time against the threshold, the first
     *                      suspect rank and why (may be null)
     */
    public record HangFacts(
            String incident, Instant stoppedAt, long hangMillis, List<String> suspectNodes, String detail) {

        public HangFacts {
            suspectNodes = List.copyOf(suspectNodes);
        }
    }

    /**
     * An interruption notice on a node of a job.
     *
     * @param job                   job name
     * @param namespace             its namespace
     * @param node                  the node that got the notice, may be null
     * @param incident              the incident that recorded it
     * @param noticeAt              when the notice came
     * @param deadline              the notice's deadline, or null
     * @param stoppedAt             when training stopped (the node went away), or null
     * @param checkpointsCompleted  completion times of the job's recent good checkpoints
     */
    public record NoticeFacts(
            String job,
            String namespace,
            String node,
            String incident,
            Instant noticeAt,
            Instant deadline,
            Instant stoppedAt,
            List<Instant> checkpointsCompleted) {

        public NoticeFacts {
            checkpointsCompleted = List.copyOf(checkpointsCompleted);
        }
    }

    /**
     * One XID a GPU reported.
     *
     * @param node         node
     * @param gpuIndex     GPU index on the node
     * @param gpuUuid      GPU UUID, may be null
     * @param xid          XID code
     * @param time         when it was reported
     * @param fatal        whether the XID policy rates it fatal (verdict FAILED)
     * @param description  what it means, may be null
     * @param namespace    namespace of the pod on the GPU, may be null
     */
    public record XidFacts(
            String node,
            int gpuIndex,
            String gpuUuid,
            int xid,
            Instant time,
            boolean fatal,
            String description,
            String namespace) {}

    /**
     * One node.
     *
     * @param node         node name
     * @param pool         pool, may be null
     * @param lemonScore   interruptions within the lemon window
     * @param lemonWindow  that window
     */
    public record NodeFacts(String node, String pool, int lemonScore, Duration lemonWindow) {}

    /**
     * An action that ended FAILED.
     *
     * @param id      action id
     * @param kind    action kind (wire name)
     * @param target  job ({@code namespace/name}) or node
     * @param time    when it failed
     * @param reason  why, may be null
     */
    public record FailedAction(String id, String kind, String target, Instant time, String reason) {

        /** The namespace of a job target, or null for a node. */
        public String namespace() {
            int slash = target == null ? -1 : target.indexOf('/');
            return slash > 0 ? target.substring(0, slash) : null;
        }
    }

    /**
     * The automation brake.
     *
     * @param engaged  whether it is engaged (the policies' node drains are held)
     * @param since    when it engaged, null while released
     * @param reason   which bound the tripping decision would have passed, null while released
     * @param policy   the policy whose decision tripped it, null while released
     * @param node     the node that decision would have taken, null while released
     * @param pool     that node's pool, may be null
     * @param held     decisions held since it engaged
     */
    public record BrakeFacts(
            boolean engaged, Instant since, String reason, String policy, String node, String pool, long held) {

        /** Released. */
        public static final BrakeFacts RELEASED = new BrakeFacts(false, null, null, null, null, null, 0);
    }

    /**
     * Ingest health.
     *
     * @param lag                events (or batches) waiting to be applied
     * @param deadLetteredTotal  events dead-lettered since start (a counter)
     */
    public record IngestFacts(long lag, long deadLetteredTotal) {}
}
