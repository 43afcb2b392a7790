package io.lifeline.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.job.goodput.Bucket;
import io.lifeline.domain.job.goodput.GoodputView;
import io.lifeline.ui.data.EttrHistory;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class EttrHistoryTest {

    private static final Instant T0 = Instant.parse("2026-11-01T00:00:00Z");

    private static GoodputView fleet(long productiveMinutes, long lostMinutes, long waitingMinutes) {
        long[] ms = new long[Bucket.values().length];
        ms[Bucket.PRODUCTIVE.ordinal()] = productiveMinutes * 60_000;
        ms[Bucket.LOST_REWORK.ordinal()] = lostMinutes * 60_000;
        ms[Bucket.WAITING.ordinal()] = waitingMinutes * 60_000;
        return GoodputView.of(ms, new long[Bucket.values().length]);
    }

    @Test
    void theWindowRatioIsTheRatioOfTheDifferences() {
        EttrHistory h = new EttrHistory();
        h.record(T0, fleet(1000, 1000, 0));
        h.record(T0.plus(Duration.ofHours(1)), fleet(1030, 1030, 0));
        // In the last hour: 60 more productive minutes of 60 + 30 held, and waiting is left out.
        GoodputView now = fleet(1090, 1030, 500);
        EttrHistory.Window w = h.window(T0.plus(Duration.ofHours(2)), Duration.ofHours(1), now);
        assertThat(w.ettr()).isEqualTo(60.0 / 60.0);
        EttrHistory.Window day = h.window(T0.plus(Duration.ofHours(2)), Duration.ofDays(1), now);
        assertThat(day.ettr()).isEqualTo(90.0 / 120.0);
        assertThat(day.complete()).isFalse();
        assertThat(day.covered()).isEqualTo(Duration.ofHours(2));
    }

    @Test
    void withoutHistoryItFallsBackToTheAllTimeRatio() {
        EttrHistory h = new EttrHistory();
        GoodputView now = fleet(300, 100, 0);
        EttrHistory.Window w = h.window(T0, Duration.ofDays(7), now);
        assertThat(w.ettr()).isEqualTo(0.75);
        assertThat(w.covered()).isZero();
    }

    @Test
    void samplesCloserThanAMinuteAreSkippedAndTheRingIsBounded() {
        EttrHistory h = new EttrHistory();
        for (int i = 0; i < 8 * 24 * 60; i++) {
            h.record(T0.plus(Duration.ofMinutes(i)), fleet(i, i, 0));
            h.record(T0.plus(Duration.ofMinutes(i)).plusSeconds(10), fleet(i + 1, i, 0));
        }
        Instant end = T0.plus(Duration.ofMinutes(8 * 24 * 60));
        EttrHistory.Window w = h.window(end, Duration.ofDays(7), fleet(8 * 24 * 60, 8 * 24 * 60, 0));
        assertThat(w.complete()).isTrue();
        assertThat(w.ettr()).isEqualTo(0.5);
    }
}
