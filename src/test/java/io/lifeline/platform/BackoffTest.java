package io.lifeline.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class BackoffTest {

    /** A generator that always draws {@code u} from [0, 1). */
    private static RandomGenerator fixed(double u) {
        return new RandomGenerator() {
            @Override
            public long nextLong() {
                return 0;
            }

            @Override
            public double nextDouble() {
                return u;
            }
        };
    }

    @Test
    void doublesFromTheInitialPauseUpToTheMaximum() {
        Backoff b = Backoff.exponentialMillis(50, 5_000);
        assertThat(IntStream.rangeClosed(1, 10).mapToObj(b::delayMillis).toList())
                .isEqualTo(List.of(50L, 100L, 200L, 400L, 800L, 1_600L, 3_200L, 5_000L, 5_000L, 5_000L));
        assertThat(b.delay(0)).isEqualTo(Duration.ofMillis(50));
        assertThat(b.delay(Integer.MAX_VALUE)).isEqualTo(Duration.ofMillis(5_000));
        assertThat(b.next(0)).isEqualTo(Duration.ofMillis(50));
        assertThat(b.next(1)).isEqualTo(Duration.ofMillis(100));
    }

    @Test
    void aMultiplierOfOneKeepsThePauseAndAnotherGrowsByIt() {
        assertThat(Backoff.exponentialMillis(500, 10_000).multiplier(1).delayMillis(7))
                .isEqualTo(500);
        assertThat(Backoff.exponentialMillis(100, 10_000).multiplier(3).delayMillis(3))
                .isEqualTo(900);
        assertThatThrownBy(() -> Backoff.exponentialMillis(1, 2).multiplier(0.5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 1");
    }

    @Test
    void fullJitterDrawsFromZeroToThePauseAndEqualJitterFromHalf() {
        Backoff b = Backoff.exponentialMillis(1_000, 60_000);
        assertThat(b.fullJitter(fixed(0.0)).delayMillis(3)).isEqualTo(4_000);
        assertThat(b.fullJitter(fixed(0.75)).delayMillis(3)).isEqualTo(1_000);
        assertThat(b.equalJitter(fixed(0.0)).delayMillis(3)).isEqualTo(4_000);
        assertThat(b.equalJitter(fixed(0.999_999)).delayMillis(3)).isEqualTo(2_000);
        assertThat(b.jitter(0.1, fixed(0.5)).delayMillis(1)).isEqualTo(950);
        RandomGenerator r = new SplittableRandom(7);
        Backoff equal = b.equalJitter(r);
        assertThat(IntStream.range(0, 1_000).mapToObj(i -> equal.delay(2)))
                .allSatisfy(d -> assertThat(d).isBetween(Duration.ofMillis(1_000), Duration.ofMillis(2_000)));
    }

    @Test
    void aServersRetryAfterIsHonouredButNeverPastTheMaximum() {
        Backoff b = Backoff.exponential(Duration.ofSeconds(1), Duration.ofSeconds(30));
        assertThat(b.delay(1, null)).isEqualTo(Duration.ofSeconds(1));
        assertThat(b.delay(1, Duration.ofSeconds(12))).isEqualTo(Duration.ofSeconds(12));
        assertThat(b.delay(4, Duration.ofSeconds(2))).isEqualTo(Duration.ofSeconds(8));
        assertThat(b.delay(1, Duration.ofHours(3))).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void readsRetryAfterAsSecondsOrAnHttpDate() {
        Instant now = Instant.parse("2026-12-06T10:00:00Z");
        assertThat(Backoff.retryAfter("120", now)).isEqualTo(Duration.ofSeconds(120));
        assertThat(Backoff.retryAfter(" 0 ", now)).isEqualTo(Duration.ZERO);
        assertThat(Backoff.retryAfter("Sun, 06 Dec 2026 10:01:30 GMT", now)).isEqualTo(Duration.ofSeconds(90));
        assertThat(Backoff.retryAfter("Sun, 06 Dec 2026 09:00:00 GMT", now)).isEqualTo(Duration.ZERO);
        assertThat(Backoff.retryAfter(null, now)).isNull();
        assertThat(Backoff.retryAfter("soon", now)).isNull();
        assertThat(Backoff.retryAfter("-5", now)).isNull();
        assertThat(Backoff.retryAfter("99999999999999999999", now)).isNull();
    }

    @Test
    void settingsFromConfigurationNeverMakeABusyLoopOrAWaitLongerThanTheMaximum() {
        assertThat(Backoff.fromSettings(Duration.ZERO, Duration.ofSeconds(5)).delay(1))
                .isEqualTo(Duration.ofMillis(1));
        assertThat(Backoff.fromSettings(Duration.ofMinutes(1), Duration.ofSeconds(30))
                        .delay(1))
                .isEqualTo(Duration.ofSeconds(30));
        assertThat(Backoff.fromSettings(Duration.ofMillis(500), Duration.ofSeconds(10))
                        .delay(3))
                .isEqualTo(Duration.ofSeconds(2));
        assertThatThrownBy(() -> Backoff.exponential(Duration.ZERO, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("positive");
        assertThatThrownBy(() -> Backoff.exponential(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("shorter");
    }
}
