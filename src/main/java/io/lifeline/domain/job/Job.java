package io.lifeline.domain.job;

import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.fleet.NodeDirectory;
import io.lifeline.domain.fleet.NodeInfo;
import io.lifeline.domain.job.checkpoint.CheckpointLedger;
import io.lifeline.domain.job.command.CommandAcks;
import io.lifeline.domain.job.goodput.Bucket;
import io.lifeline.domain.job.goodput.GoodputLedger;
import io.lifeline.domain.job.incident.Incident;
import io.lifeline.domain.job.incident.IncidentLog;
import io.lifeline.domain.job.membership.Membership;
import io.lifeline.domain.job.recovery.RecoveryLog;
import io.lifeline.domain.job.support.RecentIds;
import io.lifeline.domain.job.support.Ring;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The mutable state of one job: its spec, lifecycle state, progress and the parts that account for it
 * (goodput ledger, membership, checkpoints, incidents). The handlers of this package change it; views
 * are built from it by {@link JobViews}. Not thread-safe: one writer per job.
 */
final class Job {

    static final String UNKNOWN_POOL = "unknown";
    private static final int COMMAND_ACKS = 32;

    final String name;
    String namespace;
    String owner;
    String priorityClass;
    ElasticPolicy elastic;
    /** GPUs per node from the spec: 0 for a job on CPUs, null until a spec says (one GPU per rank is assumed then). */
    Integer gpusPerNode;

    Long checkpointIntervalSeconds;
    Long freshnessObjectiveMillis;
    /** How the job heals its own replica failures (TorchFT), or null: Lifeline leaves those failures to it. */
    JobData.SelfHealing healsItself;

    JobState state = JobState.PENDING;
    Instant stateSince;
    Instant submittedAt;
    Instant finishedAt;
    String finishReason;
    boolean admitted;
    /** Whether a {@code job.submitted} of this incarnation was seen (a job without one may be a stray). */
    boolean submitted;

    long lastStep = -1;
    Instant lastProgressAt;
    Instant firstProgressAt;
    Double samplesPerSecond;
    Double tokensPerSecond;
    int restarts;
    /** GPUs of the latest rendezvous round, the estimate while an admitted job's placement is not known yet. */
    int lastRoundGpus;

    int agentRestarts;
    String syncSave;
    /** The trainers acknowledged a prepare_exit: their next completed save is the last before they stop. */
    boolean exitRequested;
    /**
     * The trainers saved for a prepare_exit and hold still until they restart: no productive time accrues, so a stop
     * that follows loses nothing. Cleared by progress past {@link #holdingStep} or by a rendezvous.
     */
    boolean holding;
    /** The step of the save the trainers hold still at. */
    long holdingStep;
    /** When that save completed and the hold began: training stopped there (null when not known). */
    Instant holdingSince;

    Instant rescaleStartedAt;
    long rescaleMillis;
    long rescaleGpuMillis;
    long duplicates;
    long lateEvents;

    /** Finds slow ranks from their step times; null until a rank reports them. */
    io.lifeline.domain.job.straggler.StragglerDetector stragglers;
    /** The ranks' heartbeats and the job's earned thresholds; null until a rank reports. */
    io.lifeline.domain.job.hang.HangWatch hangs;
    /** The controller's status reports (a TrainJob's {@code trainerStatus}); null until one arrives. */
    io.lifeline.domain.job.hang.StatusWatch statusReports;
    /**
     * Whether the trainers report {@code trainer.progress} themselves (the agent): from then on that is the job's
     * progress, and status reports are shown but move nothing.
     */
    boolean agentProgress;
    /** The controller's restart counter as last seen ({@code job.restarted}), or -1 before any. */
    int controllerRestarts = -1;
    /** The controller's in-place restart attempt as last seen, or -1 before any. */
    int controllerInPlaceRestarts = -1;
    /** The recent losses the trainers reported, which judge a save's trust; null until they report one. */
    io.lifeline.domain.job.checkpoint.LossWindow losses;
    /** Recovery's advice for the job's incidents, from the {@code job.recovery_*} events. */
    RecoveryLog recovery = new RecoveryLog();
    /** The newest stack captures, newest last (at most {@link #STACK_CAPTURES_KEPT}); null until one arrives. */
    java.util.ArrayDeque<io.lifeline.domain.job.hang.StackCapture> stacks;

