package io.lifeline.domain.job.straggler;

import java.time.Instant;
import java.util.List;

/**
 * A job's stragglers now, and what they cost.
 *
 * @param stragglers           ranks persistently slower than their peers, slowest first
 * @param nodes                the nodes they run on, slowest first (a node is what an operator can take away)
 * @param ranksReporting       ranks that reported in the latest window
 * @param medianStepSeconds    the median step time across ranks in the latest window, or null before the first
 * @param evaluatedAt          end of the latest window judged, or null before the first
 * @param windows              windows judged so far
 * @param gpuHoursLost         GPU-hours the job lost to stragglers since it started: it runs at its slowest rank's
 *                             pace, so each straggling window costs (slow − median) / slow × the job's GPUs × its
 *                             length
 * @param suggestion           what an operator may start, or null when there is no straggler
 */
public record StragglerView(
        List<Straggler> stragglers,
        List<String> nodes,
        int ranksReporting,
        Double medianStepSeconds,
        Instant evaluatedAt,
        long windows,
        double gpuHoursLost,
        SuggestedDrain suggestion) {

    /** A job no rank reported step times for. */
    public static final StragglerView NONE = new StragglerView(List.of(), List.of(), 0, null, null, 0, 0, null);

    public StragglerView {
        stragglers = List.copyOf(stragglers);
        nodes = List.copyOf(nodes);
    }

    /** The same view offering {@code drain}. */
    public StragglerView withSuggestion(SuggestedDrain drain) {
        return new StragglerView(
                stragglers, nodes, ranksReporting, medianStepSeconds, evaluatedAt, windows, gpuHoursLost, drain);
    }
}
