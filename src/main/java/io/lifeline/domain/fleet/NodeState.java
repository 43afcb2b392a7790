package io.lifeline.domain.fleet;

import io.lifeline.domain.event.NoticeKind;
import io.lifeline.domain.fleet.reliability.InterruptionCause;
import io.lifeline.domain.gpu.GpuHealth;
import io.lifeline.domain.gpu.GpuState;
import io.lifeline.domain.gpu.SavedGpu;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The hot, mutable state of one node, written and read by the one thread that applies the fleet's events. Times are epoch milliseconds,
 * {@link #NEVER} when unset. Each register (lifecycle, cordon, notice, facts) is last-writer-wins by event time:
 * it remembers both when its value began ({@code since}) and the newest event that confirmed it ({@code written}).
 */
final class NodeState {

    static final long NEVER = Long.MIN_VALUE;
    /** GPU indexes beyond this are ignored: no real node has that many GPUs, and state must stay bounded. */
    static final int MAX_GPUS = 64;

    private static final GpuState[] NO_GPUS = new GpuState[0];
    /** Earlier lives kept per node, for its own exposure: more than a 90-day window holds on any real node. */
    static final int LIVES_KEPT = 8;

    private static final long[] NO_LIVES = new long[0];

    final String name;
    private NodeInfo facts;
    long factsWritten = NEVER;

    NodeLifecycle state = NodeLifecycle.UNKNOWN;
    long stateSince = NEVER;
    long stateWritten = NEVER;
    /** When the current life began (the registration that started it): older GPU errors and notices do not count. */
    long lifeStart = NEVER;

    boolean cordoned;
    long cordonSince = NEVER;
    long cordonWritten = NEVER;

    NoticeKind noticeKind;
    String noticeProvider;
    long noticeDeadline = NEVER;
    /** The end of the announced outage's window, {@link #NEVER} when unknown. */
    long noticeWindowEnd = NEVER;

    long noticeReceived = NEVER;

    /** The newest external health check of this life ({@code node.health_check}), {@link #NEVER} when none. */
    long healthCheckMillis = NEVER;

    boolean healthCheckPassed;
    String healthCheckDetail;

    GpuState[] gpus = NO_GPUS;
    LemonRing lemon;
    /** The pods its kubelet rejected at admission, null until the first. */
    AdmissionLog admissions;
    /** Earlier lives as (start, end) pairs, oldest first, at most {@link #LIVES_KEPT}: the node's past time in service. */
    long[] pastLives = NO_LIVES;
    /** The fleet's change stamp of this node's latest change (see {@link Fleet#snapshot}). */
    long version;
    /** Where the fleet keeps it while it is there (see {@link Fleet#snapshot}). */
    int slot = -1;
    /** The newest event time seen for this node (epoch ms), whatever the event changed. */
    long lastEventMillis = NEVER;

    NodeState(String name) {
        this.name = name;
    }

    /** Registered facts, or null before registration. */
    NodeInfo facts() {
        return facts;
    }

    void facts(NodeInfo info, long written) {
        facts = info;
        factsWritten = written;
    }

    /** The one place where lifecycle transitions are applied: stale, repeated and illegal requests change nothing. */
    TransitionOutcome transition(NodeLifecycle target, long millis) {
        if (millis < stateWritten) {
            return TransitionOutcome.STALE;
        }
        if (target == state) {
            stateWritten = millis;
            return TransitionOutcome.UNCHANGED;
        }
        if (!target.canFollow(state)) {
            return TransitionOutcome.ILLEGAL;
        }
        state = target;
        stateSince = millis;
        stateWritten = millis;
        return TransitionOutcome.APPLIED;
    }

    /** Sets the cordon register; true when the value changed. */
    boolean cordon(boolean value, long millis) {
        if (millis < cordonWritten) {
            return false;
        }
        cordonWritten = millis;
        if (cordoned == value) {
            return false;
        }
        cordoned = value;
        cordonSince = millis;
        return true;
    }

    /** A new life begins (registration after termination, or the first one): cordon and notice start afresh. */
    void startLife(long millis) {
        lifeStart = millis;
        cordoned = false;
        cordonSince = millis;
        cordonWritten = millis;
        noticeKind = null;
        noticeProvider = null;
        noticeDeadline = NEVER;
        noticeWindowEnd = NEVER;
        noticeReceived = NEVER;
        healthCheckMillis = NEVER;
        healthCheckPassed = false;
        healthCheckDetail = null;
    }

    /**
     * Whether the notice is still pending, by the events alone: the node is not gone, and it has not come back Ready
     * since the notice (a Ready after the notice means the announced outage has happened and is over). What the model
     * decides when it applies an event rests on this, never on the clock, so the log read back gives the same model.
     */
    boolean noticePending() {
        if (noticeKind == null || state == NodeLifecycle.TERMINATED) {
            return false;
        }
        return !(state == NodeLifecycle.READY && stateSince > noticeReceived);
    }

    /** Whether the notice's deadline has passed at {@code now} (a notice without a deadline never expires). */
    boolean noticeExpired(long now) {
        return noticeDeadline != NEVER && noticeDeadline <= now;
    }

    /** Whether the node is at risk at {@code now}: its notice is pending and its deadline has not passed. */
    boolean noticeAtRisk(long now) {
        return noticePending() && !noticeExpired(now);
    }

    /**
     * The GPU at {@code index}, created when first seen or replaced when another UUID shows up there (the
     * hardware changed). Null when the index is out of range, or the event is older than the GPU now there.
     */
    GpuState gpu(int index, String uuid, long millis) {
        if (index < 0 || index >= MAX_GPUS) {
            return null;
        }
        if (index >= gpus.length) {
            gpus = Arrays.copyOf(gpus, index + 1);
        }
        GpuState g = gpus[index];
        if (g != null && g.uuid().equals(uuid)) {
            return g;
        }
        if (g != null && millis < g.firstSeenMillis()) {
            return null;
        }
        g = new GpuState(uuid, index, millis);
        gpus[index] = g;
        return g;
    }

    /**
     * GPUs on the node: as registered, so a node whose telemetry has not arrived (or never will, without an exporter)
     * still counts them; or as many as telemetry shows, when that is more (or before registration).
     */
    int gpuCount() {
        return Math.max(facts == null ? 0 : facts.gpuCount(), gpusSeen());
    }

    int gpusSeen() {
        int n = 0;
        for (GpuState g : gpus) {
            if (g != null) {
                n++;
            }
        }
        return n;
    }

    /** Worst verdict of the node's GPUs; HEALTHY when it has none. */
    GpuHealth health() {
        GpuHealth worst = GpuHealth.HEALTHY;
        for (GpuState g : gpus) {
            if (g != null) {
                worst = worst.worst(g.health());
            }
        }
        return worst;
    }

    void recordInterruption(long millis, int capacity) {
        recordInterruption(millis, capacity, LemonRing.FOLLOW_UP, null);
    }

    void recordInterruption(long millis, int capacity, byte cause, String detail) {
        if (lemon == null) {
            lemon = new LemonRing(capacity);
        }
        lemon.record(millis, cause, detail);
    }

    /** A life ended at {@code end}: kept for the node's own exposure, the oldest forgotten beyond the limit. */
    void endLife(long start, long end) {
        int n = pastLives.length;
        long[] next = n / 2 < LIVES_KEPT ? Arrays.copyOf(pastLives, n + 2) : Arrays.copyOfRange(pastLives, 2, n + 2);
        next[next.length - 2] = start;
        next[next.length - 1] = end;
        pastLives = next;
    }

    /** Milliseconds in service within [from, to]: earlier lives and the current one (unless it ended). */
    long serviceMillis(long from, long to) {
        long sum = 0;
        for (int i = 0; i + 1 < pastLives.length; i += 2) {
            sum += overlap(pastLives[i], pastLives[i + 1], from, to);
        }
        if (lifeStart != NEVER && state != NodeLifecycle.TERMINATED) {
            sum += overlap(lifeStart, to, from, to);
        }
        return sum;
    }

    private static long overlap(long a, long b, long from, long to) {
        return Math.max(0, Math.min(b, to) - Math.max(a, from));
    }

    SavedNode save() {
        List<SavedGpu> saved = new ArrayList<>(gpus.length);
        for (GpuState g : gpus) {
            if (g != null) {
                saved.add(g.save());
            }
        }
        return new SavedNode(
                name,
                facts,
                factsWritten,
                state,
                stateSince,
                stateWritten,
                lifeStart,
                cordoned,
                cordonSince,
                cordonWritten,
                noticeKind,
                noticeProvider,
                noticeDeadline,
                noticeReceived,
                saved,
                lemon == null ? List.of() : lemon.chronological(),
                version,
                causes(),
                details(),
                lives(),
                noticeWindowEnd,
                admissions == null ? null : admissions.save());
    }

    private List<String> causes() {
        List<String> out = new ArrayList<>();
        if (lemon != null) {
            for (LemonRing.Entry e : lemon.entries()) {
                out.add(e.cause() < 0 ? "" : InterruptionCause.values()[e.cause()].wire());
            }
        }
        return out;
    }

    private List<String> details() {
        List<String> out = new ArrayList<>();
        if (lemon != null) {
            for (LemonRing.Entry e : lemon.entries()) {
                out.add(e.detail());
            }
        }
        return out;
    }

    private List<Long> lives() {
        List<Long> out = new ArrayList<>(pastLives.length);
        for (long t : pastLives) {
            out.add(t);
        }
        return out;
    }

    /** A node in the state {@link #save()} gave, its strings interned through {@code strings}. */
    static NodeState restore(SavedNode s, StringPool strings, int lemonCapacity) {
        NodeState n = new NodeState(s.name());
        NodeInfo f = s.facts();
        n.facts = f == null
                ? null
                : new NodeInfo(
                        f.name(),
                        strings.intern(f.pool()),
                        f.capacityType(),
                        strings.intern(f.zone()),
                        strings.intern(f.instanceType()),
                        f.gpuCount(),
                        strings.intern(f.provider()));
        n.factsWritten = s.factsWritten();
        n.state = s.state();
        n.stateSince = s.stateSince();
        n.stateWritten = s.stateWritten();
        n.lifeStart = s.lifeStart();
        n.cordoned = s.cordoned();
        n.cordonSince = s.cordonSince();
        n.cordonWritten = s.cordonWritten();
        n.noticeKind = s.noticeKind();
        n.noticeProvider = strings.intern(s.noticeProvider());
        n.noticeDeadline = s.noticeDeadline();
        n.noticeWindowEnd = s.noticeWindowEnd();
        n.noticeReceived = s.noticeReceived();
        n.admissions = s.admissions() == null ? null : AdmissionLog.restore(s.admissions(), strings);
        for (SavedGpu g : s.gpus()) {
            if (g.index() < 0 || g.index() >= MAX_GPUS) {
                continue;
            }
            if (g.index() >= n.gpus.length) {
                n.gpus = Arrays.copyOf(n.gpus, g.index() + 1);
            }
            n.gpus[g.index()] = GpuState.restore(g, strings.intern(g.model()));
        }
        List<Long> times = s.interruptions();
        for (int i = 0; i < times.size(); i++) {
            byte cause = LemonRing.FOLLOW_UP;
            if (i < s.causes().size()) {
                cause = InterruptionCause.fromWire(s.causes().get(i))
                        .map(c -> (byte) c.ordinal())
                        .orElse(LemonRing.FOLLOW_UP);
            }
            String detail = i < s.details().size() ? s.details().get(i) : null;
            n.recordInterruption(times.get(i), lemonCapacity, cause, detail);
        }
        List<Long> lives = s.pastLives();
        for (int i = 0; i + 1 < lives.size(); i += 2) {
            n.endLife(lives.get(i), lives.get(i + 1));
        }
        n.version = s.version();
        return n;
    }
}