    static final int STACK_CAPTURES_KEPT = 4;

    final GoodputLedger ledger;
    final Membership membership;
    final CheckpointLedger checkpoints;
    final IncidentLog incidents;
    final RecentIds recentIds;
    /** The trainers' latest answer per command: actions waiting on a command stop when it is refused. */
    final CommandAcks commandAcks = new CommandAcks(COMMAND_ACKS);

    final Ring<TimelineEntry> timeline;
    final Ring<RefusedTransition> refusals;
    long timelineSeq;
    /** Which run under this name: the epoch milliseconds of the first event seen of it. */
    final long incarnation;
    /** The highest timeline sequence handed over for storage ({@link Jobs#drainTimeline()}). */
    long drainedSeq;
    /** The latest event time (epoch ms) of the entries that left the ring, or {@code Long.MIN_VALUE} if none did. */
    long evictedThroughMillis = Long.MIN_VALUE;
    /** Whether the job is queued to hand over new timeline entries. */
    boolean drainQueued;
    /** Whether the job is queued to hand over changed incidents and checkpoints ({@link Jobs#drainRecords()}). */
    boolean recordsQueued;

    /** Per pool and per capacity type: active nodes now (resolved when the membership changes), exposure, interruptions. */
    final Map<String, PoolStats> pools = new TreeMap<>();

    final Map<String, PoolStats> capacities = new TreeMap<>();
    /** Per capacity type within a pool ({@link #poolCapacityKey}): the inputs of a pool's reclaim rate per capacity type. */
    final Map<String, PoolStats> poolCapacities = new TreeMap<>();

    long poolsVersion = -1;
    String primaryPool;
    String primaryCapacity;
    List<String> indexedNodes = List.of();
    /** The last placement check, valid while the membership's and the node directory's versions stay these. */
    io.lifeline.domain.job.spot.SpotPlacement placement;

    long placementMembership = -1;
    long placementFacts = -1;
    /** Queued among the ended jobs that are forgotten oldest first. */
    boolean retiring;

    long indexedVersion = -1;

    Job(String name, Instant firstSeen, JobsConfig config) {
        this(name, firstSeen, config, new RecentIds(config.maxRecentEventIds()));
    }

    /** Whether the job ever ran: a rendezvous round formed, or its trainers reported progress. */
    boolean hasRun() {
        return membership.current() != null || firstProgressAt != null || lastProgressAt != null;
    }

    /** The namespace of a job named {@code namespace/name}; {@code default} for a name without one. */
    static String namespaceOf(String name) {
        int slash = name.indexOf('/');
        return slash > 0 ? name.substring(0, slash) : "default";
    }

    /** A job that inherits the event identities seen under its name (a new incarnation of an ended job). */
    Job(String name, Instant firstSeen, JobsConfig config, RecentIds recentIds) {
        this.name = name;
        this.namespace = namespaceOf(name);
        this.stateSince = firstSeen;
        this.incarnation = firstSeen.toEpochMilli();
        this.submittedAt = firstSeen;
        this.ledger = new GoodputLedger(firstSeen.toEpochMilli(), Bucket.WAITING);
        this.membership = new Membership(config.maxRounds(), config.maxWorldSizePoints());
        this.checkpoints = new CheckpointLedger(config.maxCheckpointsPerJob(), config.maxRestoresPerJob());
        this.incidents = new IncidentLog(name, config.maxIncidentsPerJob());
        this.recentIds = recentIds;
        this.timeline = new Ring<>(config.maxTimelineEntries());
        this.refusals = new Ring<>(config.maxRefusals());
    }

