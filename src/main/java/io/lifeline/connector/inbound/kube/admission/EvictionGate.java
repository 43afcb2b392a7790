package io.lifeline.connector.inbound.kube.admission;

import io.lifeline.action.ActionRejectedException;
import io.lifeline.action.ActionService;
import io.lifeline.action.Submitted;
import io.lifeline.action.TargetBusyException;
import io.lifeline.action.view.AuditEntry;
import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.action.ActionRequest;
import io.lifeline.domain.job.checkpoint.FreshnessView;
import io.lifeline.platform.LogContext;
import io.lifeline.security.identity.Caller;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Decides one eviction of a pod: a pod of a tracked training job whose newest checkpoint is older than
 * {@code maxCheckpointAge} is held ("429, retry later") while a checkpoint-now runs, until a checkpoint newer than
 * the one it had when the hold began has landed or {@code holdDeadline} has passed; then the eviction is allowed.
 * Pods of jobs Lifeline does not track are allowed at once and only counted. Every decision is counted
 * ({@code lifeline_eviction_gate_decisions_total{decision}}); those that change something are audited: a hold that
 * begins (a checkpoint-now is asked for, {@code eviction.held}) and a hold that ends ({@code eviction.allowed}).
 * Answers that change nothing (fresh, the same hold again, refused, unknown) are not, so retries and floods of reviews
 * cannot fill the audit.
 *
 * <p>Holds are kept in memory per replica, one per job (a drain evicting several pods of one job starts one
 * checkpoint), and end with the hold; a replica that did not see the hold begin starts its own, whose checkpoint-now
 * finds the first one in flight. At most {@link #MAX_HOLDS} holds exist; the oldest go first.
 */
public final class EvictionGate {

    static final String ACTOR = "eviction-gate";
    static final int MAX_HOLDS = 10_000;
    private static final Logger LOG = Logger.getLogger(EvictionGate.class);

    /** What the gate decided, the label value of the metric. */
    public enum Decision {
        /** Not a pod of a job Lifeline tracks: allowed, not audited. */
        UNTRACKED(true),
        /** The job's newest checkpoint is recent enough: allowed. */
        FRESH(true),
        /** Held: a checkpoint-now runs; the caller retries. */
        HELD(false),
        /** A checkpoint landed during the hold: allowed. */
        CHECKPOINTED(true),
        /** The hold's deadline passed without a checkpoint: allowed. */
        DEADLINE(true),
        /** The job cannot checkpoint now (not training, no trainers): allowed. */
        REFUSED(true),
        /** The model could not be asked in time, or the gate is off: allowed (fail open). */
        UNKNOWN(true);

        private final boolean allowed;

        Decision(boolean allowed) {
            this.allowed = allowed;
        }

        public boolean allowed() {
            return allowed;
        }

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * One answer.
     *
     * @param decision what was decided
     * @param job      the pod's job, or null when it has none
     * @param message  why, in words (the webhook's status message)
     * @param actionId the checkpoint-now the hold waits for, or null
     */
    public record Verdict(Decision decision, String job, String message, String actionId, boolean changed) {

        Verdict(Decision decision, String job, String message, String actionId) {
            this(decision, job, message, actionId, false);
        }

        public boolean allowed() {
            return decision.allowed();
        }
    }

    /** The gate's bounds. */
    public record Settings(boolean enabled, Duration maxCheckpointAge, Duration holdDeadline) {
        static Settings of(EvictionGateConfig c) {
            return new Settings(c.enabled(), c.maxCheckpointAge(), c.holdDeadline());
        }
    }

    /** A hold in progress: when it began, the checkpoint the job had then, the checkpoint-now it waits for. */
    private record Hold(Instant since, Instant baseline, String actionId) {}

    private final Settings settings;
    private final BiFunction<String, String, String> jobOfPod;
    private final Function<String, Optional<FreshnessView>> freshness;
    private final ActionService actions;
    private final Consumer<AuditEntry> audit;
    private final Clock clock;
    private final Map<Decision, Counter> counters = new EnumMap<>(Decision.class);
    private final Map<String, Hold> holds = new HashMap<>();

    /**
     * @param jobOfPod  (namespace, pod) → the job ({@code namespace/name}) the pod belongs to, or null
     * @param freshness a job's freshness; throws when the model cannot answer in time
     * @param audit     writes one audit entry (may throw; the decision stands)
     */
    public EvictionGate(
            Settings settings,
            BiFunction<String, String, String> jobOfPod,
            Function<String, Optional<FreshnessView>> freshness,
            ActionService actions,
            Consumer<AuditEntry> audit,
            MeterRegistry registry,
            Clock clock) {
        this.settings = settings;
        this.jobOfPod = jobOfPod;
        this.freshness = freshness;
        this.actions = actions;
        this.audit = audit;
        this.clock = clock;
        for (Decision d : Decision.values()) {
            counters.put(
                    d,
                    Counter.builder("lifeline_eviction_gate_decisions")
                            .description("Evictions of pods the eviction webhook decided, by decision")
                            .tag("decision", d.wire())
                            .register(registry));
        }
    }

    /** Decides the eviction of pod {@code namespace/pod}. Never throws: what cannot be decided is allowed. */
    public Verdict decide(String namespace, String pod) {
        String ref = namespace + "/" + pod;
        if (!settings.enabled()) {
            return count(new Verdict(Decision.UNKNOWN, null, "the eviction gate is off", null));
        }
        String job;
        Optional<FreshnessView> view;
        try {
            job = jobOfPod.apply(namespace, pod);
            view = job == null ? Optional.empty() : freshness.apply(job);
        } catch (RuntimeException e) {
            LOG.warnf("Eviction of %s allowed: its job could not be looked up (%s)", ref, e.toString());
            return count(
                    new Verdict(Decision.UNKNOWN, null, "allowed: Lifeline could not look the pod's job up", null));
        }
        if (job == null || view.isEmpty()) {
            return count(new Verdict(Decision.UNTRACKED, job, "allowed: not a pod of a job Lifeline tracks", null));
        }
        // What follows is about the job: a hold, its checkpoint-now, the audit (on the webhook's threads: the whole
        // context is the job's).
        try (LogContext about = LogContext.of(job, null, null)) {
            Verdict v = decide(job, view.get(), clock.instant());
            count(v);
            if (v.changed()) {
                record(v, ref);
            }
            return v;
        }
    }

    private Verdict decide(String job, FreshnessView f, Instant now) {
        Hold hold;
        synchronized (holds) {
            hold = holds.get(job);
        }
        long bound = settings.maxCheckpointAge().toMillis();
        boolean fresh = f.ageMillis() != null && f.ageMillis() <= bound;
        if (hold == null) {
            if (fresh) {
                return new Verdict(
                        Decision.FRESH,
                        job,
                        "allowed: newest checkpoint of " + job + " is " + seconds(f.ageMillis()) + " old (bound "
                                + settings.maxCheckpointAge() + ")",
                        null);
            }
            return begin(job, f, now);
        }
        boolean landed = f.completedAt() != null
                && (hold.baseline() == null || f.completedAt().isAfter(hold.baseline()));
        if (landed || fresh) {
            boolean ended = end(job, hold);
            return new Verdict(
                    Decision.CHECKPOINTED,
                    job,
                    "allowed: " + job + " saved checkpoint " + f.checkpointId() + " during the hold",
                    hold.actionId(),
                    ended);
        }
        Instant until = hold.since().plus(settings.holdDeadline());
        if (!now.isBefore(until)) {
            boolean ended = end(job, hold);
            return new Verdict(
                    Decision.DEADLINE,
                    job,
                    "allowed: no checkpoint of " + job + " landed within " + settings.holdDeadline()
                            + " of holding its eviction",
                    hold.actionId(),
                    ended);
        }
        return held(job, hold, until, now, false);
    }

    private Verdict begin(String job, FreshnessView f, Instant now) {
        Map<String, String> params = new HashMap<>();
        params.put(
                "deadlineSeconds",
                Long.toString(Math.max(1, settings.holdDeadline().toSeconds())));
        if (f.newestNotSurviving()) {
            // The evicted pod may take its node's disk with it: only a checkpoint that outlives it counts.
            params.put("storage", "durable");
        }
        String age = f.ageMillis() == null ? "none" : seconds(f.ageMillis());
        ActionRequest request = new ActionRequest(
                ActionKind.CHECKPOINT_NOW,
                job,
                params,
                "an eviction of a pod of " + job
                        + " is held until a checkpoint lands (newest checkpoint age " + age + ", bound "
                        + settings.maxCheckpointAge() + ")");
        String actionId;
        try {
            Submitted s =
                    actions.submit(request, Caller.unrestricted(ACTOR), ACTOR + ":" + job + ":" + now.toEpochMilli());
            actionId = s.action().id();
        } catch (TargetBusyException e) {
            // Another action holds the job (a checkpoint-now, a drain's checkpoint): its save ends the hold too.
            actionId = e.holderId();
        } catch (ActionRejectedException e) {
            return new Verdict(
                    Decision.REFUSED, job, "allowed: " + job + " cannot checkpoint now (" + e.getMessage() + ")", null);
        } catch (RuntimeException e) {
            LOG.warnf(
                    "Eviction of a pod of %s allowed: the checkpoint-now could not be requested (%s)",
                    job, e.toString());
            return new Verdict(
                    Decision.UNKNOWN, job, "allowed: the checkpoint-now of " + job + " could not be requested", null);
        }
        Hold hold = new Hold(now, f.completedAt(), actionId);
        boolean began = true;
        synchronized (holds) {
            if (holds.size() >= MAX_HOLDS) {
                Iterator<Map.Entry<String, Hold>> it = holds.entrySet().stream()
                        .sorted(Map.Entry.comparingByValue((a, b) -> a.since().compareTo(b.since())))
                        .iterator();
                holds.remove(it.next().getKey());
            }
            Hold earlier = holds.putIfAbsent(job, hold);
            if (earlier != null) {
                hold = earlier;
                began = false;
            }
        }
        return held(job, hold, hold.since().plus(settings.holdDeadline()), now, began);
    }

    private Verdict held(String job, Hold hold, Instant until, Instant now, boolean began) {
        return new Verdict(
                Decision.HELD,
                job,
                "held: " + job + " is saving a checkpoint (action " + hold.actionId() + "); retry later (at most "
                        + seconds(Duration.between(now, until).toMillis()) + " more)",
                hold.actionId(),
                began);
    }

    /** Ends {@code hold}; false when another review ended it first (only one of them audits the end). */
    private boolean end(String job, Hold hold) {
        synchronized (holds) {
            return holds.remove(job, hold);
        }
    }

    /** Counts an answer given without deciding (the webhook was too busy to ask): allowed, {@code unknown}. */
    void undecided(String why) {
        LOG.debugf("Eviction allowed undecided: %s", why);
        count(new Verdict(Decision.UNKNOWN, null, why, null));
    }

    /** Holds in progress (for tests and the status). */
    public int holds() {
        synchronized (holds) {
            return holds.size();
        }
    }

    private Verdict count(Verdict v) {
        counters.get(v.decision()).increment();
        return v;
    }

    private void record(Verdict v, String pod) {
        try {
            audit.accept(new AuditEntry(
                    0,
                    clock.instant(),
                    ACTOR,
                    v.allowed() ? "eviction.allowed" : "eviction.held",
                    v.job(),
                    v.actionId(),
                    v.message(),
                    null,
                    "pod " + pod + ": " + v.decision().wire()));
        } catch (RuntimeException e) {
            LOG.warnf("Eviction gate: the decision on %s was not audited: %s", pod, e.toString());
        }
    }

    private static String seconds(long millis) {
        return Math.max(0, millis / 1000) + " s";
    }
}
