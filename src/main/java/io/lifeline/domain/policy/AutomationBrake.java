package io.lifeline.domain.policy;

import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.action.ActionRequest;
import io.lifeline.domain.fleet.Fleet;
import io.lifeline.domain.fleet.NodeInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The automation brake: a bound on how many nodes the policies may take out of service (cordon and drain) within a
 * sliding window, per pool and fleet-wide. A decision that would take one node more than either bound allows engages
 * the brake, and from then on every node-taking decision of every policy is held (recorded, nothing done) until a
 * person resets it. What a forged flood of interruption notices or XIDs can do to the fleet is then bounded by the
 * brake, not by the size of the flood; an ordinary day (spot reclaims, a rebalance recommendation, a failing GPU)
 * stays far below the bounds.
 *
 * <p>Pure and immutable: every operation takes a {@link State} and the time, and returns the state after it, which the
 * caller stores (all replicas share one state; only the leader decides).
 */
public final class AutomationBrake {

    private AutomationBrake() {}

    /**
     * The bounds.
     *
     * @param enabled      whether the brake applies at all
     * @param window       the sliding window the bounds count over
     * @param poolShare    the share of a pool's live nodes automation may take within the window (0.2: a fifth)
     * @param poolMinNodes however small the pool, this many of its nodes may be taken within the window
     * @param fleetNodes   the most nodes automation may take fleet-wide within the window
     */
    public record Settings(boolean enabled, Duration window, double poolShare, int poolMinNodes, int fleetNodes) {

        public Settings {
            Objects.requireNonNull(window, "window");
            if (window.isNegative() || window.isZero()) {
                throw new IllegalArgumentException("window: must be positive, got " + window);
            }
            if (!(poolShare > 0 && poolShare <= 1)) {
                throw new IllegalArgumentException("pool-share: must be above 0 and at most 1, got " + poolShare);
            }
            if (poolMinNodes < 1) {
                throw new IllegalArgumentException("pool-min-nodes: must be at least 1, got " + poolMinNodes);
            }
            if (fleetNodes < 1) {
                throw new IllegalArgumentException("fleet-nodes: must be at least 1, got " + fleetNodes);
            }
        }

        /** At most a fifth of a pool (and at least 2 of its nodes) and 10 nodes fleet-wide within 10 minutes. */
        public static Settings defaults() {
            return new Settings(true, Duration.ofMinutes(10), 0.2, 2, 10);
        }

        /** The most nodes of a pool with {@code poolNodes} live nodes that may be taken within the window. */
        public int poolBound(int poolNodes) {
            return Math.max(poolMinNodes, (int) Math.floor(poolShare * poolNodes + 1e-9));
        }
    }

    /**
     * A node a policy took: a node-taking decision the brake let through.
     *
     * @param node   the node
     * @param pool   its pool, null when the node had none
     * @param at     when
     * @param policy the policy's wire name
     */
    public record Take(String node, String pool, Instant at, String policy) {}

    /**
     * Why the brake engaged: the decision that would have gone past a bound.
     *
     * @param at     when
     * @param policy the policy that asked
     * @param node   the node it would have taken
     * @param pool   that node's pool, may be null
     * @param reason which bound, in words
     */
    public record Trip(Instant at, String policy, String node, String pool, String reason) {}

    /**
     * A person released the brake.
     *
     * @param at     when
     * @param by     who (the actor as the audit names it)
     * @param reason what they said, may be null
     */
    public record Reset(Instant at, String by, String reason) {}

    /**
     * The brake's whole state, as the store keeps it.
     *
     * @param taken     nodes taken within the window (older ones are dropped as time passes), oldest first
     * @param engaged   why it is engaged, or null while released
     * @param held      decisions held since it engaged (the one that tripped it included)
     * @param lastReset the latest reset, or null
     */
    public record State(List<Take> taken, Trip engaged, long held, Reset lastReset) {