    /** A job in the state {@link #save()} gave, with the bounds of {@code config}. */
    Job(SavedJob s, JobsConfig config) {
        this.name = s.name();
        this.incarnation = s.incarnation();
        this.ledger = GoodputLedger.restore(s.ledger());
        this.membership = Membership.restore(s.membership(), config.maxRounds(), config.maxWorldSizePoints());
        this.checkpoints =
                CheckpointLedger.restore(s.checkpoints(), config.maxCheckpointsPerJob(), config.maxRestoresPerJob());
        this.incidents = IncidentLog.restore(s.name(), s.incidents(), config.maxIncidentsPerJob());
        this.recentIds = new RecentIds(config.maxRecentEventIds());
        recentIds.restore(s.recentIds());
        commandAcks.restore(s.commandAcks());
        this.timeline = new Ring<>(config.maxTimelineEntries());
        s.timeline().forEach(timeline::add);
        this.refusals = new Ring<>(config.maxRefusals());
        s.refusals().forEach(refusals::add);
        SavedJob.Spec spec = s.spec();
        // From the name, as a new job's: a checkpoint written before submissions were held to their subject's
        // namespace may hold another one.
        namespace = namespaceOf(name);
        owner = spec.owner();
        priorityClass = spec.priorityClass();
        elastic = spec.elastic();
        // Not saved as such: a submission is what gives a job its elastic policy (job.submitted requires one).
        submitted = elastic != null;
        gpusPerNode = spec.gpusPerNode();
        checkpointIntervalSeconds = spec.checkpointIntervalSeconds();
        freshnessObjectiveMillis = spec.freshnessObjectiveMillis();
        healsItself = spec.healsItself();
        state = s.state();
        stateSince = s.stateSince();
        submittedAt = s.submittedAt();
        finishedAt = s.finishedAt();
        finishReason = s.finishReason();
        admitted = s.admitted();
        retiring = s.retiring();
        SavedJob.Run run = s.run();
        lastStep = run.lastStep();
        lastProgressAt = run.lastProgressAt();
        firstProgressAt = run.firstProgressAt();
        samplesPerSecond = run.samplesPerSecond();
        tokensPerSecond = run.tokensPerSecond();
        restarts = run.restarts();
        lastRoundGpus = run.lastRoundGpus();
        agentRestarts = run.agentRestarts();
        syncSave = run.syncSave();
        exitRequested = run.exitRequested();
        holding = run.holding();
        holdingStep = run.holdingStep();
        holdingSince = run.holdingSince();
        rescaleStartedAt = run.rescaleStartedAt();
        rescaleMillis = run.rescaleMillis();
        rescaleGpuMillis = run.rescaleGpuMillis();
        duplicates = run.duplicates();
        lateEvents = run.lateEvents();
        agentProgress = run.agentProgress();
        controllerRestarts = run.controllerRestarts();
        controllerInPlaceRestarts = run.controllerInPlaceRestarts();
        timelineSeq = s.timelineSeq();
        drainedSeq = s.drainedSeq();
        evictedThroughMillis = s.evictedThroughMillis();
        s.pools().forEach((k, v) -> pools.put(k, PoolStats.restore(v)));
        s.capacities().forEach((k, v) -> capacities.put(k, PoolStats.restore(v)));
        s.poolCapacities().forEach((k, v) -> poolCapacities.put(k, PoolStats.restore(v)));
        poolsVersion = s.poolsVersion();
        primaryPool = s.primaryPool();
        primaryCapacity = s.primaryCapacity();
        indexedNodes = s.indexedNodes();
        indexedVersion = s.indexedVersion();
        recovery = RecoveryLog.restore(s.advice());
    }

