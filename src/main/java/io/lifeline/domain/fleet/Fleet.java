package io.lifeline.domain.fleet;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.GpuData;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.NotAppliedReason;
import io.lifeline.domain.fleet.reliability.GroupBy;
import io.lifeline.domain.fleet.reliability.GroupExposure;
import io.lifeline.domain.fleet.reliability.GroupKey;
import io.lifeline.domain.fleet.reliability.Interruption;
import io.lifeline.domain.fleet.reliability.InterruptionCause;
import io.lifeline.domain.fleet.reliability.NodeAdmissionFailures;
import io.lifeline.domain.fleet.reliability.NodeExposure;
import io.lifeline.domain.fleet.reliability.PoolRate;
import io.lifeline.domain.fleet.reliability.ReliabilityCalculator;
import io.lifeline.domain.fleet.reliability.ReliabilityReport;
import io.lifeline.domain.fleet.reliability.ReliabilitySettings;
import io.lifeline.domain.gpu.GpuHealth;
import io.lifeline.domain.gpu.GpuHealthRules;
import io.lifeline.domain.gpu.GpuState;
import io.lifeline.domain.gpu.GpuView;
import io.lifeline.domain.gpu.XidPolicy;
import io.lifeline.domain.support.SilentSubjects;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

/**
 * The live model of the fleet: nodes, their lifecycle, their GPUs and GPU health, built from {@code node.*}
 * and {@code gpu.*} events (other families are ignored).
 *
 * <p>{@link #apply} returns the {@link NodeSignal}s the jobs must hear about, only when something really
 * changed: events may arrive late, out of order or twice, and each node register (lifecycle, cordon, notice,
 * facts, GPU samples) is last-writer-wins by event time. A {@code gpu.*} event for a node never seen creates
 * it (lifecycle UNKNOWN, facts unknown).
 *
 * <p>Memory: terminated nodes stay listed as history up to {@link FleetSettings#terminatedNodesKept()}, the oldest
 * forgotten first; a node that never registered (known only from stray GPU or late events, for example an event sent
 * after its node was forgotten) is forgotten once silent for {@link FleetSettings#strayNodesForgetAfter()} in event
 * time ({@link SilentSubjects}), so spot churn and late events cannot grow the model without bound.
 *
 * <p>Threading: not thread-safe, and needs no locks: one thread applies every event and runs every read (the
 * application's model thread). Reads return immutable views, never the model's own objects, so what they return
 * may be handed to other threads; {@link #snapshot} takes the whole fleet at once, reusing the views of nodes
 * that did not change since the previous snapshot.
 */
public final class Fleet implements NodeModel {

    private final FleetSettings settings;
    private final HashMap<String, NodeState> nodes = new HashMap<>();
    /**
     * The same nodes in name order, kept with {@link #nodes} on every add and remove (log n each), so that a page in
     * name order never sorts the whole fleet per request.
     */
    private final TreeMap<String, NodeState> byName = new TreeMap<>();
    /**
     * The same nodes by slot (null for a free one): a node keeps its slot from its addition to its removal, and a
     * snapshot holds its views by slot ({@link FleetSnapshot}).
     */
    private final ArrayList<NodeState> slots = new ArrayList<>();

    private final ArrayDeque<Integer> freeSlots = new ArrayDeque<>();
    /** Moves when a node is added or removed: a snapshot's slot table is good while it stays. */
    private long membership;
    /** Stamps each change of a node, so that a snapshot can tell which nodes changed since the previous one. */
    private long changes;
    /** Moves when a node's facts change, a node is added or removed, or one is terminated or back: {@link #factsVersion}. */
    private long factsVersion;
    /** Capacity types of live nodes by pool, as of facts version {@link #capacityIndexAt}. */
    private Map<String, Set<CapacityType>> capacityIndex;
    /** Live nodes by pool, as of the same facts version. */
    private Map<String, Integer> liveIndex;

