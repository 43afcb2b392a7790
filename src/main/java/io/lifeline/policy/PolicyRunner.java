package io.lifeline.policy;

import io.lifeline.action.ActionExecutor;
import io.lifeline.action.ActionLogContext;
import io.lifeline.action.ActionRejectedException;
import io.lifeline.action.DefaultActionService;
import io.lifeline.action.Submitted;
import io.lifeline.action.TargetBusyException;
import io.lifeline.action.view.ActionView;
import io.lifeline.config.PoliciesConfig;
import io.lifeline.config.RecoveryConfig;
import io.lifeline.domain.action.ActionPlanner;
import io.lifeline.domain.action.ActionState;
import io.lifeline.domain.action.PlanResult;
import io.lifeline.domain.event.ApplyOutcome;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.fleet.Fleet;
import io.lifeline.domain.policy.AutomationBrake;
import io.lifeline.domain.policy.PolicyDecision;
import io.lifeline.domain.policy.PolicyHygiene;
import io.lifeline.domain.policy.PolicyMode;
import io.lifeline.domain.policy.PolicyName;
import io.lifeline.eventlog.ShutdownOrder;
import io.lifeline.metrics.ActionMetrics;
import io.lifeline.platform.LogContext;
import io.lifeline.platform.Threads;
import io.lifeline.runtime.IngestOpened;
import io.lifeline.runtime.LiveModel;
import io.lifeline.runtime.ModelRuntime;
import io.lifeline.security.identity.Caller;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Reception;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Runs the policy engine: right after a notice or XID changed the model (on the model's thread, so no queue delays
 * the reaction; one that was not applied, stale or past its deadline, moves nothing) and every
 * {@code lifeline.policies.interval} for conditions that build up. Decisions are submitted on a thread of their own,
 * by the leader only, as {@code policy:<name>}; their idempotency keys make a decision seen twice one action. A
 * decision that would take a node out of service passes the {@link AutomationBrakeService automation brake} first,
 * one at a time on that thread; one the brake holds is recorded {@code held: brake: <reason>}.
 */
@ApplicationScoped
public class PolicyRunner {

    private static final Logger LOG = Logger.getLogger(PolicyRunner.class);
    /** Decisions waiting to be submitted; beyond this (a storm of notices), periodic checks catch up. */
    private static final int QUEUE = 10_000;

    private final DefaultPolicyService policies;
    private final DefaultActionService actions;
    private final AutomationBrakeService brake;
    private final ActionExecutor executor;
    private final ModelRuntime runtime;
    private final PoliciesConfig config;
    private final Clock clock;
    private final ActionMetrics metrics;
    private final AtomicLong submitted = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final ExecutorService submitter = new ThreadPoolExecutor(
            1,
            1,
            0,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(QUEUE),
            Threads.daemon("lifeline-policy"),
            new ThreadPoolExecutor.DiscardPolicy());
    private ScheduledExecutorService timer;

    PolicyRunner(
            DefaultPolicyService policies,
            DefaultActionService actions,
            AutomationBrakeService brake,
            ActionExecutor executor,
            ModelRuntime runtime,
            PoliciesConfig config,
            Clock clock,
            ActionMetrics metrics,
            RecoveryConfig recovery) {
        this.metrics = metrics;
        policies.engine().recoveryRules(RecoveryConfig.rules(recovery));
        this.policies = policies;
        this.actions = actions;
        this.brake = brake;
        this.executor = executor;
        this.runtime = runtime;
        this.config = config;
        this.clock = clock;
    }

    @SuppressWarnings("FutureReturnValueIgnored") // periodic() catches and logs its own failures
    void onOpened(@Observes IngestOpened opened) {
        try {
            policies.loadStored();
        } catch (io.lifeline.eventlog.StoreUnavailableException e) {
            LOG.warnf("Stored policy settings could not be read; configured ones apply: %s", e.getMessage());
        }
        runtime.addApplyListener(this::onApplied);
        executor.onFinished(this::onFinished);
        timer = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(
                Threads.daemon("lifeline-policy-timer"));
        long period = config.interval().toMillis();
        timer.scheduleWithFixedDelay(this::periodic, period, period, TimeUnit.MILLISECONDS);
    }