    /** The job's state as plain values. */
    SavedJob save() {
        SavedJob.Spec spec = new SavedJob.Spec(
                namespace,
                owner,
                priorityClass,
                elastic,
                gpusPerNode,
                checkpointIntervalSeconds,
                freshnessObjectiveMillis,
                healsItself);
        SavedJob.Run run = new SavedJob.Run(
                lastStep,
                lastProgressAt,
                firstProgressAt,
                samplesPerSecond,
                tokensPerSecond,
                restarts,
                lastRoundGpus,
                agentRestarts,
                syncSave,
                exitRequested,
                holding,
                holdingStep,
                holdingSince,
                rescaleStartedAt,
                rescaleMillis,
                rescaleGpuMillis,
                duplicates,
                lateEvents,
                agentProgress,
                controllerRestarts,
                controllerInPlaceRestarts);
        return new SavedJob(
                name,
                incarnation,
                spec,
                state,
                stateSince,
                submittedAt,
                finishedAt,
                finishReason,
                admitted,
                retiring,
                run,
                ledger.save(),
                membership.save(),
                checkpoints.save(),
                incidents.save(),
                recentIds.keys(),
                commandAcks.views(),
                timeline.toList(),
                timelineSeq,
                drainedSeq,
                evictedThroughMillis,
                refusals.toList(),
                PoolStats.save(pools),
                PoolStats.save(capacities),
                poolsVersion,
                primaryPool,
                primaryCapacity,
                indexedNodes,
                indexedVersion,
                PoolStats.save(poolCapacities),
                recovery.save());
    }

    /**
     * Moves the accounting clock to {@code time} (or keeps it, for a late event) and accrues the elapsed
     * time to the current activity, the open incident, the rescale in progress and the exposure per pool.
     *
     * @return the effective time in epoch milliseconds: {@code max(time, clock)}
     */
    long advance(Instant time) {
        long t = time.toEpochMilli();
        long clock = ledger.clockMs();
        if (t < clock) {
            lateEvents++;
            return clock;
        }
        Bucket activity = ledger.activity();
        int gpus = ledger.gpus();
        long d = ledger.advanceTo(t);
        if (d > 0) {
            Incident open = incidents.open();
            if (open != null && open.stopped()) {
                open.accrue(activity, d, gpus);
            }
            if (state == JobState.RESCALING) {
                rescaleMillis += d;
                rescaleGpuMillis += d * gpus;
            }
            if (state == JobState.RUNNING || state == JobState.RESCALING) {
                for (PoolStats p : pools.values()) {
                    p.nodeMillis += d * p.nodes;
                }
                for (PoolStats c : capacities.values()) {
                    c.nodeMillis += d * c.nodes;
                }
                for (PoolStats c : poolCapacities.values()) {
                    c.nodeMillis += d * c.nodes;
                }
            }
        }
        return Math.max(t, clock);
    }

    /** What the job is doing now, for the goodput ledger ({@code null} once it ended). */
    Bucket activity() {
        switch (state) {
            case PENDING:
                return admitted || membership.current() != null ? Bucket.STARTUP : Bucket.WAITING;
            case RUNNING:
                return syncSave != null ? Bucket.CHECKPOINT : holding ? Bucket.RESCALE : Bucket.PRODUCTIVE;
            case RECOVERING:
                Incident open = incidents.open();
                return open != null && open.stopped() ? open.stage() : Bucket.RECOVERY_DETECTION;
            case RESCALING:
                return Bucket.RESCALE;
            case PREEMPTED:
            case SUSPENDED:
                return Bucket.WAITING;
            default:
                return null;
        }
    }

    /**
     * GPUs the job holds now: none while waiting or ended, else those of its nodes that are not lost. An
     * admitted job whose placement is not known yet (re-admitted, or starting before its first round) is
     * taken to hold what its latest round held, or, never having formed one, its spec's maximum.
     */
    int gpusHeld() {
        if (state.isTerminal() || state.isWaiting()) {
            return 0;
        }
        if (membership.nodes().isEmpty() && admitted) {
            if (lastRoundGpus > 0) {
                return lastRoundGpus;
            }
            return elastic != null && gpusPerNode != null ? elastic.maxNodes() * gpusPerNode : 0;
        }
        return membership.gpus(gpusPerNode);
    }

    /** Brings the ledger's activity and GPU count in line with the job after a change. */
    void settle() {
        Bucket a = activity();
        if (a == null) {
            ledger.stop();
        } else {
            ledger.switchTo(a, gpusHeld());
        }
    }