    private long capacityIndexAt = -1;
    private final NodeEvents nodeEvents;
    private final GpuEvents gpuEvents;
    private final FleetViews views;
    private final TerminatedNodes terminated;
    private final StringPool strings;
    private final ReliabilityLedger ledger = new ReliabilityLedger();
    private ReliabilitySettings reliabilitySettings = ReliabilitySettings.defaults();
    private AdmissionSettings admission = AdmissionSettings.defaults();
    private final SilentSubjects strays;
    /** Nodes held besides the terminated ones kept as history: beyond it, a new node is not applied. */
    private int maxNodes = DEFAULT_MAX_NODES;
    /** The default of {@link #limitNodes} (docs/configuration.md says what it rests on). */
    public static final int DEFAULT_MAX_NODES = 50_000;

    private final SilentSubjects.Subjects strayNodes = new SilentSubjects.Subjects() {
        @Override
        public OptionalLong candidate(String subject) {
            NodeState n = nodes.get(subject);
            return n != null && n.state == NodeLifecycle.UNKNOWN && n.facts() == null
                    ? OptionalLong.of(n.lastEventMillis)
                    : OptionalLong.empty();
        }

        @Override
        public void forget(String subject) {
            NodeState n = nodes.get(subject);
            if (n != null) {
                remove(n);
            }
        }
    };

    /** A fleet with the default settings and the shipped XID policy. */
    public Fleet(Clock clock) {
        this(FleetSettings.defaults(clock));
    }

    public Fleet(FleetSettings settings) {
        this.settings = settings;
        GpuHealthRules rules = new GpuHealthRules(settings.xidPolicy(), settings.gpuThresholds());
        this.strings = new StringPool(10_000);
        this.nodeEvents = new NodeEvents(strings, rules, settings.clock());
        this.gpuEvents = new GpuEvents(strings, rules);
        this.views = new FleetViews(settings, rules);
        this.terminated = new TerminatedNodes(settings.terminatedNodesKept());
        this.strays = new SilentSubjects(settings.strayNodesForgetAfter().toMillis());
    }

    /** Applies one event; returns the signals it produced (empty for other families, repeats and stale events). */
    @Override
    public List<NodeSignal> apply(Event e) {
        return change(e).signals();
    }

    /**
     * Applies one event; returns what it did (changed, a repeat, or not applied with the reason) and the signals it
     * produced. Events of other families change nothing.
     */
    @Override
    public NodeChange change(Event e) {
        EventType.Family family = e.type().family();
        if (family != EventType.Family.NODE && family != EventType.Family.GPU) {
            return NodeChange.UNCHANGED;
        }
        long t = e.time().toEpochMilli();
        NodeState n = nodes.get(e.subject());
        if (n == null) {
            // Terminated nodes are history bounded on their own; the rest is what the limit bounds. A node terminated,
            // back and terminated again counts twice in the history: the limit then lets a few more in, never fewer.
            int held = nodes.size() - terminated.size();
            if (held >= maxNodes) {
                return NodeChange.notApplied(
                        NotAppliedReason.LIMIT_REACHED,
                        "the model holds " + held + " nodes besides "
                                + "terminated ones, its limit (lifeline.model.limits.max-nodes); a new node is taken once others "
                                + "terminate or are forgotten");
            }
            n = new NodeState(e.subject());
            add(n);
            if (e.type() != EventType.NODE_REGISTERED) {
                strays.add(n.name, t);
            }
        }
        n.lastEventMillis = Math.max(n.lastEventMillis, t);
        NodeChange change = applyTo(n, e);
        for (NodeSignal s : change.signals()) {
            if (s.kind() == NodeSignal.Kind.TERMINATED) {
                forget(terminated.add(n, s.time().toEpochMilli()));
            }
        }
        strays.forgetSilent(t, strayNodes);
        return change;
    }

