package io.lifeline.domain.policy.colocation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class DemandStateTest {

    private static final Instant T = Instant.parse("2024-05-01T10:00:00Z");
    private static final Duration HOLD = Duration.ofMinutes(10);

    private static DemandState read(DemandState s, double v, long minutes) {
        return s.sampled(v, T.plus(Duration.ofMinutes(minutes)), 5, HOLD);
    }

    @Test
    void aboveTheThresholdTriggersAndStaysTriggeredUntilBelowForTheHoldTime() {
        DemandState s = read(DemandState.INITIAL, 3, 0);
        assertThat(s.active()).isFalse();
        s = read(s, 8, 1);
        assertThat(s.active()).isTrue();
        assertThat(s.since()).isEqualTo(T.plus(Duration.ofMinutes(1)));
        s = read(s, 2, 2);
        assertThat(s.active()).as("below for 0 of 10 minutes").isTrue();
        s = read(s, 4, 11);
        assertThat(s.active()).as("below for 9 minutes").isTrue();
        s = read(s, 1, 12);
        assertThat(s.active()).as("below for the whole hold").isFalse();
        assertThat(s.since()).isEqualTo(T.plus(Duration.ofMinutes(12)));
    }

    @Test
    void aSpikeDuringTheHoldStartsItAgain() {
        DemandState s = read(read(DemandState.INITIAL, 9, 0), 1, 1);
        s = read(s, 6, 8);
        s = read(s, 1, 9);
        s = read(s, 1, 12);
        assertThat(s.active()).as("3 minutes below since the spike").isTrue();
        assertThat(read(s, 1, 19).active()).isFalse();
    }

    @Test
    void theThresholdItselfIsNotAbove() {
        assertThat(read(DemandState.INITIAL, 5, 0).active()).isFalse();
    }

    @Test
    void aFailedReadingKeepsTheStateAndSaysWhy() {
        DemandState s = read(DemandState.INITIAL, 9, 0).failed("connection refused", T.plusSeconds(30));
        assertThat(s.active()).isTrue();
        assertThat(s.error()).isEqualTo("connection refused");
        assertThat(read(s, 9, 1).error()).isNull();
    }
}