    /** Re-resolves pools and capacity types of the active nodes when the membership changed. */
    void resolvePools(NodeDirectory nodes) {
        if (poolsVersion == membership.version()) {
            return;
        }
        poolsVersion = membership.version();
        pools.values().forEach(p -> p.nodes = 0);
        capacities.values().forEach(c -> c.nodes = 0);
        poolCapacities.values().forEach(c -> c.nodes = 0);
        for (String node : membership.activeNodes()) {
            String pool = poolOf(nodes, node);
            String capacity = capacityOf(nodes, node);
            pools.computeIfAbsent(pool, k -> new PoolStats()).nodes++;
            capacities.computeIfAbsent(capacity, k -> new PoolStats()).nodes++;
            poolCapacities.computeIfAbsent(poolCapacityKey(pool, capacity), k -> new PoolStats()).nodes++;
        }
        String pool = majority(pools);
        if (pool != null) {
            primaryPool = pool;
            primaryCapacity = majority(capacities);
        }
    }

    /** Counts an interruption against a pool and a capacity type. */
    void countInterruption(String pool, String capacity) {
        pools.computeIfAbsent(pool, k -> new PoolStats()).interruptions++;
        capacities.computeIfAbsent(capacity, k -> new PoolStats()).interruptions++;
        poolCapacities.computeIfAbsent(poolCapacityKey(pool, capacity), k -> new PoolStats()).interruptions++;
    }

    /** The key of a capacity type within a pool: pool names are Kubernetes label values, which never hold '|'. */
    static String poolCapacityKey(String pool, String capacity) {
        return pool + "|" + capacity;
    }

    /** Pools where the job has active nodes now, sorted. */
    List<String> activePools() {
        List<String> out = new ArrayList<>();
        pools.forEach((k, p) -> {
            if (p.nodes > 0) {
                out.add(k);
            }
        });
        return out;
    }

    static String poolOf(NodeDirectory nodes, String node) {
        NodeInfo info = node == null ? null : nodes.find(node);
        return info == null || info.pool() == null ? UNKNOWN_POOL : info.pool();
    }

    static String capacityOf(NodeDirectory nodes, String node) {
        NodeInfo info = node == null ? null : nodes.find(node);
        return info == null || info.capacityType() == null
                ? UNKNOWN_POOL
                : info.capacityType().wireName();
    }

    /** The key with the most active nodes (first in order on a tie), or null when no node is active. */
    private static String majority(Map<String, PoolStats> counts) {
        String best = null;
        int most = 0;
        for (Map.Entry<String, PoolStats> e : counts.entrySet()) {
            if (e.getValue().nodes > most) {
                best = e.getKey();
                most = e.getValue().nodes;
            }
        }
        return best;
    }

    void timeline(Instant at, TimelineEntry.Kind kind, String type, String summary) {
        Incident open = incidents.open();
        timeline(at, kind, type, summary, open == null ? null : open.id());
    }

    void timeline(Instant at, TimelineEntry.Kind kind, String type, String summary, String incidentId) {
        if (timeline.isFull()) {
            evictedThroughMillis =
                    Math.max(evictedThroughMillis, timeline.oldest().time().toEpochMilli());
        }
        timeline.add(new TimelineEntry(++timelineSeq, at, kind, type, summary, incidentId));
    }

    /** The freshness objective: the configured override, else factor × interval, else the default. */
    long freshnessObjectiveMillis(JobsConfig config) {
        if (freshnessObjectiveMillis != null) {
            return freshnessObjectiveMillis;
        }
        if (checkpointIntervalSeconds != null && checkpointIntervalSeconds > 0) {
            return Math.round(checkpointIntervalSeconds * 1000.0 * config.freshnessObjectiveFactor());
        }
        return config.defaultFreshnessObjective().toMillis();
    }

    /** The names of {@code jobs}, in their order. */
    static List<String> names(Iterable<Job> jobs) {
        List<String> out = new java.util.ArrayList<>();
        jobs.forEach(j -> out.add(j.name));
        return out;
    }
}