    /** Decisions submitted (or recorded as dry runs) and refused by the planner, since start. */
    public long submitted() {
        return submitted.get();
    }

    public long refused() {
        return refused.get();
    }

    /** Only what changed the model moves a policy (see {@link io.lifeline.domain.policy.PolicyEngine#onEvent}). */
    private void onApplied(Event e, ApplyOutcome outcome, LiveModel m) {
        if (e.type() != EventType.NODE_INTERRUPTION_NOTICE
                        && e.type() != EventType.GPU_XID
                        && e.type() != EventType.NODE_ADMISSION_FAILED
                || !outcome.changed()) {
            return;
        }
        if (!executor.isLeader()) {
            return;
        }
        java.time.Instant now = clock.instant();
        List<PolicyDecision> decisions = policies.engine().onEvent(e, outcome, m.jobs(), m.fleet(), now);
        for (PolicyDecision d : decisions) {
            // Planned here, on the model's thread with the model at hand: the submitter then skips a round trip
            // through the model's queue, which under heavy ingest is the slowest part of a notice's reaction.
            PlanResult plan =
                    d.mode() == PolicyMode.ON ? new ActionPlanner(m.jobs(), m.fleet()).plan(d.request(), now) : null;
            AutomationBrake.Target target = brakeTarget(d, m.fleet());
            submitter.execute(() -> submit(d, plan, target));
        }
    }

    /** What the brake needs to know of a decision that takes a node (its pool and the pool's size); null otherwise. */
    private static AutomationBrake.Target brakeTarget(PolicyDecision d, Fleet fleet) {
        String node = d.nodeTaken();
        return d.mode() == PolicyMode.ON && !d.isSkipped() && node != null ? AutomationBrake.target(fleet, node) : null;
    }

    /** A decision with the brake's view of its target, taken on the model's thread. */
    private record Decided(PolicyDecision decision, AutomationBrake.Target target) {}

