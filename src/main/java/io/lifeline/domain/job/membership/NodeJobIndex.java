package io.lifeline.domain.job.membership;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which jobs have ranks on which node, kept incrementally as memberships change, so a node signal finds
 * its jobs without scanning all jobs.
 */
public final class NodeJobIndex {

    private final Map<String, Set<String>> jobsByNode = new HashMap<>();
    /** The last {@link #all()} given, until a job moves: the model's snapshot asks for it every second. */
    private Map<String, List<String>> all;

    /** Replaces the nodes indexed for a job: removes it from {@code before}, adds it to {@code after}. */
    public void move(String job, Collection<String> before, Collection<String> after) {
        for (String node : before) {
            if (!after.contains(node)) {
                remove(job, node);
            }
        }
        for (String node : after) {
            if (jobsByNode.computeIfAbsent(node, n -> new TreeSet<>()).add(job)) {
                all = null;
            }
        }
    }

    private void remove(String job, String node) {
        Set<String> jobs = jobsByNode.get(node);
        if (jobs != null && jobs.remove(job)) {
            all = null;
            if (jobs.isEmpty()) {
                jobsByNode.remove(node);
            }
        }
    }

    /** Every node that hosts ranks, with its jobs sorted by name (immutable; the same map while no job moved). */
    public Map<String, List<String>> all() {
        Map<String, List<String>> out = all;
        if (out == null) {
            Map<String, List<String>> copy = new HashMap<>(jobsByNode.size() * 4 / 3 + 1);
            jobsByNode.forEach((node, jobs) -> copy.put(node, List.copyOf(jobs)));
            out = Map.copyOf(copy);
            all = out;
        }
        return out;
    }

    /** The jobs with ranks on the node, sorted by name (a copy, safe to iterate while applying). */
    public List<String> jobsOn(String node) {
        Set<String> jobs = jobsByNode.get(node);
        return jobs == null ? List.of() : List.copyOf(jobs);
    }
}
