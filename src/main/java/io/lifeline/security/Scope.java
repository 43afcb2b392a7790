package io.lifeline.security;

import io.lifeline.domain.fleet.NodeDetail;
import io.lifeline.domain.gpu.GpuView;
import io.lifeline.security.identity.Caller;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * What a caller may see: the one rule every read applies, derived from the {@link Caller}. A fleet-wide caller sees
 * everything; a caller limited to namespaces sees the jobs of those namespaces and whatever belongs to them
 * (incidents, checkpoints, events, actions, audit entries, alerts), and of the fleet-wide things (nodes, GPUs, fleet
 * health) only the nodes that host ranks of its jobs ({@link #nodesUsed}). An anonymous caller sees nothing.
 *
 * <p>Reads apply it as a filter before they page, so totals and pages count only what the caller may see; a job
 * outside the scope is answered as unknown (404), never as forbidden, so that its existence is not revealed.
 */
public final class Scope {

    private static final Scope EVERYTHING = new Scope(true, Set.of());
    private static final Scope NOTHING = new Scope(false, Set.of());

    private final boolean everything;
    private final Set<String> namespaces;

    private Scope(boolean everything, Set<String> namespaces) {
        this.everything = everything;
        this.namespaces = namespaces;
    }

    /** The scope of {@code caller}: everything for a fleet-wide caller, its namespaces, or nothing when anonymous. */
    public static Scope of(Caller caller) {
        if (caller == null || !caller.isAuthenticated()) {
            return NOTHING;
        }
        // A token bound to nodes or sources is a node agent's or a connector's: it sees no job (no agent's commands).
        if (caller.isBound()) {
            return NOTHING;
        }
        return caller.isFleetWide() ? EVERYTHING : new Scope(false, caller.namespaces());
    }

    /** Everything, fleet-wide. */
    public static Scope everything() {
        return EVERYTHING;
    }

    /** Only the jobs of {@code namespaces} (none at all when it is empty). */
    public static Scope namespaces(Collection<String> namespaces) {
        return new Scope(false, Set.copyOf(new TreeSet<>(namespaces)));
    }

    /** True for a fleet-wide scope: nothing is filtered. */
    public boolean isEverything() {
        return everything;
    }

    /** The namespaces seen, sorted; meaningless (empty) when {@link #isEverything()}. */
    public Set<String> namespaces() {
        return new TreeSet<>(namespaces);
    }

    /** May namespace {@code ns} be seen? */
    public boolean allowsNamespace(String ns) {
        return everything || (ns != null && namespaces.contains(ns));
    }

    /** May the job {@code job} ({@code namespace/name}) be seen? */
    public boolean allowsJob(String job) {
        if (everything) {
            return true;
        }
        int slash = job == null ? -1 : job.indexOf('/');
        return slash > 0 && namespaces.contains(job.substring(0, slash));
    }

    /** {@link #allowsNamespace} as a predicate, for model reads that filter before they page. */
    public Predicate<String> namespaceFilter() {
        return this::allowsNamespace;
    }

    /** {@link #allowsJob} as a predicate over job keys ({@code namespace/name}). */
    public Predicate<String> jobFilter() {
        return this::allowsJob;
    }

    /**
     * The nodes a scoped caller may see, from the model's index of which jobs have ranks on which node: those
     * hosting at least one rank of a job in scope. Null when {@link #isEverything()} (every node).
     */
    public Set<String> nodesUsed(Map<String, List<String>> jobsByNode) {
        if (everything) {
            return null;
        }
        Set<String> out = new TreeSet<>();
        jobsByNode.forEach((node, jobs) -> {
            if (jobs.stream().anyMatch(this::allowsJob)) {
                out.add(node);
            }
        });
        return out;
    }

    /** A predicate over node names: every node, or those in {@code nodesUsed} (as {@link #nodesUsed} gave). */
    public static Predicate<String> nodeFilter(Set<String> nodesUsed) {
        return nodesUsed == null ? n -> true : n -> n != null && nodesUsed.contains(n);
    }

    /**
     * May a thing aimed at {@code target} be seen: a job ({@code namespace/name}) in scope, or a node (a name without
     * {@code /}) among {@code nodesUsed}. Actions and their audit entries are aimed this way.
     */
    public boolean allowsTarget(String target, Set<String> nodesUsed) {
        if (everything) {
            return true;
        }
        if (target == null) {
            return false;
        }
        return target.indexOf('/') >= 0 ? allowsJob(target) : nodesUsed != null && nodesUsed.contains(target);
    }

    /** Of {@code jobs} ({@code namespace/name}), those in scope: what "jobs on this node" shows of a shared node. */
    public List<String> visibleJobs(List<String> jobs) {
        return everything ? jobs : jobs.stream().filter(this::allowsJob).toList();
    }

    /**
     * The GPU as this scope may see it: without the pod and namespace using it when that namespace is not in scope
     * (on a node shared with another team, its GPUs are shown, but not who uses them).
     */
    public GpuView visible(GpuView g) {
        if (g.namespace() == null || allowsNamespace(g.namespace())) {
            return g;
        }
        return new GpuView(
                g.node(),
                g.uuid(),
                g.index(),
                g.model(),
                g.sampledAt(),
                g.utilizationPercent(),
                g.memoryUsedMiB(),
                g.memoryFreeMiB(),
                g.temperatureCelsius(),
                g.powerWatts(),
                g.eccSbeVolatile(),
                g.eccDbeVolatile(),
                g.rowRemapFailures(),
                g.nvlinkErrors(),
                g.lastXid(),
                null,
                null,
                g.health(),
                g.reason(),
                g.source(),
                g.device());
    }

    /** The node as this scope may see it: its GPUs as {@link #visible(GpuView)} shows them. */
    public NodeDetail visible(NodeDetail d) {
        if (everything) {
            return d;
        }
        return new NodeDetail(
                d.name(),
                d.facts(),
                d.state(),
                d.stateSince(),
                d.cordoned(),
                d.cordonSince(),
                d.notice(),
                d.noticeActive(),
                d.noticeExpired(),
                d.health(),
                d.gpuCount(),
                d.gpus().stream().map(this::visible).toList(),
                d.xidHistory(),
                d.lemon());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Scope s && s.everything == everything && s.namespaces.equals(namespaces);
    }

    @Override
    public int hashCode() {
        return Objects.hash(everything, namespaces);
    }

    @Override
    public String toString() {
        return everything ? "Scope[everything]" : "Scope" + new TreeSet<>(namespaces);
    }
}
