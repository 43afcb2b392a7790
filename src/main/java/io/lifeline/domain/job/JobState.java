package io.lifeline.domain.job;

import io.lifeline.domain.support.WireEnum;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The lifecycle of a training job. Each state lists the states it may follow (its legal predecessors);
 * {@link JobStateMachine} checks every transition against this table in one place.
 *
 * <pre>
 *            first progress                      worker fails / node lost
 *  PENDING ───────────────► RUNNING ◄──────────► RECOVERING ◄─── re-admitted ─── PREEMPTED / SUSPENDED
 *     │                      │   ▲  first progress    │                                   ▲
 *     │         new world    ▼   │  after rescale     └─────────── preempted / evicted ───┘
 *     │         size       RESCALING
 *     └──────── any state that is not terminal ──► SUCCEEDED / FAILED / CANCELLED
 * </pre>
 */
public enum JobState implements WireEnum {
    /** Submitted and not yet trained: queued, or admitted and starting. The initial state: no predecessors. */
    PENDING,
    /** Training: progress is being made (or a checkpoint saved). */
    RUNNING,
    /** An interruption stopped training; workers restart, re-form and load a checkpoint. */
    RECOVERING,
    /** A planned membership change (new world size) without a failure. */
    RESCALING,
    /** Preempted by the scheduler for higher-priority work; waits off its nodes to be admitted again. */
    PREEMPTED,
    /** Evicted or requeued by the scheduler for another reason; waits off its nodes to be admitted again. */
    SUSPENDED,
    /** Ended successfully. Terminal. */
    SUCCEEDED,
    /** Ended in failure. Terminal. */
    FAILED,
    /** Cancelled by its owner or an operator. Terminal. */
    CANCELLED;

    private static final Map<JobState, Set<JobState>> PREDECESSORS = new EnumMap<>(JobState.class);

    static {
        Set<JobState> live = EnumSet.of(PENDING, RUNNING, RECOVERING, RESCALING, PREEMPTED, SUSPENDED);
        PREDECESSORS.put(PENDING, EnumSet.noneOf(JobState.class));
        PREDECESSORS.put(RUNNING, EnumSet.of(PENDING, RECOVERING, RESCALING));
        PREDECESSORS.put(RECOVERING, EnumSet.of(PENDING, RUNNING, RESCALING, PREEMPTED, SUSPENDED));
        PREDECESSORS.put(RESCALING, EnumSet.of(RUNNING));
        PREDECESSORS.put(PREEMPTED, EnumSet.of(PENDING, RUNNING, RECOVERING, RESCALING));
        PREDECESSORS.put(SUSPENDED, EnumSet.of(PENDING, RUNNING, RECOVERING, RESCALING));
        PREDECESSORS.put(SUCCEEDED, EnumSet.of(PENDING, RUNNING, RECOVERING, RESCALING));
        PREDECESSORS.put(FAILED, live);
        PREDECESSORS.put(CANCELLED, EnumSet.copyOf(live));
    }

    /** The states this one may follow. */
    public Set<JobState> predecessors() {
        return Collections.unmodifiableSet(EnumSet.copyOf(PREDECESSORS.get(this)));
    }

    /** Whether a job in {@code from} may move to this state. */
    public boolean canFollow(JobState from) {
        return PREDECESSORS.get(this).contains(from);
    }

    /** Whether the job has ended. */
    public boolean isTerminal() {
        return this == SUCCEEDED || this == FAILED || this == CANCELLED;
    }

    /** Whether the job waits off its nodes (holds no GPUs). */
    public boolean isWaiting() {
        return this == PREEMPTED || this == SUSPENDED;
    }

    /** Whether the job holds its nodes and can be interrupted (running, recovering, rescaling). */
    public boolean isActive() {
        return this == RUNNING || this == RECOVERING || this == RESCALING;
    }
}
