package io.lifeline.domain.job.straggler;

import io.lifeline.domain.event.ElasticPolicy;

/**
 * The action offered for a straggler: drain its node, which shrinks the elastic job to the nodes that keep pace (the
 * existing {@code drain} action; nothing starts it but an operator, or a policy turned on for it).
 *
 * @param node                 the slowest straggler's node
 * @param reason               why, for the audit
 * @param withinElasticBounds  whether the job keeps at least its minimum node count without that node (otherwise the
 *                             drain stops it until a replacement node joins)
 */
public record SuggestedDrain(String node, String reason, boolean withinElasticBounds) {

    /**
     * The drain for {@code view}'s slowest straggler, or null when it has none or its node is not known.
     *
     * @param activeNodes  the job's nodes now
     */
    public static SuggestedDrain of(String job, StragglerView view, ElasticPolicy elastic, int activeNodes) {
        if (view.stragglers().isEmpty() || view.nodes().isEmpty()) {
            return null;
        }
        Straggler slowest = view.stragglers().get(0);
        String node = view.nodes().get(0);
        int min = elastic == null ? activeNodes : elastic.minNodes();
        String reason = String.format(
                java.util.Locale.ROOT,
                "straggler: rank %d of %s on %s is %.2fx slower than its peers (%.3f s vs %.3f s per step)",
                slowest.rank(),
                job,
                node,
                slowest.slowdown(),
                slowest.stepSeconds(),
                slowest.peerMedianSeconds());
        return new SuggestedDrain(node, reason, activeNodes - 1 >= Math.max(1, min));
    }
}
