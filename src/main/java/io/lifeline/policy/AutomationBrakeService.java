package io.lifeline.policy;

import io.lifeline.action.ActionsUnavailableException;
import io.lifeline.action.view.AuditEntry;
import io.lifeline.config.PoliciesConfig;
import io.lifeline.domain.policy.AutomationBrake;
import io.lifeline.domain.policy.AutomationBrake.Outcome;
import io.lifeline.domain.policy.AutomationBrake.Settings;
import io.lifeline.domain.policy.AutomationBrake.State;
import io.lifeline.domain.policy.AutomationBrake.Target;
import io.lifeline.domain.policy.PolicyName;
import io.lifeline.eventlog.StoreUnavailableException;
import io.lifeline.policy.store.BrakeStore;
import io.lifeline.runtime.ModelRuntime;
import io.lifeline.security.identity.AccessDeniedException;
import io.lifeline.security.identity.Caller;
import io.lifeline.security.identity.Role;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jboss.logging.Logger;

/**
 * The automation brake at the edge of the policies: decides on each node-taking decision against the state all
 * replicas share ({@link BrakeStore}), previews a drain for a dry run, shows the state, and lets a person reset it
 * (audited as {@code policy.brake_reset}; the engagement itself is audited as {@code policy.brake_engaged}). Exposes
 * {@code lifeline_policy_brake_engaged} and {@code lifeline_policy_brake_taken_nodes} from the state last read.
 */
@ApplicationScoped
public class AutomationBrakeService {

    private static final Logger LOG = Logger.getLogger(AutomationBrakeService.class);
    /** What the audit names the brake by. */
    static final String TARGET = "policy:brake";

    private static final int MAX_REASON = 500;

    private final BrakeStore store;
    private final ModelRuntime runtime;
    private final Clock clock;
    private final Settings settings;
    private volatile State latest = State.INITIAL;

    @Inject
    AutomationBrakeService(
            BrakeStore store, ModelRuntime runtime, PoliciesConfig config, Clock clock, MeterRegistry registry) {
        this(store, runtime, settings(config.brake()), clock);
        Gauge.builder("lifeline_policy_brake_engaged", this, s -> s.latest.isEngaged() ? 1 : 0)
                .description("Whether the automation brake is engaged (1): the policies' node drains are held until a"
                        + " person resets it")
                .register(registry);
        Gauge.builder(
                        "lifeline_policy_brake_taken_nodes",
                        this,
                        s -> AutomationBrake.takenInWindow(s.settings, s.latest, s.clock.instant()))
                .description("Nodes the policies took out of service within the brake's window, fleet-wide")
                .register(registry);
    }

    /** A service over given parts (tests and tools); no metrics. */
    public AutomationBrakeService(BrakeStore store, ModelRuntime runtime, Settings settings, Clock clock) {
        this.store = store;
        this.runtime = runtime;
        this.settings = settings;
        this.clock = clock;
    }

    static Settings settings(PoliciesConfig.Brake c) {
        return new Settings(c.enabled(), c.window(), c.poolShare(), c.poolMinNodes(), c.fleetNodes());
    }

    public Settings settings() {
        return settings;
    }

    /**
     * What the brake says of {@code policy}'s decision to take {@code target} now, the state stored with it: the node
     * counted, or the brake engaged (audited), or one more decision held. Called by the leader's policy submitter, one
     * decision at a time.
     *
     * @throws ActionsUnavailableException when the store cannot be reached: the decision is not acted on
     */
    public Outcome admit(Target target, PolicyName policy) {
        Instant now = clock.instant();
        try {
            Outcome o = store.update(
                    st -> {
                        Outcome out = AutomationBrake.decide(settings, st, target, policy.wire(), now);
                        List<AuditEntry> audit = out.verdict() == AutomationBrake.Verdict.TRIPPED
                                ? List.of(new AuditEntry(
                                        0,
                                        now,
                                        policy.requester(),
                                        "policy.brake_engaged",
                                        TARGET,
                                        null,
                                        out.state().engaged().reason(),
                                        "released",
                                        "engaged: holding " + policy.wire() + "'s drain of " + target.node()
                                                + " and every node-taking decision after it"))
                                : List.of();
                        return new BrakeStore.Change<>(out.state(), out, audit);
                    },
                    now);
            latest = o.state();
            if (o.verdict() == AutomationBrake.Verdict.TRIPPED) {
                LOG.warnf(
                        "Automation brake engaged by %s's drain of %s: %s. Every node-taking decision is held until"
                                + " a person resets it (POST /api/v1/policies/brake/reset, lifelinectl policies brake reset)",
                        policy.requester(), target.node(), o.state().engaged().reason());
            }
            return o;
        } catch (StoreUnavailableException e) {
            throw new ActionsUnavailableException("the brake's store is unavailable; the decision is not acted on", e);
        }
    }

