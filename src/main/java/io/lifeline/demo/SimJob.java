package io.lifeline.demo;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * One simulated training job: phase, membership, step accounting and checkpoints. Steps advance only
 * while RUNNING and not blocked by a save, at a rate set by the world size (the global batch is fixed,
 * so fewer nodes take longer per step). Every change of phase or blocking goes through
 * {@link #moveTo} or {@link #setBlocked}, which settle the step count first.
 */
final class SimJob {

    /** Most commands a job keeps waiting for an answer; more are rejected. */
    static final int MAX_PENDING_COMMANDS = 32;
    /** Completed checkpoints remembered per job, newest last, for restores from a named one. */
    static final int CHECKPOINT_HISTORY = 32;

    /** A checkpoint that completed on storage. */
    record Checkpoint(String id, long step) {}

    /** A save in progress. */
    record Save(
            String id,
            long step,
            long startedAt,
            double blockingSeconds,
            double durationSeconds,
            boolean async,
            boolean durable) {}

    /** What a waiting command is for. */
    /** DURABLE_CHECKPOINT: a checkpoint command that asked for storage outliving the node ({@code storage=durable}). */
    enum CommandKind {
        CHECKPOINT,
        DURABLE_CHECKPOINT,
        RESCALE,
        SUSPEND,
        RESUME,
        RESTORE
    }

    /**
     * A command accepted and not yet answered with done or failed; a checkpoint command is answered done only by a save
     * of at least {@code minStep} (prepare_exit: the step the trainers hold at, not an older save still uploading).
     */
    record PendingCommand(String commandId, String command, CommandKind kind, long deadline, long minStep) {

        PendingCommand(String commandId, String command, CommandKind kind, long deadline) {
            this(commandId, command, kind, deadline, Long.MIN_VALUE);
        }
    }

    final Scenario.Job spec;
    final String key;
    final String runId;
    final List<PoolState> pools;
    /** Share of the frame buffer the job's processes use on each GPU. */
    final double memoryFraction;

    JobPhase phase = JobPhase.NEW;
    /** Bumped by every restart: happenings scheduled under an older epoch are stale and do nothing. */
    int epoch;
    /** Nodes in the current world, in rank order. */
    final List<SimNode> world = new ArrayList<>();
    /** Nodes held for the next rendezvous (pods started, not in the world yet). */
    final List<SimNode> reserved = new ArrayList<>();
    /** Nodes the job aims for: max nodes unless a rescale command said otherwise. */
    int target;

    int round = -1;
    int restarts;
    /** Epoch under which a growth is scheduled, or -1. */
    int growthEpoch = -1;
    /** Kueue workload name, set when the job is submitted. */
    String workload;
    /** Why the current membership change (RESCALING) happens. */
    String changeReason;

    private double steps;
    private long settledAt;
    boolean blocked;

    Checkpoint newest;
    /** Completed checkpoints, oldest first, at most {@link #CHECKPOINT_HISTORY}. */
    final ArrayDeque<Checkpoint> history = new ArrayDeque<>();
    /** The checkpoint the next restore loads instead of the newest (a restore command or annotation), or null. */
    Checkpoint restoreFrom;
    /** Seconds between periodic saves: the scenario's, unless a command changed it. */
    long intervalSeconds;
    /** Prepared to exit: paused after its save until it restarts (see {@code Checkpoints.prepareExit}). */
    boolean holdAfterSave;
    /** Suspension asked for while the job was between phases; applied once it trains or waits. */
    boolean suspendWanted;

    Save inFlight;
    int saves;
    /** Bumped whenever the periodic checkpoint timer is re-armed, so only the newest timer fires. */
    long periodicToken;

    final List<PendingCommand> commands = new ArrayList<>();

    /** Whether a waiting checkpoint command needs a save of a step beyond {@code step}. */
    boolean wantsNewerThan(long step) {
        for (PendingCommand c : commands) {
            if ((c.kind() == CommandKind.CHECKPOINT || c.kind() == CommandKind.DURABLE_CHECKPOINT)
                    && c.minStep() > step) {
                return true;
            }
        }
        return false;
    }

    /** Whether a waiting command asked for a checkpoint on durable storage. */
    boolean wantsDurable() {
        for (PendingCommand c : commands) {
            if (c.kind() == CommandKind.DURABLE_CHECKPOINT) {
                return true;
            }
        }
        return false;
    }

    SimJob(Scenario.Job spec, List<PoolState> pools, String runId, double memoryFraction) {
        this.spec = spec;
        this.key = spec.key();
        this.pools = pools;
        this.runId = runId;
        this.memoryFraction = memoryFraction;
        this.target = spec.maxNodes();
        this.steps = spec.startStep();
        this.intervalSeconds = spec.checkpoint().intervalSeconds();
        if (spec.startStep() > 0) {
            // A run already in progress when the demo starts resumes from a checkpoint saved before it.
            completed(new Checkpoint(spec.name() + "-ckpt-initial", spec.startStep()));
        }
    }

    /** A checkpoint completed: it is the newest, and remembered (bounded) for restores by id. */
    void completed(Checkpoint c) {
        newest = c;
        history.addLast(c);
        while (history.size() > CHECKPOINT_HISTORY) {
            history.removeFirst();
        }
    }

    /** A remembered complete checkpoint, or null. */
    Checkpoint checkpoint(String id) {
        for (Checkpoint c : history) {
            if (c.id().equals(id)) {
                return c;
            }
        }
        return null;
    }

    /** The pod this job runs on a node it holds: the world's rank-ordered name, else one named after the node. */
    String podOn(SimNode n) {
        return n.inWorld && n.pod != null ? n.pod : spec.name() + "-worker-" + n.name;
    }

    /** Nodes held: in the world plus reserved. */
    int held() {
        return world.size() + reserved.size();
    }

    boolean training() {
        return phase == JobPhase.RUNNING && !blocked;
    }

    /** Milliseconds per step on {@code nodes} nodes. */
    double stepMillis(int nodes) {
        return spec.stepSeconds() * 1000.0 * spec.maxNodes() / Math.max(1, nodes);
    }

    /** Steps done, as of {@code now}. */
    long step(long now) {
        settle(now);
        return (long) Math.floor(steps);
    }

    private void settle(long now) {
        if (training() && now > settledAt) {
            steps += (now - settledAt) / stepMillis(world.size());
        }
        settledAt = now;
    }

    void moveTo(JobPhase next, long now) {
        settle(now);
        phase = next.checkFollows(phase);
    }

    void setBlocked(boolean b, long now) {
        settle(now);
        blocked = b;
    }

    /** Rolls the step count back (or forward) to a checkpoint's step: work after it is lost. */
    void resetSteps(long step, long now) {
        settle(now);
        steps = step;
    }

    /** Whether there is progress a save would keep: steps beyond the newest complete checkpoint. */
    boolean progressSinceNewest(long now) {
        return newest == null || step(now) > newest.step();
    }

    String podName(int index) {
        return spec.name() + "-worker-" + index;
    }
}
