package io.lifeline.domain.job.straggler;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Finds the ranks of one job that are persistently slower than their peers, from the step times each rank reports.
 *
 * <p>Reports are grouped into windows of {@link StragglerConfig#window()} by their event time; a report of a later
 * window closes the open one, which is then judged with robust statistics: a rank is slow in a window when its step
 * time is at least {@code minExcess} above the median of its peers (the other ranks) and more than
 * {@code madFactor} × 1.4826 × their median absolute deviation above it. Hysteresis: a rank becomes a straggler
 * after {@code flagAfter} consecutive slow windows and stops being one after {@code clearAfter} consecutive normal
 * (or silent) windows. Each window with a straggler costs the job (slow − median) / slow of its GPUs for the window's
 * length, counted from the start of the streak that made it one. Time is the events' own; memory is bounded by
 * {@code maxRanks}. Not thread-safe: the model thread owns it.
 */
public final class StragglerDetector {

    /** Peers' MAD × this estimates their standard deviation for normally distributed step times. */
    private static final double MAD_TO_SIGMA = 1.4826;
    /** Ranks judged individually per window, the slowest first: stragglers are few. */
    private static final int MAX_CANDIDATES = 32;

    private final StragglerConfig config;
    private final long windowMillis;
    private long openWindow = Long.MIN_VALUE;
    private final Map<Integer, Sample> open = new HashMap<>();
    private final Map<Integer, RankState> ranks = new HashMap<>();
    private int openGpus;
    private double lostGpuSeconds;
    private double pendingGpuSeconds;
    private long windows;
    private int lastReporting;
    private Double lastMedian;
    private Instant evaluatedAt;
    private long ignored;

    public StragglerDetector(StragglerConfig config) {
        this.config = config;
        this.windowMillis = config.window().toMillis();
    }

    /**
     * Takes one rank's report.
     *
     * @param at            the report's event time
     * @param rank          global rank
     * @param localRank     its rank on its node, or null
     * @param reportedNode  the node it says it runs on, or null
     * @param stepSeconds   its median step time since its previous report
     * @param nodeOfRank    the job's membership: the node of a rank, or null when not known
     * @param jobGpus       GPUs the job holds now
     */
    public void report(
            Instant at,
            int rank,
            Integer localRank,
            String reportedNode,
            double stepSeconds,
            IntFunction<String> nodeOfRank,
            int jobGpus) {
        if (rank < 0 || !(stepSeconds > 0) || Double.isInfinite(stepSeconds)) {
            ignored++;
            return;
        }
        long w = Math.floorDiv(at.toEpochMilli(), windowMillis);
        if (w < openWindow) {
            ignored++; // late for a window already judged
            return;
        }
        if (w > openWindow) {
            if (openWindow != Long.MIN_VALUE) {
                close(nodeOfRank, w - openWindow);
            }
            openWindow = w;
        }
        if (!open.containsKey(rank) && open.size() >= config.maxRanks()) {
            ignored++;
            return;
        }
        open.put(rank, new Sample(stepSeconds, localRank, reportedNode));
        openGpus = Math.max(0, jobGpus);
    }

    /** Forgets every rank (a new worker group: ranks are dealt again). The GPU-hours lost so far are kept. */
    public void reset() {
        open.clear();
        ranks.clear();
        pendingGpuSeconds = 0;
        openWindow = Long.MIN_VALUE;
    }

    /** Reports refused: malformed, late for their window, or beyond {@code maxRanks}. */
    public long ignored() {
        return ignored;
    }

    private void close(IntFunction<String> nodeOfRank, long windowsAhead) {
        Instant end = Instant.ofEpochMilli((openWindow + 1) * windowMillis);
        int n = open.size();
        if (n >= 2) {
            judge(end, nodeOfRank);
        }
        // Silence counts as normal: a rank that stopped reporting (or a job that went quiet) is cleared in time.
        for (Iterator<Map.Entry<Integer, RankState>> it = ranks.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Integer, RankState> e = it.next();
            RankState s = e.getValue();
            if (!open.containsKey(e.getKey()) || n < 2) {
                s.normal(config.clearAfter(), windowsAhead);
            }
            if (!s.flagged && s.slowStreak == 0) {
                it.remove();
            }
        }
        if (ranks.values().stream().noneMatch(s -> s.slowStreak > 0)) {
            pendingGpuSeconds = 0;
        }
        evaluatedAt = end;
        windows++;
        lastReporting = n;
        open.clear();
    }

    private void judge(Instant end, IntFunction<String> nodeOfRank) {
        int n = open.size();
        double[] xs = new double[n];
        int i = 0;
        for (Sample s : open.values()) {
            xs[i++] = s.seconds;
        }
        Arrays.sort(xs);
        double median = median(xs, -1);
        lastMedian = median;
        List<Map.Entry<Integer, Sample>> above = new ArrayList<>();
        for (Map.Entry<Integer, Sample> e : open.entrySet()) {
            if (e.getValue().seconds > median) { // judged against its peers below (with two ranks the median is
                // halfway to the slow one)
                above.add(e);
            }
        }
        above.sort(Comparator.comparingDouble((Map.Entry<Integer, Sample> e) -> -e.getValue().seconds));
        java.util.Set<Integer> candidates = new java.util.HashSet<>();
        for (int k = 0; k < Math.min(MAX_CANDIDATES, above.size()); k++) {
            candidates.add(above.get(k).getKey());
        }
        double slowest = 0;
        boolean flaggedSlow = false;
        for (Map.Entry<Integer, Sample> e : open.entrySet()) {
            int rank = e.getKey();
            Sample s = e.getValue();
            double peers = median;
            boolean slow = false;
            if (candidates.contains(rank)) {
                int self = Arrays.binarySearch(xs, s.seconds);
                peers = median(xs, self);
                double mad = peerMad(xs, self, peers);
                slow = s.seconds >= peers * (1 + config.minExcess())
                        && s.seconds - peers > config.madFactor() * MAD_TO_SIGMA * mad;
            }
            RankState st = ranks.get(rank);
            if (st == null) {
                if (!slow) {
                    continue;
                }
                st = new RankState();
                ranks.put(rank, st);
            }
            String node = nodeOfRank == null ? null : nodeOfRank.apply(rank);
            st.node = node != null ? node : s.node;
            st.localRank = s.localRank;
            st.seconds = s.seconds;
            st.peers = peers;
            if (slow) {
                slowest = Math.max(slowest, s.seconds);
                boolean was = st.flagged;
                st.slow(end, config.flagAfter(), windowMillis);
                if (!was && st.flagged) {
                    lostGpuSeconds += pendingGpuSeconds; // the streak that made it a straggler cost this already
                    pendingGpuSeconds = 0;
                }
                flaggedSlow |= st.flagged;
            } else {
                st.normal(config.clearAfter(), 1);
            }
        }
        if (slowest > 0) {
            double cost = (slowest - median) / slowest * openGpus * (windowMillis / 1000.0);
            if (flaggedSlow) {
                lostGpuSeconds += cost;
            } else {
                pendingGpuSeconds += cost;
            }
        }
    }

    /** The median of sorted {@code xs} leaving out index {@code skip} (none when negative). */
    private static double median(double[] xs, int skip) {
        int n = skip >= 0 ? xs.length - 1 : xs.length;
        int lo = (n - 1) / 2;
        int hi = n / 2;
        return (at(xs, lo, skip) + at(xs, hi, skip)) / 2.0;
    }

    private static double at(double[] xs, int k, int skip) {
        return skip >= 0 && k >= skip ? xs[k + 1] : xs[k];
    }

    private static double peerMad(double[] xs, int skip, double center) {
        double[] dev = new double[skip >= 0 ? xs.length - 1 : xs.length];
        int j = 0;
        for (int i = 0; i < xs.length; i++) {
            if (i != skip) {
                dev[j++] = Math.abs(xs[i] - center);
            }
        }
        Arrays.sort(dev);
        return median(dev, -1);
    }

    /** The stragglers now, slowest first. */
    public StragglerView view() {
        List<Straggler> out = new ArrayList<>();
        for (Map.Entry<Integer, RankState> e : ranks.entrySet()) {
            RankState s = e.getValue();
            if (s.flagged) {
                out.add(new Straggler(
                        e.getKey(),
                        s.node,
                        s.localRank,
                        s.localRank,
                        s.seconds,
                        s.peers,
                        s.peers > 0 ? s.seconds / s.peers : 0,
                        s.slowSince,
                        s.flaggedAt,
                        s.slowStreak));
            }
        }
        out.sort(Comparator.comparingDouble(Straggler::slowdown).reversed().thenComparingInt(Straggler::rank));
        LinkedHashSet<String> nodes = new LinkedHashSet<>();
        for (Straggler s : out) {
            if (s.node() != null) {
                nodes.add(s.node());
            }
        }
        return new StragglerView(
                out,
                List.copyOf(nodes),
                lastReporting,
                lastMedian,
                evaluatedAt,
                windows,
                lostGpuSeconds / 3600.0,
                null);
    }

    private record Sample(double seconds, Integer localRank, String node) {}

    /** One rank's streaks. */
    private static final class RankState {
        String node;
        Integer localRank;
        double seconds;
        double peers;
        int slowStreak;
        int normalStreak;
        boolean flagged;
        Instant slowSince;
        Instant flaggedAt;

        void slow(Instant end, int flagAfter, long windowMillis) {
            if (slowStreak == 0) {
                slowSince = end.minusMillis(windowMillis);
            }
            slowStreak++;
            normalStreak = 0;
            if (!flagged && slowStreak >= flagAfter) {
                flagged = true;
                flaggedAt = end;
            }
        }

        void normal(int clearAfter, long windows) {
            slowStreak = 0;
            normalStreak += (int) Math.min(Integer.MAX_VALUE, windows);
            if (flagged && normalStreak >= clearAfter) {
                flagged = false;
                flaggedAt = null;
                slowSince = null;
            }
        }
    }
}