    /** What the brake would say of a policy's decision to take a node now: the node as the brake sees it, and that. */
    public record Preview(Target target, Outcome outcome) {}

    /**
     * What the brake would say of a policy's drain of {@code node} now, changing nothing: what a drain's dry run shows.
     */
    public Preview preview(String node) {
        Target t = read(m -> AutomationBrake.target(m.fleet(), node));
        return new Preview(t, AutomationBrake.decide(settings, refresh(), t, "dry-run", clock.instant()));
    }

    /**
     * The brake as a person reads it.
     *
     * @param state    the state now (nodes taken before the window left out)
     * @param fleet    nodes taken within the window fleet-wide, against its bound
     * @param pools    per pool with nodes taken within the window: taken, live nodes, bound
     * @param settings the bounds
     */
    public record View(State state, AutomationBrake.Count fleet, List<PoolCount> pools, Settings settings) {}

    /** One pool's count within the window. */
    public record PoolCount(String pool, int taken, int liveNodes, int bound) {}

    /** The brake now, with its counts. */
    public View view() {
        Instant now = clock.instant();
        State st = AutomationBrake.pruned(settings, refresh(), now);
        Map<String, Integer> byPool = AutomationBrake.takenByPool(settings, st, now);
        Map<String, Integer> live = byPool.isEmpty()
                ? Map.of()
                : read(m -> {
                    Map<String, Integer> out = new java.util.HashMap<>();
                    byPool.keySet().forEach(p -> out.put(p, m.fleet().liveNodesIn(p)));
                    return out;
                });
        List<PoolCount> pools = new ArrayList<>();
        byPool.forEach((p, n) -> {
            int nodes = live.getOrDefault(p, 0);
            pools.add(new PoolCount(p, n, nodes, settings.poolBound(nodes)));
        });
        return new View(
                st,
                new AutomationBrake.Count(AutomationBrake.takenInWindow(settings, st, now), settings.fleetNodes()),
                pools,
                settings);
    }

    /**
     * A person releases the brake: the next decisions are counted afresh. Needs a fleet-wide operator (the brake
     * holds drains of nodes every namespace shares); audited as {@code policy.brake_reset} with the reason given.
     */
    public View reset(Caller caller, String reason) {
        if (!caller.mayActOnNodes()) {
            throw new AccessDeniedException(
                    caller.has(Role.OPERATOR)
                            ? "the brake holds drains of nodes every namespace shares: resetting it needs a fleet-wide operator"
                            : "resetting the automation brake needs the operator role");
        }
        String why = reason == null || reason.isBlank()
                ? null
                : reason.strip().length() > MAX_REASON ? reason.strip().substring(0, MAX_REASON) : reason.strip();
        Instant now = clock.instant();
        try {
            State after = store.update(
                    st -> {
                        State next = AutomationBrake.reset(st, caller.actor(), why, now);
                        String before = st.isEngaged()
                                ? "engaged since " + st.engaged().at() + " ("
                                        + st.engaged().reason() + "), " + st.held() + " decision(s) held"
                                : "released, " + st.taken().size() + " node(s) counted";
                        return new BrakeStore.Change<>(
                                next,
                                next,
                                List.of(new AuditEntry(
                                        0,
                                        now,
                                        caller.actor(),
                                        "policy.brake_reset",
                                        TARGET,
                                        null,
                                        why,
                                        before,
                                        "released, counting afresh")));
                    },
                    now);
            latest = after;
            LOG.infof("Automation brake reset by %s%s", caller.actor(), why == null ? "" : ": " + why);
        } catch (StoreUnavailableException e) {
            throw new ActionsUnavailableException("the brake's store is unavailable; nothing changed", e);
        }
        return view();
    }

    /** Reads the stored state (and keeps it for the metrics). */
    public State refresh() {
        try {
            State s = store.read();
            latest = s;
            return s;
        } catch (StoreUnavailableException e) {
            throw new ActionsUnavailableException("the brake's store is unavailable", e);
        }
    }

    /** The state as last read or written by this replica, without a query. */
    public State latest() {
        return latest;
    }

    private <T> T read(java.util.function.Function<io.lifeline.runtime.LiveModel, T> query) {
        try {
            return runtime.read(query).get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ActionsUnavailableException("interrupted while reading the model", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new ActionsUnavailableException("the model did not answer in time; retry", e);
        }
    }
}
