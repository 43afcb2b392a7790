package io.lifeline.domain.event;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/** Payloads of {@code trainer.*} events (torchrun agents and the training loop); the subject is the job. */
public sealed interface TrainerData extends EventData {

    /**
     * A rendezvous round completed: who is in the job now.
     *
     * @param runId         torchrun run id, may be null
     * @param round         rendezvous round (version)
     * @param worldSize     total ranks
     * @param participants  nodes and the ranks they host
     * @param endpointNode  node that hosts the rendezvous endpoint (the c10d store, {@code MASTER_ADDR}), or null
     *                      when not reported (the rank-0 node is then taken to host it)
     */
    record Rendezvous(String runId, int round, int worldSize, List<Participant> participants, String endpointNode)
            implements TrainerData {
        public Rendezvous {
            participants = List.copyOf(participants);
        }

        /** A round that does not name its endpoint's node. */
        public Rendezvous(String runId, int round, int worldSize, List<Participant> participants) {
            this(runId, round, worldSize, participants, null);
        }
    }

    /**
     * One node's share of a rendezvous.
     *
     * @param node       node name
     * @param firstRank  first global rank on the node
     * @param rankCount  how many ranks it hosts
     */
    record Participant(String node, int firstRank, int rankCount) {}

    /**
     * A worker process failed. {@code node}, {@code exitCode}, {@code error} and {@code step} may be null.
     *
     * @param step  the last step the rank completed, as it reported itself (the trainer agent does), or null
     */
    record WorkerFailed(String runId, int rank, String node, Integer exitCode, String error, Long step)
            implements TrainerData {

        /** A failure reported without the rank's step (torchelastic, a pod's exit). */
        public WorkerFailed(String runId, int rank, String node, Integer exitCode, String error) {
            this(runId, rank, node, exitCode, error, null);
        }
    }

    /** The elastic agent restarted the workers; {@code restartCount} is the agent's count so far. */
    record Restarted(String runId, int restartCount, String reason) implements TrainerData {}

    /**
     * Training progress; rates may be null. {@code loss}: the loss the trainers gave with the step, null when they give
     * none; NaN or infinite when it was (sent as {@code "nan"}, {@code "inf"}, {@code "-inf"}).
     */
    record Progress(long step, Double samplesPerSecond, Double tokensPerSecond, Double loss) implements TrainerData {

        /** Progress without a loss. */
        public Progress(long step, Double samplesPerSecond, Double tokensPerSecond) {
            this(step, samplesPerSecond, tokensPerSecond, null);
        }
    }

    /**
     * The trainers' own summary of their progress as a job controller keeps it (Kubeflow Trainer's
     * {@code TrainJob.status.trainerStatus}): coarser than {@link Progress}, one report for the whole job, no rank.
     *
     * @param reportedAt        when the trainers made the report ({@code lastUpdatedTime}, by their clock)
     * @param percent           how complete the run is, 0 to 100, or null when not said
     * @param remainingSeconds  the estimated time left, or null
     * @param step              the step reached when a metric names it ({@code step}, {@code global_step}...), or null
     * @param totalSteps        the steps planned when a metric names them, or null
     * @param loss              the {@code loss} metric when it is a number, or null
     * @param metrics           every metric as reported, by name (at most {@link #MAX_METRICS})
     */
    record StatusReport(
            Instant reportedAt,
            Integer percent,
            Long remainingSeconds,
            Long step,
            Long totalSteps,
            Double loss,
            List<Metric> metrics)
            implements TrainerData {

        /** Metrics kept from one report (Trainer allows 256; a page shows a handful). */
        public static final int MAX_METRICS = 64;

        public StatusReport {
            Objects.requireNonNull(reportedAt, "reportedAt");
            metrics = metrics == null
                    ? List.of()
                    : List.copyOf(metrics.size() > MAX_METRICS ? metrics.subList(0, MAX_METRICS) : metrics);
        }
    }

    /** One named metric of a {@link StatusReport}, its value as the trainers wrote it. */
    record Metric(String name, String value) {}