        /** Nothing taken, released, never reset. */
        public static final State INITIAL = new State(List.of(), null, 0, null);

        public State {
            taken = taken == null ? List.of() : List.copyOf(taken);
        }

        public boolean isEngaged() {
            return engaged != null;
        }
    }

    /**
     * A decision that would take a node, with what the bounds need to know of it.
     *
     * @param node      the node
     * @param pool      its pool, null when the model knows none (only the fleet-wide bound applies then)
     * @param poolNodes the live (registered, not terminated) nodes of that pool now
     */
    public record Target(String node, String pool, int poolNodes) {}

    /** What the brake does with a decision. */
    public enum Verdict {
        /** Within the bounds: the decision goes ahead, and the node counts in the window. */
        ALLOWED,
        /** The node is already counted within the window (a notice and an XID for the same node): it goes ahead. */
        ALREADY_COUNTED,
        /** It would go past a bound: the brake engages, and this decision is held. */
        TRIPPED,
        /** The brake is engaged: held. */
        HELD;

        /** Whether the decision may go ahead. */
        public boolean allows() {
            return this == ALLOWED || this == ALREADY_COUNTED;
        }

        public String wire() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    /**
     * Nodes taken within the window, against the bound.
     *
     * @param taken nodes taken within the window, before the decision
     * @param bound the most that may be taken
     */
    public record Count(int taken, int bound) {}

    /**
     * What the brake said of one decision.
     *
     * @param verdict what it does with it
     * @param state   the state after it
     * @param reason  why, in words (for the held record and the dry run)
     * @param fleet   the fleet-wide count it compared
     * @param pool    the pool's count it compared, null when the node has no pool
     */
    public record Outcome(Verdict verdict, State state, String reason, Count fleet, Count pool) {}

    /** Whether carrying out {@code request} takes a node out of service (cordons it): what the brake counts. */
    public static boolean takesNode(ActionRequest request) {
        return request.kind() == ActionKind.DRAIN || request.kind() == ActionKind.CORDON;
    }

    /** The target of a decision on {@code node}, with its pool's live nodes as the model knows them now. */
    public static Target target(Fleet fleet, String node) {
        NodeInfo facts = fleet.find(node);
        String pool = facts == null ? null : facts.pool();
        return new Target(node, pool, pool == null ? 0 : fleet.liveNodesIn(pool));
    }

    /**
     * Decides on a policy's decision to take {@code target} at {@code now}, and returns the state after it (the node
     * counted, or the brake engaged, or one more decision held). The caller stores that state; a preview (a dry run)
     * simply drops it.
     */
    public static Outcome decide(Settings s, State state, Target target, String policy, Instant now) {
        State st = pruned(s, state, now);
        List<Take> window = st.taken();
        Count fleet = new Count(distinctNodes(window, null), s.fleetNodes());
        Count pool = target.pool() == null
                ? null
                : new Count(distinctNodes(window, target.pool()), s.poolBound(target.poolNodes()));
        if (!s.enabled()) {
            return new Outcome(Verdict.ALLOWED, st, "the automation brake is off", fleet, pool);
        }
        if (st.isEngaged()) {
            Trip t = st.engaged();
            return new Outcome(
                    Verdict.HELD,
                    new State(window, t, st.held() + 1, st.lastReset()),
                    "the automation brake is engaged since " + t.at() + " (" + t.reason() + "); a person resets it",
                    fleet,
                    pool);
        }
        for (Take t : window) {
            if (t.node().equals(target.node())) {
                return new Outcome(
                        Verdict.ALREADY_COUNTED,
                        st,
                        target.node() + " was taken at " + t.at() + " and counts once",
                        fleet,
                        pool);
            }
        }
        String minutes = words(s.window());
        String over = null;
        if (fleet.taken() + 1 > fleet.bound()) {
            over = "it would take " + ordinal(fleet.taken() + 1) + " node within " + minutes + " fleet-wide, more than "
                    + fleet.bound();
        } else if (pool != null && pool.taken() + 1 > pool.bound()) {
            over = "it would take " + ordinal(pool.taken() + 1) + " node of pool " + target.pool() + " ("
                    + target.poolNodes() + " live) within " + minutes + ", more than " + pool.bound() + " ("
                    + percent(s.poolShare()) + " of the pool, at least " + s.poolMinNodes() + ")";
        }
        if (over != null) {
            Trip trip = new Trip(now, policy, target.node(), target.pool(), over);
            return new Outcome(Verdict.TRIPPED, new State(window, trip, 1, st.lastReset()), over, fleet, pool);
        }
        List<Take> taken = new ArrayList<>(window);
        taken.add(new Take(target.node(), target.pool(), now, policy));
        return new Outcome(
                Verdict.ALLOWED,
                new State(taken, null, 0, st.lastReset()),
                "within the bounds: " + (fleet.taken() + 1) + " of " + fleet.bound() + " fleet-wide"
                        + (pool == null
                                ? ""
                                : ", " + (pool.taken() + 1) + " of " + pool.bound() + " in pool " + target.pool())
                        + " within " + minutes,
                fleet,
                pool);
    }