    void periodic() {
        refreshBrake();
        if (!executor.isLeader()) {
            return;
        }
        try {
            List<Decided> decisions = runtime.read(m ->
                            policies.engine().periodic(m.jobs(), m.fleet(), clock.instant()).stream()
                                    .map(d -> new Decided(d, brakeTarget(d, m.fleet())))
                                    .toList())
                    .get(30, TimeUnit.SECONDS);
            decisions.forEach(d -> submitter.execute(() -> submit(d.decision(), null, d.target())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.warnf("Periodic policy check failed: %s", e.getMessage());
        }
    }

    /** Every replica reads the brake's shared state now and then, for its metrics; a failure waits for the next. */
    private void refreshBrake() {
        try {
            brake.refresh();
        } catch (RuntimeException e) {
            LOG.debugf("The automation brake's state could not be read: %s", e.getMessage());
        }
    }

    /** A policy's action ended: a failure makes the policy back off from the target, a success resets it. */
    private void onFinished(ActionView a) {
        if (a.requestedBy() == null || !a.requestedBy().startsWith("policy:")) {
            return;
        }
        PolicyName.fromWire(a.requestedBy().substring("policy:".length())).ifPresent(p -> {
            PolicyHygiene hygiene = policies.engine().hygiene();
            if (a.state() == ActionState.FAILED) {
                PolicyHygiene.Backoff b = hygiene.failed(p, a.target(), clock.instant());
                LOG.infof(
                        "%s: %s of %s failed (%s); it backs off from %s until %s (failure %d in a row)",
                        a.requestedBy(), a.kind().wire(), a.target(), a.outcome(), a.target(), b.until(), b.failures());
            } else if (a.state() == ActionState.SUCCEEDED) {
                hygiene.succeeded(p, a.target());
            }
        });
    }

    /**
     * Submits a decision; {@code plan} is the plan made on the model's thread, or null to plan now; {@code target} is
     * the brake's view of a node-taking decision, or null.
     */
    private void submit(PolicyDecision d, PlanResult plan, AutomationBrake.Target target) {
        // On the submitter's thread: the whole context is the decision's target.
        try (LogContext about =
                ActionLogContext.of(d.request().kind(), d.request().target(), null)) {
            submitAbout(d, plan, target);
        }
    }

    private void submitAbout(PolicyDecision d, PlanResult plan, AutomationBrake.Target target) {
        String requester = d.policy().requester();
        try {
            if (d.isSkipped()) {
                ActionView r = actions.recordSkipped(d.request(), requester, d.idempotencyKey(), d.skipped());
                LOG.debugf(
                        "%s: %s of %s waits: %s (%s)",
                        requester, d.request().kind().wire(), d.request().target(), d.skipped(), r.id());
                metrics.policyDecision(d.policy().wire(), "skipped");
                return;
            }
            if (d.mode() == PolicyMode.DRY_RUN) {
                actions.recordDryRun(d.request(), requester, d.idempotencyKey());
            } else {
                // A plan the planner refused takes nothing: it is refused below without counting against the brake.
                if (target != null && (plan == null || plan.ok()) && held(d, brake.admit(target, d.policy()))) {
                    return;
                }
                Submitted s = plan != null
                        ? actions.submitPlanned(d.request(), plan, Caller.unrestricted(requester), d.idempotencyKey())
                        : actions.submit(d.request(), Caller.unrestricted(requester), d.idempotencyKey());
                if (!s.replayed()) {
                    try (LogContext action = LogContext.action(s.action().id())) {
                        LOG.infof(
                                "%s requested %s of %s (%s): %s",
                                requester,
                                d.request().kind().wire(),
                                d.request().target(),
                                s.action().id(),
                                d.request().reason());
                    }
                }
            }
            submitted.incrementAndGet();
            metrics.policyDecision(d.policy().wire(), d.mode().wire());
        } catch (ActionRejectedException e) {
            refused.incrementAndGet();
            LOG.debugf(
                    "%s: %s of %s refused: %s: %s",
                    requester, d.request().kind().wire(), d.request().target(), e.field(), e.getMessage());
        } catch (TargetBusyException e) {
            LOG.debugf("%s: %s", requester, e.getMessage());
        } catch (RuntimeException e) {
            LOG.warnf(
                    "%s could not submit %s of %s: %s",
                    requester, d.request().kind().wire(), d.request().target(), e.getMessage());
        }
    }

    /** Records a decision the brake holds; false when the brake lets it through. */
    private boolean held(PolicyDecision d, AutomationBrake.Outcome b) {
        if (b.verdict().allows()) {
            return false;
        }
        String requester = d.policy().requester();
        ActionView r = actions.recordHeld(
                d.request(),
                requester,
                d.idempotencyKey() + "|held:brake",
                "brake: " + b.reason()
                        + (b.verdict() == AutomationBrake.Verdict.TRIPPED ? "; the automation brake engaged" : ""));
        LOG.debugf(
                "%s: %s of %s held by the automation brake (%s)",
                requester, d.request().kind().wire(), d.request().target(), r.id());
        metrics.policyDecision(d.policy().wire(), "held");
        return true;
    }

    /** Stops with the other {@link ShutdownOrder#BACKGROUND} work, before the connection pool closes. */
    void onStop(@Observes(notifyObserver = Reception.IF_EXISTS) @Priority(ShutdownOrder.BACKGROUND) ShutdownEvent ev) {
        stop();
    }

    @PreDestroy
    void stop() {
        if (timer != null) {
            timer.shutdownNow();
        }
        submitter.shutdownNow();
    }
}
