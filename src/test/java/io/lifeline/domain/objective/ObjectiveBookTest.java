package io.lifeline.domain.objective;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.lifeline.domain.job.goodput.Bucket;
import io.lifeline.domain.job.incident.IncidentCause;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ObjectiveBookTest {

    private static final Instant T0 = Instant.parse("2026-11-01T00:00:00Z");
    private static final long HOUR_MS = 3_600_000L;

    /** A job's running totals, as the model would report them, advanced hour by hour. */
    private static final class Job {
        final String name;
        final String namespace;
        final int gpus;
        final Map<Bucket, Long> gpuMillis = new EnumMap<>(Bucket.class);
        final Map<IncidentCause, Double> lost = new EnumMap<>(IncidentCause.class);
        Double price;

        Job(String name, int gpus) {
            this.name = name;
            this.namespace = name.substring(0, name.indexOf('/'));
            this.gpus = gpus;
        }

        void spend(Bucket b, long millis) {
            gpuMillis.merge(b, millis * gpus, Long::sum);
        }

        void incident(IncidentCause c, double gpuHours) {
            lost.merge(c, gpuHours, Double::sum);
        }

        JobSample sample() {
            return new JobSample(name, namespace, "alice", "gpu-p5", gpuMillis, lost, price);
        }
    }

    private static Objective objective(String name, String scope, double target, Duration window, Double lostLimit) {
        return new Objective(name, ObjectiveScope.parse(scope), target, window, lostLimit, null);
    }

    /**
     * A week of incidents worked by hand. One job of 8 GPUs trains 22 hours a day and loses the last two hours of
     * each day to an incident (hour 22 lost rework, hour 23 recovery): a spot reclaim on days 1-3, a GPU fault on
     * days 4-7. Each day: held 24 x 8 = 192 GPU-h, productive 22 x 8 = 176, spent 16.
     *
     * <p>Over the 7 days (target 0.9): held 1,344; productive 1,232; ETTR 1,232 / 1,344 = 0.916667; budget 0.1 x
     * 1,344 = 134.4; spent 112; left 22.4. By cause: spot reclaim 3 x 16 = 48, hardware 4 x 16 = 64. By phase: lost
     * rework 7 x 8 = 56, recovery (restart) 56. Money at 2.00 per GPU-hour: budget 268.8, spent 224, left 44.8.
     *
     * <p>Burn at the end (the last sample covers hour 23 of day 7, all recovery): over 1 h and over 5 min (one sample)
     * and 30 min the error is 1, burn 1 / 0.1 = 10; over 6 h (hours 18-23: 4 productive, 2 lost) 2/6 / 0.1 = 3.33.
     * Neither pair reaches its threshold (14.4, 6): met. Exhaustion: the last hour held 8 and spent 8 GPU-h, the net
     * pace 8 - 0.1 x 8 = 7.2 GPU-h per hour, 22.4 / 7.2 = 3.11 hours.
     *
     * <p>With a loss limit of 100 GPU-hours a week the 112 lost exceed it: exhausted. With 150: 38 left; its burn over
     * the last hour is 8 per hour against 150 / 168 = 0.893 per hour, 8.96, below the ETTR burn of 10 it is maxed with.
     */
    @Test
    void aWeekOfIncidentsWorkedByHand() {
        ObjectiveBook book = new ObjectiveBook();
        book.configure(List.of(
                objective("research", "namespace:research", 0.9, Duration.ofDays(7), null),
                objective("research-loss-100", "namespace:research", 0.9, Duration.ofDays(7), 100.0),
                objective("research-loss-150", "job:research/llm", 0.9, Duration.ofDays(7), 150.0),
                objective("other-team", "namespace:other", 0.9, Duration.ofDays(7), null)));
        Job job = new Job("research/llm", 8);
        job.price = 2.0;
        book.sample(T0, List.of(job.sample()));
        for (int day = 1; day <= 7; day++) {
            for (int hour = 0; hour < 24; hour++) {
                job.spend(
                        hour < 22 ? Bucket.PRODUCTIVE : hour == 22 ? Bucket.LOST_REWORK : Bucket.RECOVERY_RESTART,
                        HOUR_MS);
                if (hour == 23) {
                    job.incident(day <= 3 ? IncidentCause.SPOT_RECLAIM : IncidentCause.GPU_FAULT, 16.0);
                }
                Instant at = T0.plusMillis(((day - 1) * 24L + hour + 1) * HOUR_MS);
                book.sample(at, List.of(job.sample()));
            }
        }
        Instant now = T0.plus(Duration.ofDays(7));

        ObjectiveStatus s = book.status("research", now).orElseThrow();
        assertThat(s.jobs()).isEqualTo(1);
        assertThat(s.jobNames()).containsExactly("research/llm");
        assertThat(s.heldGpuHours()).isCloseTo(1344, within(1e-9));
        assertThat(s.productiveGpuHours()).isCloseTo(1232, within(1e-9));
        assertThat(s.ettr()).isCloseTo(0.916667, within(1e-6));
        assertThat(s.budgetGpuHours()).isCloseTo(134.4, within(1e-9));
        assertThat(s.spentGpuHours()).isCloseTo(112, within(1e-9));
        assertThat(s.remainingGpuHours()).isCloseTo(22.4, within(1e-9));
        assertThat(s.spentByCause())
                .containsOnlyKeys("spot_reclaim", "hardware")
                .containsEntry("spot_reclaim", 48.0)
                .containsEntry("hardware", 64.0);
        assertThat(s.spentByPhase()).containsEntry("lost_rework", 56.0).containsEntry("recovery_restart", 56.0);
        assertThat(s.budgetMoney()).isCloseTo(268.8, within(1e-9));
        assertThat(s.spentMoney()).isCloseTo(224, within(1e-9));
        assertThat(s.remainingMoney()).isCloseTo(44.8, within(1e-9));
        assertThat(s.lostGpuHours()).isCloseTo(112, within(1e-9));
        assertThat(s.burnRates().get("1h")).isCloseTo(10, within(1e-9));
        assertThat(s.burnRates().get("5m")).isCloseTo(10, within(1e-9));
        assertThat(s.burnRates().get("30m")).isCloseTo(10, within(1e-9));
        assertThat(s.burnRates().get("6h")).isCloseTo(3.3333, within(1e-4));
        assertThat(s.fastBurn()).isFalse();
        assertThat(s.slowBurn()).isFalse();
        assertThat(s.state()).isEqualTo(ObjectiveState.MET);
        assertThat(s.hoursToExhaustion()).isCloseTo(3.1111, within(1e-4));

        ObjectiveStatus capped = book.status("research-loss-100", now).orElseThrow();
        assertThat(capped.lostLimitRemainingGpuHours()).isCloseTo(-12, within(1e-9));
        assertThat(capped.state()).isEqualTo(ObjectiveState.EXHAUSTED);
        assertThat(capped.hoursToExhaustion()).isZero();

        ObjectiveStatus loose = book.status("research-loss-150", now).orElseThrow();
        assertThat(loose.lostLimitRemainingGpuHours()).isCloseTo(38, within(1e-9));
        assertThat(loose.burnRates().get("1h")).isCloseTo(10, within(1e-9));
        assertThat(loose.state()).isEqualTo(ObjectiveState.MET);

        assertThat(book.status("other-team", now).orElseThrow().state()).isEqualTo(ObjectiveState.NO_DATA);
        // Exhausted burns: the policies reading the book see the job as burning, at the tightest target it is under.
        assertThat(book.burning("research/llm")).isTrue();
        assertThat(book.ettrTarget("research/llm")).hasValue(0.9);
        assertThat(book.ettrTarget("other/job")).isEmpty();
    }

    /**
     * A fast burn and a slow one on a moved clock, one sample a minute, target 0.95 (1 - 0.95 = 0.05 allowed).
     *
     * <p>Both jobs first train well for three days (hourly samples), so that the bursts burn the budget without
     * spending it: the budget is then 0.05 x 72 h x 8 GPUs = 28.8 GPU-hours at least. Fast: 20 % productive for 70
     * minutes after a good hour: error 0.8, burn 0.8 / 0.05 = 16 over 1 h and 5 min, both at least 14.4; it spends
     * 70/60 h x 0.8 x 8 = 7.5 GPU-hours. Slow: 65 % productive for 8 hours: error 0.35, burn 7 over 6 h and 30 min (at
     * least 6, below 14.4): only the slow pair; it spends 8 x 0.35 x 8 = 22.4 GPU-hours, inside the budget.
     */
    @Test
    void aFastBurnAndASlowBurnOnAMovedClock() {
        ObjectiveBook book = new ObjectiveBook();
        book.configure(List.of(
                objective("fast", "namespace:fast", 0.95, Duration.ofDays(7), null),
                objective("slow", "namespace:slow", 0.95, Duration.ofDays(7), null)));
        Job fast = new Job("fast/llm", 8);
        Job slow = new Job("slow/llm", 8);
        Instant t = T0.minus(Duration.ofDays(3));
        book.sample(t, List.of(fast.sample(), slow.sample()));
        for (int hour = 1; hour <= 72; hour++) {
            fast.spend(Bucket.PRODUCTIVE, HOUR_MS);
            slow.spend(Bucket.PRODUCTIVE, HOUR_MS);
            t = T0.minus(Duration.ofDays(3)).plusMillis(hour * HOUR_MS);
            book.sample(t, List.of(fast.sample(), slow.sample()));
        }
        for (int minute = 1; minute <= 8 * 60; minute++) {
            // Fast: a good first hour, 70 bad minutes, then good again. Slow: 65 % productive throughout.
            boolean fastBad = minute > 60 && minute <= 130;
            fast.spend(Bucket.PRODUCTIVE, fastBad ? 12_000 : 60_000);
            fast.spend(Bucket.RECOVERY_RESTART, fastBad ? 48_000 : 0);
            slow.spend(Bucket.PRODUCTIVE, 39_000);
            slow.spend(Bucket.HANG, 21_000);
            t = T0.plus(Duration.ofMinutes(minute));
            book.sample(t, List.of(fast.sample(), slow.sample()));
            if (minute == 130) {
                ObjectiveStatus f = book.status("fast", t).orElseThrow();
                assertThat(f.burnRates().get("1h")).isCloseTo(16, within(1e-9));
                assertThat(f.burnRates().get("5m")).isCloseTo(16, within(1e-9));
                assertThat(f.fastBurn()).isTrue();
                assertThat(f.state()).isEqualTo(ObjectiveState.BURNING);
                assertThat(book.burning("fast/llm")).isTrue();
                // The slow one's 6 hours still hold four good ones: (130 x 0.35) / 370 = 0.123, burn 2.46.
                ObjectiveStatus sl = book.status("slow", t).orElseThrow();
                assertThat(sl.burnRates().get("6h")).isCloseTo(2.4595, within(1e-4));
                assertThat(sl.slowBurn()).isFalse();
                assertThat(sl.fastBurn()).isFalse();
            }
            if (minute == 136) {
                // Five good minutes: the 5-minute window is clean, so the fast pair stops though the hour is not.
                ObjectiveStatus f = book.status("fast", t).orElseThrow();
                assertThat(f.burnRates().get("5m")).isZero();
                // The hour: 54 bad minutes of 60, 54 x 0.8 / 60 = 0.72, burn 14.4: still at the threshold.
                assertThat(f.burnRates().get("1h")).isCloseTo(14.4, within(1e-9));
                assertThat(f.fastBurn()).isFalse();
            }
        }
        ObjectiveStatus sl = book.status("slow", t).orElseThrow();
        assertThat(sl.burnRates().get("6h")).isCloseTo(7, within(1e-9));
        assertThat(sl.burnRates().get("30m")).isCloseTo(7, within(1e-9));
        assertThat(sl.burnRates().get("1h")).isCloseTo(7, within(1e-9));
        assertThat(sl.slowBurn()).isTrue();
        assertThat(sl.fastBurn()).isFalse();
        assertThat(sl.state()).isEqualTo(ObjectiveState.BURNING);
    }

    @Test
    void aJobCountsFromItsFirstSampleAndANewIncarnationFromZero() {
        ObjectiveBook book = new ObjectiveBook();
        book.configure(List.of(objective("team", "namespace:team", 0.9, Duration.ofDays(7), null)));
        Job job = new Job("team/llm", 4);
        // Weeks of history before the first sample (Lifeline started late): not charged to the first minute.
        job.spend(Bucket.RECOVERY_LOAD, 500 * HOUR_MS);
        book.sample(T0, List.of(job.sample()));
        job.spend(Bucket.PRODUCTIVE, HOUR_MS);
        book.sample(T0.plusMillis(HOUR_MS), List.of(job.sample()));
        ObjectiveStatus s = book.status("team", T0.plusMillis(HOUR_MS)).orElseThrow();
        assertThat(s.heldGpuHours()).isEqualTo(4.0);
        assertThat(s.ettr()).isEqualTo(1.0);

        // The same name again, from nothing: its totals count from zero, not as a negative delta.
        Job again = new Job("team/llm", 4);
        again.spend(Bucket.PRODUCTIVE, HOUR_MS / 2);
        again.spend(Bucket.STARTUP, HOUR_MS / 2);
        book.sample(T0.plusMillis(2 * HOUR_MS), List.of(again.sample()));
        s = book.status("team", T0.plusMillis(2 * HOUR_MS)).orElseThrow();
        assertThat(s.heldGpuHours()).isEqualTo(8.0);
        assertThat(s.productiveGpuHours()).isEqualTo(6.0);
        assertThat(s.spentByCause()).containsEntry("startup", 2.0);

        // A rework moves productive time to lost: the window's productive time goes down, held does not move.
        again.gpuMillis.merge(Bucket.PRODUCTIVE, -HOUR_MS, Long::sum);
        again.gpuMillis.merge(Bucket.LOST_REWORK, HOUR_MS, Long::sum);
        book.sample(T0.plusMillis(2 * HOUR_MS + 60_000), List.of(again.sample()));
        s = book.status("team", T0.plusMillis(2 * HOUR_MS + 60_000)).orElseThrow();
        assertThat(s.heldGpuHours()).isEqualTo(8.0);
        assertThat(s.productiveGpuHours()).isEqualTo(5.0);
        // The counter Prometheus rates never goes down: it waits until training makes the lost hour good again.
        assertThat(s.productiveGpuSecondsTotal()).isEqualTo(6 * 3600.0);

        // Gone from the model: no longer in scope, and no more charged.
        book.sample(T0.plusMillis(3 * HOUR_MS), List.of());
        assertThat(book.status("team", T0.plusMillis(3 * HOUR_MS)).orElseThrow().jobs())
                .isZero();
        assertThat(book.ettrTarget("team/llm")).isEmpty();
    }

    @Test
    void aChangedTargetKeepsTheHistoryAndAChangedScopeStartsAgain() {
        ObjectiveBook book = new ObjectiveBook();
        book.configure(List.of(objective("o", "namespace:a", 0.9, Duration.ofDays(7), null)));
        Job job = new Job("a/llm", 1);
        book.sample(T0, List.of(job.sample()));
        job.spend(Bucket.PRODUCTIVE, HOUR_MS);
        book.sample(T0.plusMillis(HOUR_MS), List.of(job.sample()));
        book.configure(List.of(objective("o", "namespace:a", 0.99, Duration.ofDays(30), null)));
        assertThat(book.status("o", T0.plusMillis(HOUR_MS)).orElseThrow().heldGpuHours())
                .isEqualTo(1.0);
        book.configure(List.of(objective("o", "namespace:b", 0.99, Duration.ofDays(30), null)));
        assertThat(book.status("o", T0.plusMillis(HOUR_MS)).orElseThrow().heldGpuHours())
                .isZero();
    }

    @Test
    void badObjectivesAreRefusedWithTheirReasons() {
        assertThatThrownBy(() -> ObjectiveScope.parse("team-a")).hasMessageContaining("is not kind:value");
        assertThatThrownBy(() -> ObjectiveScope.parse("cluster:x")).hasMessageContaining("not a scope kind");
        assertThatThrownBy(() -> ObjectiveScope.parse("job:llm")).hasMessageContaining("<namespace>/<name>");
        assertThat(Objective.problems("a b", ObjectiveScope.parse("pool:p"), 1.2, Duration.ofDays(90), -1.0, 0.0))
                .hasSize(5)
                .anySatisfy(p -> assertThat(p).startsWith("name:"))
                .anySatisfy(p -> assertThat(p).startsWith("ettrTarget:"))
                .anySatisfy(p -> assertThat(p).startsWith("window:"))
                .anySatisfy(p -> assertThat(p).startsWith("lostGpuHoursLimit:"))
                .anySatisfy(p -> assertThat(p).startsWith("moneyLimit:"));
        assertThat(Objective.parseWindow("7d")).isEqualTo(Duration.ofDays(7));
        assertThat(Objective.parseWindow("12h")).isEqualTo(Duration.ofHours(12));
        assertThat(Objective.parseWindow("P30D")).isEqualTo(Duration.ofDays(30));
        assertThatThrownBy(() -> Objective.parseWindow("a week")).hasMessageContaining("is not a window");
        Objective o = objective("o", "namespace:a", 0.9, Duration.ofDays(7), null);
        ObjectiveBook book = new ObjectiveBook();
        assertThatThrownBy(() -> book.configure(List.of(o, o))).hasMessageContaining("named twice");
    }
}
