package io.lifeline.metrics;

import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.action.ActionState;
import io.lifeline.domain.policy.PolicyMode;
import io.lifeline.domain.policy.PolicyName;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the action executor and the policies report:
 * <ul>
 *   <li>{@link #actionFinished} → {@code lifeline_actions_total{kind,outcome}} and the histogram
 *       {@code lifeline_action_duration_seconds{kind,outcome}};</li>
 *   <li>{@link #policyDecision} → {@code lifeline_policy_decisions_total{policy,mode}}.</li>
 * </ul>
 * Label values are bounded: a kind or policy that is not in {@link ActionKind} / {@link PolicyName} counts as
 * {@code other}, and at most {@link #MAX_VALUES} distinct outcomes and modes get their own value.
 */
@Startup
@ApplicationScoped
public class ActionMetrics {

    /** Most distinct outcome (and mode) label values. */
    static final int MAX_VALUES = 16;

    static final String OTHER = "other";
    /** Histogram buckets: actions take from a second (a cordon) to the end of a notice or drain deadline. */
    private static final Duration[] BUCKETS = {
        Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofSeconds(15), Duration.ofSeconds(30),
        Duration.ofMinutes(1), Duration.ofMinutes(2), Duration.ofMinutes(5), Duration.ofMinutes(10),
        Duration.ofMinutes(30), Duration.ofHours(1)
    };

    private final MeterRegistry registry;
    private final Map<String, Counter> actions = new ConcurrentHashMap<>();
    private final Map<String, Timer> durations = new ConcurrentHashMap<>();
    private final Map<String, Counter> decisions = new ConcurrentHashMap<>();
    private final Map<String, Boolean> outcomes = new ConcurrentHashMap<>();
    private final Map<String, Boolean> modes = new ConcurrentHashMap<>();

    private final Counter fenced;

    ActionMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.fenced = Counter.builder("lifeline_actions_fenced")
                .description("Action runs stopped because their replica no longer leads (a newer term fenced them)")
                .register(registry);
        // Every kind with the final states, and every policy in the modes that decide, exist from the start at 0:
        // rate() and increase() then see the first action too, and dashboards show zeros instead of "no data".
        for (ActionKind k : ActionKind.values()) {
            for (ActionState s : new ActionState[] {ActionState.SUCCEEDED, ActionState.FAILED, ActionState.CANCELLED}) {
                counter(k.wire(), bounded(outcomes, s.name()));
                timer(k.wire(), bounded(outcomes, s.name()));
            }
        }
        for (PolicyName p : PolicyName.values()) {
            for (PolicyMode m : new PolicyMode[] {PolicyMode.ON, PolicyMode.DRY_RUN}) {
                decision(p.wire(), bounded(modes, m.name()));
            }
        }
    }

    /** An action's run was stopped by the fence: its replica was deposed while it ran. */
    public void fenced() {
        fenced.increment();
    }

    /**
     * An action reached a final state.
     *
     * @param kind      action kind, wire name ({@code drain}, {@code checkpoint-now}...)
     * @param outcome   final state in lower case ({@code succeeded}, {@code failed}, {@code cancelled})
     * @param duration  from submission to the final state
     */
    public void actionFinished(String kind, String outcome, Duration duration) {
        String k = kind(kind);
        String o = bounded(outcomes, outcome);
        counter(k, o).increment();
        timer(k, o).record(duration == null || duration.isNegative() ? Duration.ZERO : duration);
    }

    /**
     * A policy decided to act (or, in dry-run, would have).
     *
     * @param policy  policy wire name ({@code notice-checkpoint-drain}...)
     * @param mode    the policy's mode when it decided ({@code on}, {@code dry-run})
     */
    public void policyDecision(String policy, String mode) {
        String p = policy == null
                ? OTHER
                : PolicyName.fromWire(policy.toLowerCase(Locale.ROOT).replace('_', '-'))
                        .map(PolicyName::wire)
                        .orElse(OTHER);
        String m = bounded(modes, mode);
        decision(p, m).increment();
    }

    private Counter counter(String kind, String outcome) {
        return actions.computeIfAbsent(
                kind + '\u0000' + outcome,
                x -> Counter.builder("lifeline_actions")
                        .description("Actions that reached a final state, by kind and outcome")
                        .tag("kind", kind)
                        .tag("outcome", outcome)
                        .register(registry));
    }

    private Timer timer(String kind, String outcome) {
        return durations.computeIfAbsent(
                kind + '\u0000' + outcome,
                x -> Timer.builder("lifeline_action_duration")
                        .description("Time from an action's submission to its final state")
                        .tag("kind", kind)
                        .tag("outcome", outcome)
                        .serviceLevelObjectives(BUCKETS)
                        .minimumExpectedValue(BUCKETS[0])
                        .maximumExpectedValue(BUCKETS[BUCKETS.length - 1])
                        .register(registry));
    }

    private Counter decision(String policy, String mode) {
        return decisions.computeIfAbsent(
                policy + '\u0000' + mode,
                x -> Counter.builder("lifeline_policy_decisions")
                        .description("Policy decisions, by policy and the mode it was in")
                        .tag("policy", policy)
                        .tag("mode", mode)
                        .register(registry));
    }

    private static String kind(String kind) {
        if (kind == null) {
            return OTHER;
        }
        // Both the wire name (checkpoint-now) and the constant name (CHECKPOINT_NOW) are accepted.
        String wire = kind.toLowerCase(Locale.ROOT).replace('_', '-');
        return ActionKind.fromWire(wire).map(ActionKind::wire).orElse(OTHER);
    }

    private static String bounded(Map<String, Boolean> seen, String value) {
        if (value == null || value.isBlank() || value.length() > 32) {
            return OTHER;
        }
        String v = value.toLowerCase(Locale.ROOT).replace('_', '-');
        if (seen.containsKey(v)) {
            return v;
        }
        if (seen.size() >= MAX_VALUES) {
            return OTHER;
        }
        seen.put(v, Boolean.TRUE);
        return v;
    }
}