    /**
     * One rank's step times since its previous report (what finds stragglers).
     *
     * @param rank               global rank
     * @param localRank          rank on its node, or null
     * @param node               the node it runs on, or null
     * @param steps              steps summarised
     * @param toStep             the step it reached
     * @param medianSeconds      median wall time between two steps
     * @param maxSeconds         longest, or null
     * @param busyMedianSeconds  median time the rank worked before waiting for its peers, or null
     * @param sinceStepSeconds   seconds since the rank's last step, by the agent's own clock, or null (an older agent)
     * @param phase              what the rank is doing ({@code training}, {@code saving}, {@code startup}, a phase
     *                           its loop declared...), or null
     * @param phaseSeconds       seconds since it entered that phase, or null
     */
    record StepTimes(
            int rank,
            Integer localRank,
            String node,
            long steps,
            long toStep,
            double medianSeconds,
            Double maxSeconds,
            Double busyMedianSeconds,
            Double sinceStepSeconds,
            String phase,
            Double phaseSeconds)
            implements TrainerData {

        /** A report without the heartbeat's fields (an agent from before them). */
        public StepTimes(
                int rank,
                Integer localRank,
                String node,
                long steps,
                long toStep,
                double medianSeconds,
                Double maxSeconds,
                Double busyMedianSeconds) {
            this(rank, localRank, node, steps, toStep, medianSeconds, maxSeconds, busyMedianSeconds, null, null, null);
        }

        /** Whether the report summarises steps (otherwise it is only a heartbeat: the rank is alive, no step since). */
        public boolean hasSteps() {
            return steps > 0;
        }

        /** What tells this rank's pace from its peers': its own work when reported (a synchronous step's wall time
         * is the same on every rank), else the wall time. */
        public double paceSeconds() {
            return busyMedianSeconds != null ? busyMedianSeconds : medianSeconds;
        }
    }

    /**
     * The Python stacks of one rank's threads, captured on request (a suspected hang, or an operator's look).
     *
     * @param requestId         the request it answers ({@code local} when the rank captured on its own)
     * @param rank              global rank
     * @param localRank         rank on its node, or null
     * @param node              its node, or null
     * @param pid               its process id, or null
     * @param step              the step it reached, or null
     * @param phase             what it was doing, or null
     * @param sinceStepSeconds  seconds since its last step, or null
     * @param via               how they were read: {@code frames} (from a thread of the process) or
     *                          {@code faulthandler} (a signal's dump, for a process whose interpreter was stuck)
     * @param threads           its threads, each with its frames outermost first
     * @param text              a raw dump (the faulthandler's text), or null
     */
    record Stacks(
            String requestId,
            int rank,
            Integer localRank,
            String node,
            Integer pid,
            Long step,
            String phase,
            Double sinceStepSeconds,
            String via,
            List<StackThread> threads,
            String text)
            implements TrainerData {
        public Stacks {
            threads = List.copyOf(threads);
        }
    }

    /**
     * One thread of a stack capture.
     *
     * @param name    thread name
     * @param main    whether it is the process's main (training) thread
     * @param agent   whether it is one of the agent's own threads
     * @param frames  outermost first
     */
    record StackThread(String name, boolean main, boolean agent, List<StackFrame> frames) {
        public StackThread {
            frames = List.copyOf(frames);
        }
    }

    /** One frame: file, line, function. */
    record StackFrame(String file, int line, String function) {}

    /** A checkpoint save began. */
    record CheckpointStarted(String checkpointId, long step, boolean async, SaveReason reason, Double loss)
            implements TrainerData {

        /** A save that names no loss. */
        public CheckpointStarted(String checkpointId, long step, boolean async, SaveReason reason) {
            this(checkpointId, step, async, reason, null);
        }

        /** A save whose reason was not given. */
        public CheckpointStarted(String checkpointId, long step, boolean async) {
            this(checkpointId, step, async, null, null);
        }
    }

    /** Why trainers saved: on their schedule, on a command, to exit (prepare_exit), or on a termination signal. */
    enum SaveReason {
        PERIODIC,
        COMMAND,
        PREPARE_EXIT,
        SIGNAL;

        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        /** The reason for a wire name, or null. */
        public static SaveReason fromWireName(String s) {
            for (SaveReason r : values()) {
                if (r.wireName().equals(s)) {
                    return r;
                }
            }
            return null;
        }

        /** Saves made because the trainers were about to stop. */
        public boolean forExit() {
            return this == PREPARE_EXIT || this == SIGNAL;
        }
    }

