package io.lifeline.domain.fleet.reliability;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Turns exposures and counts into rates, MTBF with exact intervals, and lemon nodes (pure, at read time). */
public final class ReliabilityCalculator {

    private static final double MILLIS_PER_HOUR = 3_600_000.0;

    private ReliabilityCalculator() {}

    /**
     * The report of one window.
     *
     * @param groups  every group's exposure and counts within the window
     * @param nodes   the nodes known, with their own exposure and interruptions within the window
     * @param cause   the cause to count, null for all
     */
    public static ReliabilityReport report(
            Instant from,
            Instant to,
            int windowDays,
            List<GroupExposure> groups,
            List<NodeExposure> nodes,
            GroupBy groupBy,
            InterruptionCause cause,
            ReliabilitySettings settings) {
        Map<String, long[]> sums = new TreeMap<>();
        Map<String, Long> exposure = new HashMap<>();
        for (GroupExposure g : groups) {
            String group = groupBy.of(g.key());
            long[] s = sums.computeIfAbsent(group, k -> new long[InterruptionCause.values().length]);
            long[] c = g.counts();
            for (int i = 0; i < c.length; i++) {
                s[i] += c[i];
            }
            exposure.merge(group, g.nodeMillis(), Long::sum);
        }
        List<ReliabilityRow> rows = new ArrayList<>(sums.size());
        for (Map.Entry<String, long[]> e : sums.entrySet()) {
            rows.add(row(e.getKey(), exposure.get(e.getKey()), e.getValue(), cause, settings.confidence()));
        }
        return new ReliabilityReport(
                from,
                to,
                windowDays,
                groupBy,
                cause,
                settings.confidence(),
                rows,
                lemons(groups, nodes, cause, settings));
    }

    /** Group exposures summed from nodes' own: for a reader who may see only these nodes. */
    public static List<GroupExposure> groups(List<NodeExposure> nodes) {
        Map<GroupKey, long[]> acc = new HashMap<>();
        int causes = InterruptionCause.values().length;
        for (NodeExposure n : nodes) {
            long[] a = acc.computeIfAbsent(n.key(), k -> new long[causes + 1]);
            a[causes] += n.nodeMillis();
            for (Interruption i : n.interruptions()) {
                a[i.cause().ordinal()]++;
            }
        }
        List<GroupExposure> out = new ArrayList<>(acc.size());
        acc.forEach((k, a) -> out.add(new GroupExposure(k, a[causes], java.util.Arrays.copyOf(a, causes))));
        return out;
    }

    static ReliabilityRow row(
            String group, long nodeMillis, long[] counts, InterruptionCause cause, double confidence) {
        Map<String, Long> byCause = new TreeMap<>();
        long k = 0;
        for (InterruptionCause c : InterruptionCause.values()) {
            byCause.put(c.wire(), counts[c.ordinal()]);
            if (cause == null || cause == c) {
                k += counts[c.ordinal()];
            }
        }
        double hours = nodeMillis / MILLIS_PER_HOUR;
        if (hours <= 0) {
            return new ReliabilityRow(group, 0, k, byCause, null, null, null, null, null, null);
        }
        double[] ci = Poisson.garwood(k, hours, confidence);
        double rate = k / hours;
        return new ReliabilityRow(
                group,
                hours,
                k,
                byCause,
                rate,
                ci[0],
                ci[1],
                k == 0 ? null : hours / k,
                1 / ci[1],
                k == 0 ? null : 1 / ci[0]);
    }

    private static List<LemonNode> lemons(
            List<GroupExposure> groups,
            List<NodeExposure> nodes,
            InterruptionCause cause,
            ReliabilitySettings settings) {
        Map<String, long[]> pools = new HashMap<>();
        for (GroupExposure g : groups) {
            long[] p = pools.computeIfAbsent(GroupBy.POOL.of(g.key()), k -> new long[2]);
            p[0] += g.nodeMillis();
            p[1] += g.count(cause);
        }
        List<LemonNode> out = new ArrayList<>();
        for (NodeExposure n : nodes) {
            List<Interruption> evidence = n.interruptions().stream()
                    .filter(i -> cause == null || i.cause() == cause)
                    .toList();
            long k = evidence.size();
            if (k < settings.lemonMinInterruptions() || n.nodeMillis() <= 0) {
                continue;
            }
            String pool = GroupBy.POOL.of(n.key());
            long[] p = pools.getOrDefault(pool, new long[2]);
            double restHours = (p[0] - n.nodeMillis()) / MILLIS_PER_HOUR;
            if (restHours <= 0) {
                continue;
            }
            long restK = Math.max(0, p[1] - k);
            // A pool whose other nodes had no interruption is given the upper bound of zero events, so that a new
            // or quiet pool does not make every node with a few interruptions a lemon.
            double rate = restK > 0 ? restK / restHours : Poisson.garwood(0, restHours, settings.confidence())[1];
            double hours = n.nodeMillis() / MILLIS_PER_HOUR;
            double expected = rate * hours;
            double tail = Poisson.upperTail(k, expected);
            if (tail < settings.lemonTailProbability()) {
                out.add(new LemonNode(n.node(), pool, hours, k, rate, expected, tail, evidence));
            }
        }
        out.sort(Comparator.comparingDouble(LemonNode::tailProbability).thenComparing(LemonNode::node));
        return out;
    }
}
