package io.lifeline.domain.policy;

import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.action.ActionRequest;
import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.fleet.Fleet;
import io.lifeline.domain.fleet.NodeLifecycle;
import io.lifeline.domain.fleet.NodeQuery;
import io.lifeline.domain.fleet.NodeSummary;
import io.lifeline.domain.job.JobDetail;
import io.lifeline.domain.job.JobFilter;
import io.lifeline.domain.job.JobState;
import io.lifeline.domain.job.JobSummary;
import io.lifeline.domain.job.Jobs;
import io.lifeline.domain.policy.colocation.ColocationRules;
import io.lifeline.domain.policy.colocation.DemandState;
import io.lifeline.domain.policy.colocation.DemandTrigger;
import io.lifeline.domain.policy.colocation.LendingWindow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The co-location policy: in a pool that lends (a window open, a demand trigger active), every running elastic
 * training job shrinks to its minimum, checkpoint first; in a pool that no longer lends, it grows back towards its
 * maximum as nodes are free. Windows that overlap lend once: the pool lends while any of them is open. Immutable: a
 * new reading of a trigger makes a new policy ({@link #withDemand}), swapped in whole.
 */
public final class ColocationPolicy {

    /** No window, no trigger: decides nothing. */
    public static final ColocationPolicy NONE = new ColocationPolicy(ColocationRules.NONE, Map.of());

    /** Why a pool lends at an instant: the open windows and active triggers, by name. Empty when it does not. */
    public record Lending(String pool, List<String> windows, List<String> triggers) {

        public Lending {
            windows = List.copyOf(windows);
            triggers = List.copyOf(triggers);
        }

        public boolean lends() {
            return !windows.isEmpty() || !triggers.isEmpty();
        }

        String describe() {
            List<String> why = new ArrayList<>();
            windows.forEach(w -> why.add("window " + w + " open"));
            triggers.forEach(t -> why.add("demand " + t + " above its threshold"));
            return String.join(", ", why);
        }
    }

    /**
     * What the policy found for one job and did not act on (already at its minimum, no node free to grow on), or
     * what it asked for: shown with the policy's status.
     */
    public record JobNote(
            String job, String pool, int nodes, int minNodes, int maxNodes, boolean lending, String note) {}

    /** The decisions of one pass and the notes on every job of a pool with rules. */
    public record Pass(List<PolicyDecision> decisions, List<JobNote> notes) {

        public Pass {
            decisions = List.copyOf(decisions);
            notes = List.copyOf(notes);
        }
    }

    private final ColocationRules rules;
    private final Map<String, DemandState> demand;

    public ColocationPolicy(ColocationRules rules, Map<String, DemandState> demand) {
        this.rules = rules;
        this.demand = Map.copyOf(demand);
    }

    public ColocationRules rules() {
        return rules;
    }

    /** Every trigger's state, by name ({@link DemandState#INITIAL} before its first reading). */
    public Map<String, DemandState> demand() {
        Map<String, DemandState> out = new LinkedHashMap<>();
        rules.triggers().forEach(t -> out.put(t.name(), demand.getOrDefault(t.name(), DemandState.INITIAL)));
        return out;
    }

    /** A copy with the trigger's state after a reading. */
    public ColocationPolicy withDemand(String trigger, DemandState state) {
        Map<String, DemandState> copy = new HashMap<>(demand);
        copy.put(trigger, state);
        return new ColocationPolicy(rules, copy);
    }

    /** A copy with other rules; the states of triggers that remain are kept. */
    public ColocationPolicy withRules(ColocationRules r) {
        Map<String, DemandState> kept = new HashMap<>();
        r.triggers().forEach(t -> {
            DemandState s = demand.get(t.name());
            if (s != null) {
                kept.put(t.name(), s);
            }
        });
        return new ColocationPolicy(r, kept);
    }

    /** Why {@code pool} lends at {@code now}, if it does. */
    public Lending lending(String pool, Instant now) {
        List<String> windows = new ArrayList<>();
        for (LendingWindow w : rules.windows()) {
            if (w.pool().equals(pool) && w.schedule().isOpen(now)) {
                windows.add(w.name());
            }
        }
        List<String> triggers = new ArrayList<>();
        for (DemandTrigger t : rules.triggers()) {
            if (t.pool().equals(pool)
                    && demand.getOrDefault(t.name(), DemandState.INITIAL).active()) {
                triggers.add(t.name());
            }
        }
        return new Lending(pool, windows, triggers);
    }

    /** The pools that have a window or a trigger. */
    public List<String> pools() {
        List<String> out = new ArrayList<>();
        rules.windows().forEach(w -> addOnce(out, w.pool()));
        rules.triggers().forEach(t -> addOnce(out, t.pool()));
        return out;
    }

    /** The decisions for now: a pure read of the model, cheap when no pool has rules. */
    public List<PolicyDecision> decisions(PolicySettings settings, Jobs jobs, Fleet fleet, Instant now) {
        return pass(settings, jobs, fleet, now).decisions();
    }

    /** The decisions and the notes for now. */
    public Pass pass(PolicySettings settings, Jobs jobs, Fleet fleet, Instant now) {
        if (rules.isEmpty()) {
            return new Pass(List.of(), List.of());
        }
        Map<String, Lending> byPool = new HashMap<>();
        pools().forEach(p -> byPool.put(p, lending(p, now)));
        Map<String, Long> free = new HashMap<>();
        List<PolicyDecision> out = new ArrayList<>();
        List<JobNote> notes = new ArrayList<>();
        for (JobSummary j : jobs.list(JobFilter.all())) {
            Lending lending = j.pool() == null ? null : byPool.get(j.pool());
            if (lending == null) {
                continue;
            }
            PolicyMode mode = settings.modeFor(PolicyName.COLOCATION, j.namespace(), j.pool());
            if (mode == PolicyMode.OFF) {
                continue;
            }
            Optional<JobDetail> d = jobs.detail(j.name());
            ElasticPolicy el = d.map(JobDetail::elastic).orElse(null);
            if (el == null) {
                notes.add(new JobNote(
                        j.name(),
                        j.pool(),
                        j.nodes(),
                        j.nodes(),
                        j.nodes(),
                        lending.lends(),
                        "not elastic: it keeps its nodes"));
                continue;
            }
            if (j.state() != JobState.RUNNING) {
                notes.add(new JobNote(
                        j.name(),
                        j.pool(),
                        j.nodes(),
                        el.minNodes(),
                        el.maxNodes(),
                        lending.lends(),
                        "job is " + j.state() + ": acted on once it is running"));
                continue;
            }
            if (lending.lends()) {
                shrink(j, el, lending, mode, out, notes);
            } else {
                grow(j, el, mode, jobs, fleet, free, out, notes);
            }
        }
        return new Pass(out, notes);
    }

    private static void shrink(
            JobSummary j,
            ElasticPolicy el,
            Lending lending,
            PolicyMode mode,
            List<PolicyDecision> out,
            List<JobNote> notes) {
        int min = el.minNodes();
        if (j.nodes() <= min) {
            notes.add(new JobNote(
                    j.name(),
                    j.pool(),
                    j.nodes(),
                    min,
                    el.maxNodes(),
                    true,
                    "already at its minimum of " + min + " node(s): nothing more to lend"));
            return;
        }
        String reason = "co-location: " + lending.describe() + " in pool " + j.pool() + ": shrink from " + j.nodes()
                + " to " + min + " node(s), checkpoint first, GPUs lent to inference";
        out.add(new PolicyDecision(
                PolicyName.COLOCATION,
                mode,
                new ActionRequest(
                        ActionKind.RESCALE,
                        j.name(),
                        Map.of("workers", Integer.toString(min), "checkpointFirst", "true"),
                        reason),
                "colocation:shrink:" + j.name() + ":" + j.nodes() + "->" + min + ":" + j.stateSince()));
        notes.add(new JobNote(j.name(), j.pool(), j.nodes(), min, el.maxNodes(), true, "shrinking to " + min));
    }

    private static void grow(
            JobSummary j,
            ElasticPolicy el,
            PolicyMode mode,
            Jobs jobs,
            Fleet fleet,
            Map<String, Long> freeByPool,
            List<PolicyDecision> out,
            List<JobNote> notes) {
        int max = el.maxNodes();
        if (j.nodes() >= max) {
            return;
        }
        long free = freeByPool.computeIfAbsent(j.pool(), p -> freeNodes(jobs, fleet, p));
        long target = Math.min(max, j.nodes() + free);
        if (target <= j.nodes()) {
            notes.add(new JobNote(
                    j.name(),
                    j.pool(),
                    j.nodes(),
                    el.minNodes(),
                    max,
                    false,
                    "waiting for free nodes in pool " + j.pool() + " to grow back to " + max));
            return;
        }
        freeByPool.put(j.pool(), free - (target - j.nodes()));
        String reason = "co-location: pool " + j.pool() + " no longer lends: grow from " + j.nodes() + " to " + target
                + " node(s), checkpoint first";
        out.add(new PolicyDecision(
                PolicyName.COLOCATION,
                mode,
                new ActionRequest(
                        ActionKind.RESCALE,
                        j.name(),
                        Map.of("workers", Long.toString(target), "checkpointFirst", "true"),
                        reason),
                "colocation:grow:" + j.name() + ":" + j.nodes() + "->" + target + ":" + j.stateSince()));
        notes.add(new JobNote(j.name(), j.pool(), j.nodes(), el.minNodes(), max, false, "growing to " + target));
    }

    private static long freeNodes(Jobs jobs, Fleet fleet, String pool) {
        long free = 0;
        for (NodeSummary n : fleet.nodes(new NodeQuery(pool, null, NodeLifecycle.READY, null))) {
            if (!n.cordoned()
                    && !n.noticeActive()
                    && !n.noticeExpired()
                    && jobs.jobsOn(n.name()).isEmpty()) {
                free++;
            }
        }
        return free;
    }

    private static void addOnce(List<String> out, String s) {
        if (!out.contains(s)) {
            out.add(s);
        }
    }
}