    /** Sets how many nodes besides the terminated ones are held at most (before events are applied). */
    public void limitNodes(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max must be >= 1, got " + max);
        }
        this.maxNodes = max;
    }

    /** Nodes known now (live, terminated ones kept as history, and strays not yet forgotten). */
    public int size() {
        return nodes.size();
    }

    @SuppressWarnings("ReferenceEquality") // a NodeInfo is replaced only when the facts change
    private NodeChange applyTo(NodeState n, Event e) {
        // Stamped whether or not the event changes anything: a snapshot then rebuilds the node's views, which
        // costs little, and no register can change unnoticed.
        n.version = ++changes;
        NodeInfo factsBefore = n.facts();
        boolean terminatedBefore = n.state == NodeLifecycle.TERMINATED;
        NodeChange change;
        // Taken before the event: the outage a pending notice announced is the notice's interruption, not another.
        // By event time only (a notice past its deadline still announced the outage), so a replay gives the same.
        boolean noticePending = n.noticePending();
        long lifeStart = n.lifeStart;
        if (e.data() instanceof NodeData d) {
            change = nodeEvents.apply(n, e, d);
        } else if (e.data() instanceof GpuData d) {
            change = gpuEvents.apply(n, e, d);
        } else {
            change = NodeChange.UNCHANGED;
        }
        for (NodeSignal s : change.signals()) {
            long t = s.time().toEpochMilli();
            if (isInterruption(s.kind())) {
                InterruptionCause cause = causeOf(s, noticePending);
                n.recordInterruption(
                        t,
                        settings.lemonCapacity(),
                        cause == null ? LemonRing.FOLLOW_UP : (byte) cause.ordinal(),
                        s.detail());
                if (cause != null && n.facts() != null) {
                    ledger.count(groupKey(n.facts()), t, cause);
                }
            }
            if (s.kind() == NodeSignal.Kind.TERMINATED && lifeStart != NodeState.NEVER && t > lifeStart) {
                n.endLife(lifeStart, t);
                if (n.facts() != null) {
                    ledger.credit(groupKey(n.facts()), lifeStart, t);
                }
            }
        }
        if (n.facts() != factsBefore || (n.state == NodeLifecycle.TERMINATED) != terminatedBefore) {
            factsVersion++;
        }
        return change;
    }

    private static InterruptionCause causeOf(NodeSignal s, boolean noticePending) {
        return switch (s.kind()) {
            case INTERRUPTION_NOTICE -> InterruptionCause.of(s.noticeKind());
            case TERMINATED -> noticePending ? null : InterruptionCause.TERMINATION;
            case NOT_READY -> noticePending ? null : InterruptionCause.NOT_READY;
            case GPU_FAILED -> InterruptionCause.GPU_FAILURE;
            default -> null;
        };
    }

    private static GroupKey groupKey(NodeInfo f) {
        return new GroupKey(
                f.pool(),
                f.zone(),
                f.instanceType(),
                f.capacityType() == null ? null : f.capacityType().wireName());
    }

    /** How reliability is judged from now on (confidence, lemon thresholds, the advice's window). */
    public void reliabilitySettings(ReliabilitySettings s) {
        this.reliabilitySettings = java.util.Objects.requireNonNull(s, "settings");
    }

    public ReliabilitySettings reliabilitySettings() {
        return reliabilitySettings;
    }

    /**
     * Reliability over the last {@code windowDays} whole UTC days (today included, up to now): MTBF and interruption
     * rate per group with exact intervals, and the lemon nodes with their interruptions. One look at each node and
     * at each group's days: computed at read time, never per event.
     *
     * @param cause    the cause to count, null for all
     * @param visible  the nodes (by name) the reader may see, null for every node. With a filter, the groups count
     *                 only those nodes, from what each node keeps (its newest interruptions and lives); without one,
     *                 they also count the nodes forgotten since
     */
    public ReliabilityReport reliability(
            int windowDays, GroupBy groupBy, InterruptionCause cause, java.util.function.Predicate<String> visible) {
        if (windowDays < 1 || windowDays > ReliabilitySettings.MAX_WINDOW_DAYS) {
            throw new IllegalArgumentException("window must be 1.." + ReliabilitySettings.MAX_WINDOW_DAYS + " days");
        }
        long now = settings.clock().millis();
        long today = Math.floorDiv(now, ReliabilityLedger.DAY_MILLIS);
        long from = (today - windowDays + 1) * ReliabilityLedger.DAY_MILLIS;
        List<NodeExposure> exposures = new ArrayList<>();
        for (NodeState n : nodes.values()) {
            NodeInfo f = n.facts();
            if (f == null || (visible != null && !visible.test(n.name))) {
                continue;
            }
            long ms = n.serviceMillis(from, now);
            List<Interruption> list = new ArrayList<>();
            if (n.lemon != null) {
                for (LemonRing.Entry e : n.lemon.entries()) {
                    if (e.cause() >= 0 && e.millis() >= from && e.millis() <= now) {
                        list.add(new Interruption(
                                Instant.ofEpochMilli(e.millis()), InterruptionCause.values()[e.cause()], e.detail()));
                    }
                }
            }
            if (ms > 0 || !list.isEmpty()) {
                list.sort(Comparator.comparing(Interruption::time));
                exposures.add(new NodeExposure(n.name, groupKey(f), ms, list));
            }
        }
        List<GroupExposure> groups = new ArrayList<>();
        if (visible == null) {
            window(today - windowDays + 1, today, from, now)
                    .forEach((k, a) -> groups.add(ReliabilityLedger.exposure(k, a)));
        } else {
            groups.addAll(ReliabilityCalculator.groups(exposures));
        }
        return ReliabilityCalculator.report(
                        Instant.ofEpochMilli(from),
                        Instant.ofEpochMilli(now),
                        windowDays,
                        groups,
                        exposures,
                        groupBy,
                        cause,
                        reliabilitySettings)
                .withAdmissionFailures(admissionCounts(today - windowDays + 1, today, visible));
    }

    /** Credited days of the ledger plus the running lives of live nodes, per group. */
    private Map<GroupKey, long[]> window(long fromDay, long toDay, long from, long now) {
        Map<GroupKey, long[]> acc = ledger.window(fromDay, toDay);
        int causes = InterruptionCause.values().length;
        for (NodeState n : nodes.values()) {
            NodeInfo f = n.facts();
            if (f == null || n.lifeStart == NodeState.NEVER || n.state == NodeLifecycle.TERMINATED) {
                continue;
            }
            long ms = Math.max(0, now - Math.max(from, n.lifeStart));
            if (ms > 0) {
                acc.computeIfAbsent(groupKey(f), k -> new long[causes + 1])[causes] += ms;
            }
        }
        return acc;
    }

    @Override
    public PoolRate poolRate(Collection<String> pools, CapacityType capacity) {
        int days = reliabilitySettings.adviceWindowDays();
        long now = settings.clock().millis();
        long today = Math.floorDiv(now, ReliabilityLedger.DAY_MILLIS);
        long from = (today - days + 1) * ReliabilityLedger.DAY_MILLIS;
        String cap = capacity == null ? null : capacity.wireName();
        long ms = 0;
        long k = 0;
        for (Map.Entry<GroupKey, long[]> e :
                window(today - days + 1, today, from, now).entrySet()) {
            GroupKey key = e.getKey();
            if (pools.contains(key.pool()) && (cap == null || cap.equals(key.capacityType()))) {
                GroupExposure g = ReliabilityLedger.exposure(key, e.getValue());
                ms += g.nodeMillis();
                k += g.count(null);
            }
        }
        return new PoolRate(List.copyOf(pools), ms / 1000.0, k, days);
    }

    /** Groups of facts the reliability ledger had no room for, since start. */
    public long reliabilityGroupsDropped() {
        return ledger.dropped();
    }

    /**
     * Marks a node as being drained (called by the drain action, never by an event). Repeating it is
     * {@link TransitionOutcome#UNCHANGED}; a terminated or unknown node cannot be drained.
     */
    public TransitionOutcome markDraining(String node, Instant at) {
        NodeState n = nodes.get(node);
        if (n == null) {
            return TransitionOutcome.UNKNOWN_NODE;
        }
        n.version = ++changes;
        return n.transition(NodeLifecycle.DRAINING, at.toEpochMilli());
    }

    /** Nodes passing {@code query}, by name. */
    public List<NodeSummary> nodes(NodeQuery query) {
        List<NodeSummary> out = new ArrayList<>();
        for (NodeState n : byName.values()) {
            NodeSummary s = views.summary(n);
            if (query.matches(s)) {
                out.add(s);
            }
        }
        return out;
    }

    /** Everything about one node, or empty when it is unknown. */
    public Optional<NodeDetail> node(String name) {
        NodeState n = nodes.get(name);
        if (n == null) {
            return Optional.empty();
        }
        return Optional.of(views.detail(n));
    }

    /** Every GPU, by node and index. */
    public List<GpuView> gpus() {
        List<GpuView> out = gpusUnordered();
        out.sort(Comparator.comparing(GpuView::node).thenComparingInt(GpuView::index));
        return out;
    }

    /**
     * One page of GPU views in the order of {@link #gpus()} (node name, then index), for the read API on the model's
     * thread: it walks the nodes in name order (an index kept on add and remove, never a sort per request) and makes
     * views only for the page (for every GPU of the accepted nodes only when {@code health} asks for each one's
     * verdict), so a page costs one look at each node instead of a view and a sort of every GPU.
     *
     * @param node   which nodes' GPUs count, by node name
     * @param health only GPUs with this verdict, or null for all
     * @param offset how many matching GPUs to skip
     * @param limit  how many to return at most
     */
    public GpuPage gpuPage(java.util.function.Predicate<String> node, GpuHealth health, int offset, int limit) {
        List<GpuView> items = new ArrayList<>(Math.min(limit, 1024));
        List<GpuView> one = new ArrayList<>(8);
        int total = 0;
        for (NodeState n : byName.values()) {
            if (!node.test(n.name)) {
                continue;
            }
            if (health == null && (total + gpuCount(n) <= offset || items.size() >= limit)) {
                total += gpuCount(n);
                continue;
            }
            one.clear();
            views.addGpus(n, one);
            for (GpuView g : one) {
                if (health != null && g.health() != health) {
                    continue;
                }
                if (total >= offset && items.size() < limit) {
                    items.add(g);
                }
                total++;
            }
        }
        return new GpuPage(List.copyOf(items), total);
    }

    /**
     * A page of {@link #gpuPage}.
     *
     * @param items the page's GPU views
     * @param total how many GPUs match in all
     */
    public record GpuPage(List<GpuView> items, int total) {}

    private static int gpuCount(NodeState n) {
        int c = 0;
        for (GpuState g : n.gpus) {
            if (g != null) {
                c++;
            }
        }
        return c;
    }

    /** Every GPU's view in no particular order: for callers that group them themselves, off the model's thread. */
    public List<GpuView> gpusUnordered() {
        List<GpuView> out = new ArrayList<>(nodes.size() * 8);
        for (NodeState n : nodes.values()) {
            views.addGpus(n, out);
        }
        return out;
    }

    /** GPU verdict counts per node pool (GPUs of terminated nodes excluded), by pool; unregistered nodes last. */
    public List<PoolGpuHealth> gpuHealthByPool() {
        return gpuHealthByPool(name -> true);
    }

    /** GPU verdict counts per node pool as {@link #gpuHealthByPool()}, over the nodes {@code visible} accepts by name. */
    public List<PoolGpuHealth> gpuHealthByPool(java.util.function.Predicate<String> visible) {
        Map<String, int[]> counts = new HashMap<>();
        for (NodeState n : nodes.values()) {
            if (n.state == NodeLifecycle.TERMINATED || !visible.test(n.name)) {
                continue;
            }
            NodeInfo f = n.facts();
            int[] c = counts.computeIfAbsent(f == null ? null : f.pool(), p -> new int[GpuHealth.values().length]);
            for (GpuState g : n.gpus) {
                if (g != null) {
                    c[g.health().ordinal()]++;
                }
            }
        }
        return FleetSnapshot.byPool(counts);
    }

    /**
     * Nodes with a pending interruption notice whose deadline has not passed (the nodes at risk), soonest deadline
     * first (unknown deadlines last).
     */
    public List<NodeNotice> nodesWithActiveNotice() {
        List<NodeNotice> out = new ArrayList<>();
        long now = settings.clock().millis();
        for (NodeState n : nodes.values()) {
            if (n.noticeAtRisk(now)) {
                out.add(views.nodeNotice(n, now));
            }
        }
        out.sort(FleetSnapshot.SOONEST_DEADLINE);
        return out;
    }

    /** The node's lifecycle state now; null when the node is unknown (never seen, or dropped from history). */
    public NodeLifecycle lifecycle(String node) {
        NodeState n = nodes.get(node);
        if (n == null) {
            return null;
        }
        return n.state;
    }

    /**
     * The capacity types of the pool's live nodes. The index is rebuilt, one look at each node, when the facts changed
     * since it was built ({@link #factsVersion}), however many jobs ask: not for telemetry.
     */
    @Override
    public Set<CapacityType> capacityTypesIn(String pool) {
        poolIndex();
        return capacityIndex.getOrDefault(pool, Set.of());
    }

    /**
     * The pool's live (registered, not terminated) nodes: what the automation brake's share of a pool is of. From the
     * same index as {@link #capacityTypesIn}, so a storm of decisions costs no scan of the fleet each.
     */
    public int liveNodesIn(String pool) {
        poolIndex();
        return liveIndex.getOrDefault(pool, 0);
    }

    private void poolIndex() {
        if (capacityIndexAt != factsVersion || capacityIndex == null) {
            Map<String, Set<CapacityType>> index = new HashMap<>();
            Map<String, Integer> live = new HashMap<>();
            for (NodeState n : nodes.values()) {
                NodeInfo f = n.facts();
                if (f != null && f.pool() != null && n.state != NodeLifecycle.TERMINATED) {
                    live.merge(f.pool(), 1, Integer::sum);
                    if (f.capacityType() != null) {
                        index.computeIfAbsent(f.pool(), k -> EnumSet.noneOf(CapacityType.class))
                                .add(f.capacityType());
                    }
                }
            }
            index.replaceAll((k, v) -> Collections.unmodifiableSet(v));
            capacityIndex = index;
            liveIndex = live;
            capacityIndexAt = factsVersion;
        }
    }

    @Override
    public long factsVersion() {
        return factsVersion;
    }

    /** The node's registered facts; null when the node is unknown or has not registered yet. */
    @Override
    public NodeInfo find(String node) {
        NodeState n = nodes.get(node);
        return n == null ? null : n.facts();
    }

    /**
     * The whole fleet at this moment, as immutable views. Nodes unchanged since {@code previous} (a snapshot of this
     * fleet) keep the views it holds, so the cost is that of the nodes that changed, plus a look at each node.
     *
     * @param previous  the snapshot taken before, or {@link FleetSnapshot#EMPTY}
     */
    public FleetSnapshot snapshot(FleetSnapshot previous) {
        boolean reuse = previous.takenFrom(this);
        // By slot: what a node held in the previous snapshot is where it is now, found with no look-up by name.
        NodeSnapshot[] out = new NodeSnapshot[slots.size()];
        int rebuilt = 0;
        int size = 0;
        long now = settings.clock().millis();
        for (int i = 0; i < out.length; i++) {
            NodeState n = slots.get(i);
            if (n == null) {
                continue;
            }
            size++;
            NodeSnapshot before = reuse ? previous.inSlot(i) : null;
            // A lemon score counts interruptions within a window that moves with the clock: rebuilt every time.
            // So does a notice's expiry: a node whose notice was at risk and whose deadline has passed since is
            // rebuilt.
            if (before != null
                    && before.version() == n.version
                    && n.lemon == null
                    && before.name().equals(n.name)
                    && !(before.summary().noticeActive() && !n.noticeAtRisk(now))) {
                out[i] = before;
            } else {
                NodeDetail d = views.detail(n);
                out[i] = new NodeSnapshot(FleetViews.summary(d), d, n.version);
                rebuilt++;
            }
        }
        NodeSlots index = reuse ? previous.slotsAt(membership) : null;
        return new FleetSnapshot(this, out, index != null ? index : NodeSlots.of(slots), membership, size, rebuilt);
    }

    /**
     * The whole fleet's state as plain values, for a checkpoint of the model. It shares nothing mutable with the fleet,
     * so it may be encoded on another thread while the fleet goes on.
     */
    public SavedFleet save() {
        List<SavedNode> saved = new ArrayList<>(nodes.size());
        for (NodeState n : nodes.values()) {
            saved.add(n.save());
        }
        List<SavedFleet.Termination> order = new ArrayList<>();
        for (TerminatedNodes.Entry e : terminated.entries()) {
            order.add(new SavedFleet.Termination(e.node().name, e.since()));
        }
        return new SavedFleet(changes, saved, order, ledger.save());
    }

    /**
     * Takes back the state {@link #save()} gave, into this fleet, which must be new (nothing applied yet). The events
     * applied afterwards then give the reads they give the fleet that was saved. Settings are this fleet's own: a
     * smaller lemon capacity or terminated-node history keeps the newest of what was saved.
     *
     * @throws IllegalStateException when this fleet already holds nodes
     */
    public void restore(SavedFleet saved) {
        if (!nodes.isEmpty() || changes != 0) {
            throw new IllegalStateException("a fleet is restored only while it is empty");
        }
        for (SavedNode s : saved.nodes()) {
            add(NodeState.restore(s, strings, settings.lemonCapacity()));
        }
        changes = saved.changes();
        ledger.restore(saved.reliability(), strings);
        for (SavedFleet.Termination t : saved.terminations()) {
            NodeState n = nodes.get(t.node());
            if (n != null) {
                forget(terminated.add(n, t.since()));
            }
        }
    }

    /** When admission failures make a node a suspect, from now on. */
    public void admissionSettings(AdmissionSettings s) {
        this.admission = java.util.Objects.requireNonNull(s, "settings");
    }

    public AdmissionSettings admissionSettings() {
        return admission;
    }

    /**
     * The node's admission failures of its current life within the suspect window ending at {@code at}, and whether
     * they make it a suspect; empty when the node is unknown or none of its pods was ever rejected.
     */
    public Optional<AdmissionSuspect> admissionFailures(String node, Instant at) {
        NodeState n = nodes.get(node);
        if (n == null || n.admissions == null) {
            return Optional.empty();
        }
        return Optional.of(admissionSuspect(n, at.toEpochMilli()));
    }

    /** Every node with an admission failure within the suspect window ending now: suspects first, then by count. */
    public List<AdmissionSuspect> admissionFailures() {
        long now = settings.clock().millis();
        List<AdmissionSuspect> out = new ArrayList<>();
        for (NodeState n : byName.values()) {
            if (n.admissions != null) {
                AdmissionSuspect s = admissionSuspect(n, now);
                if (s.count() > 0) {
                    out.add(s);
                }
            }
        }
        out.sort(Comparator.comparing(AdmissionSuspect::suspect)
                .reversed()
                .thenComparing(Comparator.comparingInt(AdmissionSuspect::count).reversed())
                .thenComparing(AdmissionSuspect::node));
        return out;
    }

    private AdmissionSuspect admissionSuspect(NodeState n, long at) {
        AdmissionSettings s = admission;
        long from = Math.max(at - s.window().toMillis() + 1, n.lifeStart);
        List<AdmissionFailure> in = n.admissions.between(from, at);
        boolean ready = n.state == NodeLifecycle.READY;
        return new AdmissionSuspect(
                n.name,
                n.facts() == null ? null : n.facts().pool(),
                ready && in.size() >= s.threshold(),
                ready,
                in.size(),
                s.threshold(),
                s.window(),
                in.isEmpty() ? null : in.get(0).time(),
                in.isEmpty() ? null : in.get(in.size() - 1).time(),
                n.admissions.total(),
                n.admissions.lastMessage(),
                in);
    }

    /** Admission failures per node on the UTC days {@code fromDay..toDay}, most first; nodes with none are left out. */
    private List<NodeAdmissionFailures> admissionCounts(
            long fromDay, long toDay, java.util.function.Predicate<String> visible) {
        List<NodeAdmissionFailures> out = new ArrayList<>();
        long now = settings.clock().millis();
        for (NodeState n : nodes.values()) {
            if (n.admissions == null || (visible != null && !visible.test(n.name))) {
                continue;
            }
            long count = n.admissions.countDays(fromDay, toDay);
            if (count > 0) {
                long last = n.admissions.newest();
                out.add(new NodeAdmissionFailures(
                        n.name,
                        n.facts() == null ? null : n.facts().pool(),
                        count,
                        last == Long.MIN_VALUE ? null : Instant.ofEpochMilli(last),
                        admissionSuspect(n, now).suspect()));
            }
        }
        out.sort(Comparator.comparingLong(NodeAdmissionFailures::count)
                .reversed()
                .thenComparing(NodeAdmissionFailures::node));
        return out;
    }

    /** The node's newest external health check of its current life, empty when none (or the node is unknown). */
    public Optional<HealthCheck> healthCheck(String node) {
        NodeState n = nodes.get(node);
        if (n == null || n.healthCheckMillis == NodeState.NEVER) {
            return Optional.empty();
        }
        return Optional.of(
                new HealthCheck(Instant.ofEpochMilli(n.healthCheckMillis), n.healthCheckPassed, n.healthCheckDetail));
    }

    /** The GPU thresholds in force. */
    public io.lifeline.domain.gpu.GpuThresholds gpuThresholds() {
        return settings.gpuThresholds();
    }

    /** The XID policy in force (for its version and table). */
    public XidPolicy xidPolicy() {
        return settings.xidPolicy();
    }

    private static boolean isInterruption(NodeSignal.Kind kind) {
        return kind == NodeSignal.Kind.INTERRUPTION_NOTICE
                || kind == NodeSignal.Kind.TERMINATED
                || kind == NodeSignal.Kind.NOT_READY
                || kind == NodeSignal.Kind.GPU_FAILED;
    }

    /** Forgets terminated nodes that fell out of the history, unless they came back since. */
    private void forget(List<TerminatedNodes.Entry> entries) {
        for (TerminatedNodes.Entry entry : entries) {
            NodeState n = entry.node();
            if (n.state == NodeLifecycle.TERMINATED && n.stateSince == entry.since() && nodes.get(n.name) == n) {
                remove(n);
            }
        }
    }

    private void add(NodeState n) {
        nodes.put(n.name, n);
        byName.put(n.name, n);
        n.slot = freeSlots.isEmpty() ? slots.size() : freeSlots.pop();
        if (n.slot == slots.size()) {
            slots.add(n);
        } else {
            slots.set(n.slot, n);
        }
        membership++;
        factsVersion++;
    }

    private void remove(NodeState n) {
        nodes.remove(n.name);
        byName.remove(n.name);
        slots.set(n.slot, null);
        freeSlots.push(n.slot);
        membership++;
        factsVersion++;
    }
}
