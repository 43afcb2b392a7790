package io.lifeline.domain.job.recoverytime;

import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.job.incident.PhaseSplit;
import io.lifeline.domain.job.incident.RecoveryPhase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Gathers the interruptions of a window and gives their {@link RecoveryPhaseReport}. Each interruption is added once
 * with its cause, pool, stop time and {@link PhaseSplit}; those that stopped before the window are left out. Memory
 * and time grow with the interruptions added (one split kept per interruption until the report sorts them).
 */
public final class RecoveryPhaseCalculator {

    private static final double MILLIS_PER_SECOND = 1000.0;
    private static final double GPU_MILLIS_PER_HOUR = 3_600_000.0;
    private static final RecoveryPhase[] PHASES = RecoveryPhase.values();

    private final Instant from;
    private final Instant to;
    private final int windowDays;
    private final PhaseGroupBy by;
    private final Group all = new Group(RecoveryPhaseReport.ALL, null, null);
    private final Map<String, Group> groups = new TreeMap<>();

    /** A calculator of the {@code windowDays} days up to {@code to}, grouping rows {@code by}. */
    public RecoveryPhaseCalculator(Instant to, int windowDays, PhaseGroupBy by) {
        if (windowDays <= 0) {
            throw new IllegalArgumentException("windowDays must be positive, got " + windowDays);
        }
        this.to = to;
        this.windowDays = windowDays;
        this.from = to.minus(Duration.ofDays(windowDays));
        this.by = by;
    }

    /**
     * Counts one closed interruption.
     *
     * @param cause      its cause
     * @param pool       the pool it is attributed to, or null when unknown
     * @param stoppedAt  when training stopped; outside the window, the interruption is not counted
     * @param split      its cost by phase
     */
    public void add(IncidentCause cause, String pool, Instant stoppedAt, PhaseSplit split) {
        if (stoppedAt == null || stoppedAt.isBefore(from) || stoppedAt.isAfter(to)) {
            return;
        }
        String p = pool == null || pool.isBlank() ? PhaseGroupBy.UNKNOWN_POOL : pool;
        String key = by.group(cause, p);
        all.splits.add(split);
        groups.computeIfAbsent(
                        key,
                        k -> new Group(k, by == PhaseGroupBy.POOL ? null : cause, by == PhaseGroupBy.CAUSE ? null : p))
                .splits
                .add(split);
    }

    /** The report of what was added. */
    public RecoveryPhaseReport report() {
        List<RecoveryPhaseRow> rows = new ArrayList<>(groups.size());
        for (Group g : groups.values()) {
            rows.add(g.row());
        }
        rows.sort(
                Comparator.comparingInt(RecoveryPhaseRow::incidents).reversed().thenComparing(RecoveryPhaseRow::group));
        return new RecoveryPhaseReport(from, to, windowDays, by, all.row(), rows);
    }

    private static final class Group {
        final String name;
        final IncidentCause cause;
        final String pool;
        final List<PhaseSplit> splits = new ArrayList<>();

        Group(String name, IncidentCause cause, String pool) {
            this.name = name;
            this.cause = cause;
            this.pool = pool;
        }

        RecoveryPhaseRow row() {
            List<PhaseStats> stats = new ArrayList<>(PHASES.length);
            for (RecoveryPhase p : PHASES) {
                stats.add(stats(p));
            }
            return new RecoveryPhaseRow(name, cause, pool, splits.size(), stats);
        }

        private PhaseStats stats(RecoveryPhase p) {
            int n = splits.size();
            long[] ms = new long[n];
            long total = 0;
            long gpu = 0;
            for (int i = 0; i < n; i++) {
                ms[i] = splits.get(i).millis(p);
                total += ms[i];
                gpu += splits.get(i).gpuMillis(p);
            }
            if (n == 0) {
                return new PhaseStats(p, null, null, null, 0, 0);
            }
            Arrays.sort(ms);
            return new PhaseStats(
                    p,
                    seconds(Percentiles.nearestRank(ms, 0.5)),
                    seconds(Percentiles.nearestRank(ms, 0.9)),
                    seconds(ms[n - 1]),
                    seconds(total),
                    gpu / GPU_MILLIS_PER_HOUR);
        }

        private static double seconds(long ms) {
            return ms / MILLIS_PER_SECOND;
        }
    }
}
