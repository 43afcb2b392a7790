package io.lifeline.domain.objective;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.lifeline.domain.job.goodput.Bucket;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;

/**
 * For random histories (jobs of varying GPU counts, reworks that move productive time back, jobs leaving and
 * returning): in every window, spent plus left is the budget, the budget is the allowed share of what was held, and
 * the minute windows hold exactly the deltas of the samples inside them, summed by brute force.
 */
class BudgetPropertiesTest {

    private static final Instant T0 = Instant.parse("2026-11-01T00:00:00Z");
    private static final List<Duration> WINDOWS = List.of(
            Duration.ofHours(1), Duration.ofHours(3), Duration.ofHours(6), Duration.ofDays(7), Duration.ofDays(30));

    @RepeatedTest(25)
    void spentPlusLeftIsTheBudgetInEveryWindow(RepetitionInfo info) {
        Random r = new Random(20261207L + info.getCurrentRepetition());
        ObjectiveBook book = new ObjectiveBook();
        List<Objective> objectives = new ArrayList<>();
        for (Duration w : WINDOWS) {
            objectives.add(new Objective(
                    "w" + w.toHours(),
                    ObjectiveScope.parse("namespace:p"),
                    0.5 + r.nextDouble() * 0.49,
                    w,
                    null,
                    null));
        }
        book.configure(objectives);
        long[] productive = new long[3];
        long[] other = new long[3];
        List<long[]> deltas = new ArrayList<>(); // minute, held delta, productive delta
        int minutes = 400 + r.nextInt(400);
        for (int m = 0; m <= minutes; m++) {
            List<JobSample> jobs = new ArrayList<>();
            long dHeld = 0;
            long dProd = 0;
            for (int j = 0; j < 3; j++) {
                if (m > 0) {
                    int gpus = 1 + r.nextInt(8);
                    long p = r.nextInt(60_001) * (long) gpus;
                    long o = (60_000L * gpus) - p;
                    long rework = r.nextInt(10) == 0 ? Math.min(productive[j], r.nextInt(600_000)) : 0;
                    productive[j] += p - rework;
                    other[j] += o + rework;
                    dHeld += p + o;
                    dProd += p - rework;
                }
                Map<Bucket, Long> g = new EnumMap<>(Bucket.class);
                g.put(Bucket.PRODUCTIVE, productive[j]);
                g.put(Bucket.LOST_REWORK, other[j]);
                jobs.add(new JobSample("p/job-" + j, "p", null, null, g, Map.of(), null));
            }
            book.sample(T0.plus(Duration.ofMinutes(m)), jobs);
            deltas.add(new long[] {m, dHeld, dProd});
        }
        Instant now = T0.plus(Duration.ofMinutes(minutes));
        for (ObjectiveStatus s : book.statuses(now)) {
            double allowed = 1 - s.objective().ettrTarget();
            assertThat(s.spentGpuHours() + s.remainingGpuHours()).isCloseTo(s.budgetGpuHours(), within(1e-6));
            assertThat(s.budgetGpuHours()).isCloseTo(allowed * s.heldGpuHours(), within(1e-6));
            assertThat(s.spentGpuHours()).isCloseTo(s.heldGpuHours() - s.productiveGpuHours(), within(1e-6));
        }
        // The minute windows against brute force: the samples in (now - w, now], by whole minutes.
        for (Duration w :
                List.of(Duration.ofMinutes(5), Duration.ofMinutes(30), Duration.ofHours(1), Duration.ofHours(6))) {
            long held = 0;
            long prod = 0;
            for (long[] d : deltas) {
                if (d[0] > minutes - w.toMinutes()) {
                    held += d[1];
                    prod += d[2];
                }
            }
            Objective o = objectives.get(0);
            Double burn = Budgets.burnRate(o, seriesOf(book, o.name()).sum(now.toEpochMilli(), w), w, 3_600_000.0);
            double expected = Math.max(0, 1 - (double) prod / held) / (1 - o.ettrTarget());
            assertThat(burn).as("burn over %s", w).isCloseTo(expected, within(1e-9));
        }
    }

    private static WindowSeries seriesOf(ObjectiveBook book, String name) {
        return book.seriesFor(name);
    }
}
