package io.lifeline.policy;

import io.lifeline.action.ActionRejectedException;
import io.lifeline.action.ActionsUnavailableException;
import io.lifeline.config.PoliciesConfig;
import io.lifeline.domain.objective.JobObjectives;
import io.lifeline.domain.policy.PolicyEngine;
import io.lifeline.domain.policy.PolicyHygiene;
import io.lifeline.domain.policy.PolicyMode;
import io.lifeline.domain.policy.PolicyName;
import io.lifeline.domain.policy.PolicySettings;
import io.lifeline.eventlog.StoreUnavailableException;
import io.lifeline.policy.store.PolicyStore;
import io.lifeline.security.identity.AccessDeniedException;
import io.lifeline.security.identity.Caller;
import io.lifeline.security.identity.Role;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** Policy settings: configuration first, then what admins stored through the API; changes reach the engine at once. */
@ApplicationScoped
public class DefaultPolicyService implements PolicyService {

    private static final Pattern SCOPE = Pattern.compile("(namespace|pool):[a-z0-9]([-a-z0-9.]{0,61}[a-z0-9])?");
    private static final Map<PolicyName, String> DESCRIPTIONS = Map.of(
            PolicyName.NOTICE_CHECKPOINT_DRAIN,
                    "An interruption notice on a node: checkpoint its jobs, then drain it" + " inside the notice",
            PolicyName.FATAL_XID_DRAIN, "A fatal XID on a GPU: drain its node and shrink its elastic jobs",
            PolicyName.CAPACITY_GROW, "Free nodes in a pool: grow shrunk elastic jobs back towards their maximum",
            PolicyName.STALE_CHECKPOINT, "A checkpoint older than the job's freshness objective: checkpoint now",
            PolicyName.RESTART_LOOP_SUSPEND, "A job that spent its restart budget: checkpoint and suspend it",
            PolicyName.ADMISSION_FAILURE_CORDON,
                    "A Ready node whose kubelet keeps rejecting pods at admission or device allocation: cordon it",
            PolicyName.COLOCATION,
                    "A co-location window open or inference demand high in a pool: shrink its elastic"
                            + " training jobs to their minimum, checkpoint first; grow them back after");

    private final PolicyStore store;
    private final Clock clock;
    private final PolicyEngine engine;

    /**
     * The service with the goodput objectives the policies and the interval advice read: the application's
     * {@link JobObjectives} bean when there is one, else {@link JobObjectives#NONE} (no job under an objective). A
     * normal-scoped bean is resolved to its client proxy here, so it is created only when first asked.
     */
    @Inject
    DefaultPolicyService(PolicyStore store, PoliciesConfig config, Clock clock, Instance<JobObjectives> objectives) {
        this(store, config, clock);
        engine.objectives(objectives.isResolvable() ? objectives.get() : JobObjectives.NONE);
    }

    /** The service without objectives ({@link JobObjectives#NONE}). */
    DefaultPolicyService(PolicyStore store, PoliciesConfig config, Clock clock) {
        this.store = store;
        this.clock = clock;
        this.engine = new PolicyEngine(fromConfig(config));
        engine.staleCheckpointOnlyWhenBurning(config.staleCheckpoint().onlyWhenBurning());
        engine.backToService(backToService(config.backToService()));
        engine.hygiene()
                .settings(new PolicyHygiene.Settings(
                        config.startupGrace(), config.trainerSilence(), config.backoffInitial(), config.backoffMax()));
    }

    /** The engine, holding the settings in force. */
    public PolicyEngine engine() {
        return engine;
    }

    /** Loads what admins stored over the configured defaults; called once the database is reachable. */
    public void loadStored() {
        PolicySettings s = engine.settings();
        for (Map.Entry<PolicyName, PolicySettings.Entry> e : store.load().entrySet()) {
            s = s.with(e.getKey(), e.getValue());
        }
        engine.settings(s);
    }

    @Override
    public List<PolicyView> list() {
        return Arrays.stream(PolicyName.values()).map(this::get).toList();
    }

    @Override
    public PolicyView get(PolicyName name) {
        PolicySettings.Entry e = engine.settings().entry(name);
        return new PolicyView(
                name,
                DESCRIPTIONS.get(name),
                e.mode(),
                e.overrides(),
                name == PolicyName.STALE_CHECKPOINT ? engine.staleCheckpointOnlyWhenBurning() : null);
    }

    @Override
    public synchronized PolicyView update(
            PolicyName name, PolicyMode mode, Map<String, PolicyMode> overrides, Caller caller) {
        if (!caller.has(Role.ADMIN) || !caller.isFleetWide()) {
            throw new AccessDeniedException("changing policies needs a fleet-wide admin token");
        }
        for (String scope : overrides.keySet()) {
            if (!SCOPE.matcher(scope).matches()) {
                throw new ActionRejectedException(
                        "overrides." + (scope.length() > 60 ? scope.substring(0, 60) : scope),
                        "a scope is namespace:<namespace> or pool:<pool>");
            }
        }
        PolicySettings.Entry before = engine.settings().entry(name);
        PolicySettings.Entry after = new PolicySettings.Entry(mode, overrides);
        try {
            store.save(name, before, after, caller.actor(), clock.instant());
        } catch (StoreUnavailableException e) {
            throw new ActionsUnavailableException("the policy store is unavailable; nothing changed", e);
        }
        engine.settings(engine.settings().with(name, after));
        return get(name);
    }

    static io.lifeline.domain.policy.BackToService.Settings backToService(PoliciesConfig.BackToService c) {
        io.lifeline.domain.policy.BackToService.Check check = switch (c.check()) {
            case "samples" -> io.lifeline.domain.policy.BackToService.Check.SAMPLES;
            case "health-check" -> io.lifeline.domain.policy.BackToService.Check.HEALTH_CHECK;
            default ->
                throw new IllegalArgumentException(
                        "lifeline.policies.back-to-service.check: one of samples, health-check, got " + c.check());
        };
        return new io.lifeline.domain.policy.BackToService.Settings(
                check, c.healthyWindow(), c.sampleMaxAge(), c.acceptTaintRemoval());
    }

    static PolicySettings fromConfig(PoliciesConfig config) {
        PolicyMode dflt = PolicyMode.fromWire(config.defaultMode())
                .orElseThrow(
                        () -> new IllegalArgumentException("lifeline.policies.default-mode: one of off, dry-run, on"));
        Map<PolicyName, PolicySettings.Entry> entries = new EnumMap<>(PolicyName.class);
        for (PolicyName p : PolicyName.values()) {
            entries.put(p, new PolicySettings.Entry(dflt, Map.of()));
        }
        config.mode().forEach((k, v) -> {
            PolicyName p = PolicyName.fromWire(k)
                    .orElseThrow(() -> new IllegalArgumentException("lifeline.policies.mode: no policy named " + k));
            entries.put(
                    p,
                    new PolicySettings.Entry(
                            PolicyMode.fromWire(v)
                                    .orElseThrow(() -> new IllegalArgumentException(
                                            "lifeline.policies.mode." + k + ": one of off, dry-run, on")),
                            Map.of()));
        });
        return new PolicySettings(entries);
    }
}