    /**
     * A checkpoint save finished and is complete on storage.
     *
     * @param checkpointId     id
     * @param step             training step saved
     * @param bytes            size, may be null
     * @param durationSeconds  total save time
     * @param blockingSeconds  time the trainers were blocked
     * @param uri              storage location, may be null
     * @param checksum         checksum, may be null
     * @param shards           shard count, may be null
     * @param async            saved asynchronously
     * @param worldSize        world size at save, may be null
     * @param replicas         nodes holding a complete copy (the writer included), as the trainers report it; empty
     *                         when they do not
     * @param durable          whether the trainers declare that where they save outlives any node (a shared file
     *                         system, object storage): true or false as declared, null when they do not say
     * @param freeBytes        free space left on the storage after the save, as the trainers read it, or null
     * @param capacityBytes    the storage's total size, as the trainers read it, or null
     */
    record CheckpointCompleted(
            String checkpointId,
            long step,
            Long bytes,
            double durationSeconds,
            double blockingSeconds,
            String uri,
            String checksum,
            Integer shards,
            boolean async,
            Integer worldSize,
            List<String> replicas,
            Boolean durable,
            Long freeBytes,
            Long capacityBytes)
            implements TrainerData {

        public CheckpointCompleted {
            replicas = replicas == null ? List.of() : List.copyOf(replicas);
        }

        /** A completion that does not report the storage's free space. */
        public CheckpointCompleted(
                String checkpointId,
                long step,
                Long bytes,
                double durationSeconds,
                double blockingSeconds,
                String uri,
                String checksum,
                Integer shards,
                boolean async,
                Integer worldSize,
                List<String> replicas,
                Boolean durable) {
            this(
                    checkpointId,
                    step,
                    bytes,
                    durationSeconds,
                    blockingSeconds,
                    uri,
                    checksum,
                    shards,
                    async,
                    worldSize,
                    replicas,
                    durable,
                    null,
                    null);
        }

        /** A completion that does not say whether its storage outlives a node. */
        public CheckpointCompleted(
                String checkpointId,
                long step,
                Long bytes,
                double durationSeconds,
                double blockingSeconds,
                String uri,
                String checksum,
                Integer shards,
                boolean async,
                Integer worldSize,
                List<String> replicas) {
            this(
                    checkpointId,
                    step,
                    bytes,
                    durationSeconds,
                    blockingSeconds,
                    uri,
                    checksum,
                    shards,
                    async,
                    worldSize,
                    replicas,
                    null);
        }

        /** A completion that names no replicas. */
        public CheckpointCompleted(
                String checkpointId,
                long step,
                Long bytes,
                double durationSeconds,
                double blockingSeconds,
                String uri,
                String checksum,
                Integer shards,
                boolean async,
                Integer worldSize) {
            this(
                    checkpointId,
                    step,
                    bytes,
                    durationSeconds,
                    blockingSeconds,
                    uri,
                    checksum,
                    shards,
                    async,
                    worldSize,
                    List.of(),
                    null);
        }
    }

    /**
     * A checkpoint save failed.
     *
     * @param freeBytes      free space left on the storage when it failed, as the trainers read it, or null
     * @param capacityBytes  the storage's total size, as the trainers read it, or null
     * @param reason         why, when the trainers say ({@code no_space}: their free-space guard refused it), or null
     * @param neededBytes    with {@code no_space}: what the save needed, or null
     */
    record CheckpointFailed(
            String checkpointId,
            long step,
            String error,
            Long freeBytes,
            Long capacityBytes,
            FailReason reason,
            Long neededBytes)
            implements TrainerData {

        /** A failure that does not report the storage's free space. */
        public CheckpointFailed(String checkpointId, long step, String error) {
            this(checkpointId, step, error, null, null, null, null);
        }

        /** A failure that reports the storage's free space and size, and no reason. */
        public CheckpointFailed(String checkpointId, long step, String error, Long freeBytes, Long capacityBytes) {
            this(checkpointId, step, error, freeBytes, capacityBytes, null, null);
        }

        /** A failure with a reason, the free space and what the save needed. */
        public CheckpointFailed(
                String checkpointId, long step, String error, FailReason reason, Long freeBytes, Long neededBytes) {
            this(checkpointId, step, error, freeBytes, null, reason, neededBytes);
        }
    }

    /** Why a save failed, when the trainers say: their free-space guard refused it (or the disk filled). */
    enum FailReason {
        NO_SPACE;

        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        /** The reason for a wire name, or null. */
        public static FailReason fromWireName(String s) {
            for (FailReason r : values()) {
                if (r.wireName().equals(s)) {
                    return r;
                }
            }
            return null;
        }
    }

    /** A checkpoint was checked on storage: {@code ok} false means corrupt. */
    record CheckpointVerified(String checkpointId, boolean ok, String checksum) implements TrainerData {}

    /** The trainers resumed from a checkpoint. */
    record Restored(String checkpointId, long step, String runId) implements TrainerData {}

    /** The trainer answered a command Lifeline sent. */
    record CommandAck(String commandId, String command, AckStatus status, String message) implements TrainerData {}

    /** A trainer's answer to a command. */
    enum AckStatus {
        ACCEPTED,
        REJECTED,
        DONE,
        FAILED;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