    /**
     * A person releases the brake: it is released, and the window starts afresh (what was taken before the reset no
     * longer counts, or the next decision would engage it again at once).
     */
    public static State reset(State state, String by, String reason, Instant now) {
        return new State(List.of(), null, 0, new Reset(now, by, reason));
    }

    /** The state with the nodes taken before the window dropped. */
    public static State pruned(Settings s, State state, Instant now) {
        Instant from = now.minus(s.window());
        List<Take> kept = new ArrayList<>(state.taken().size());
        for (Take t : state.taken()) {
            if (t.at().isAfter(from)) {
                kept.add(t);
            }
        }
        return kept.size() == state.taken().size()
                ? state
                : new State(kept, state.engaged(), state.held(), state.lastReset());
    }

    /** Distinct nodes taken within the window, per pool (nodes without a pool left out), for views. */
    public static Map<String, Integer> takenByPool(Settings s, State state, Instant now) {
        Map<String, Set<String>> nodes = new LinkedHashMap<>();
        for (Take t : pruned(s, state, now).taken()) {
            if (t.pool() != null) {
                nodes.computeIfAbsent(t.pool(), k -> new HashSet<>()).add(t.node());
            }
        }
        Map<String, Integer> out = new LinkedHashMap<>();
        nodes.forEach((k, v) -> out.put(k, v.size()));
        return out;
    }

    /** Distinct nodes taken within the window, fleet-wide. */
    public static int takenInWindow(Settings s, State state, Instant now) {
        return distinctNodes(pruned(s, state, now).taken(), null);
    }

    private static int distinctNodes(List<Take> taken, String pool) {
        Set<String> nodes = new HashSet<>();
        for (Take t : taken) {
            if (pool == null || pool.equals(t.pool())) {
                nodes.add(t.node());
            }
        }
        return nodes.size();
    }

    private static String words(Duration d) {
        long s = d.toSeconds();
        if (s % 3600 == 0) {
            return s / 3600 + " h";
        }
        return s % 60 == 0 ? s / 60 + " min" : s + " s";
    }

    private static String percent(double share) {
        double p = share * 100;
        return (p == Math.rint(p) ? Long.toString((long) p) : String.format(Locale.ROOT, "%.1f", p)) + " %";
    }

    static String ordinal(int n) {
        int mod100 = n % 100;
        String suffix = mod100 >= 11 && mod100 <= 13
                ? "th"
                : switch (n % 10) {
                    case 1 -> "st";
                    case 2 -> "nd";
                    case 3 -> "rd";
                    default -> "th";
                };
        return (n == 8 || n == 11 || n == 18 || n >= 80 && n < 90 ? "an " : "a ") + n + suffix;
    }
}
