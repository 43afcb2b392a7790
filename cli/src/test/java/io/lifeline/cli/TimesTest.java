package io.lifeline.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class TimesTest {

    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

    @Test
    void agesReadLikeKubectls() {
        assertThat(Times.age(Duration.ofSeconds(42))).isEqualTo("42s");
        assertThat(Times.age(Duration.ofSeconds(330))).isEqualTo("5m30s");
        assertThat(Times.age(Duration.ofMinutes(5))).isEqualTo("5m");
        assertThat(Times.age(Duration.ofMinutes(12).plusSeconds(40))).isEqualTo("12m");
        assertThat(Times.age(Duration.ofMinutes(200))).isEqualTo("3h20m");
        assertThat(Times.age(Duration.ofHours(14))).isEqualTo("14h");
        assertThat(Times.age(Duration.ofHours(75))).isEqualTo("3d3h");
        assertThat(Times.age(Duration.ofDays(12))).isEqualTo("12d");
    }

    @Test
    void relativeByDefaultAbsoluteOnRequest() {
        Times relative = new Times(false, NOW);
        assertThat(relative.format("2026-03-01T11:57:00Z")).isEqualTo("3m ago");
        assertThat(relative.format("2026-03-01T12:00:40.5Z")).isEqualTo("in 40s");
        assertThat(relative.format((String) null)).isEqualTo("-");
        assertThat(relative.format("not a time")).isEqualTo("not a time");
        assertThat(relative.precise("2026-03-01T11:46:58Z")).isEqualTo("13m02s ago");
        Times absolute = new Times(true, NOW);
        assertThat(absolute.format("2026-03-01T11:57:00.123456Z")).isEqualTo("2026-03-01T11:57:00Z");
        assertThat(absolute.format("2026-03-01T13:57:00+01:00")).isEqualTo("2026-03-01T12:57:00Z");
        assertThat(absolute.precise("2026-03-01T11:57:00Z")).isEqualTo("2026-03-01T11:57:00Z");
    }

    @Test
    void durationsAsPeopleTypeThem() {
        assertThat(Times.parseDuration("90")).isEqualTo(Duration.ofSeconds(90));
        assertThat(Times.parseDuration("90s")).isEqualTo(Duration.ofSeconds(90));
        assertThat(Times.parseDuration("5m")).isEqualTo(Duration.ofMinutes(5));
        assertThat(Times.parseDuration("1h30m")).isEqualTo(Duration.ofMinutes(90));
        assertThat(Times.parseDuration("2d")).isEqualTo(Duration.ofDays(2));
        assertThat(Times.parseDuration("PT12H")).isEqualTo(Duration.ofHours(12));
        assertThat(Times.parseDuration("p90d")).isEqualTo(Duration.ofDays(90));
        assertThatThrownBy(() -> Times.parseDuration("soon"))
                .isInstanceOf(CliException.class)
                .hasMessageContaining("not a duration")
                .extracting(e -> ((CliException) e).exitCode())
                .isEqualTo(Exit.USAGE);
        assertThatThrownBy(() -> Times.parseDuration("5x")).isInstanceOf(CliException.class);
    }

    @Test
    void millisAndSeconds() {
        assertThat(Times.millis(null)).isEqualTo("-");
        assertThat(Times.millis(0L)).isEqualTo("0s");
        assertThat(Times.millis(850L)).isEqualTo("850ms");
        assertThat(Times.millis(92_000L)).isEqualTo("1m32s");
        assertThat(Times.seconds(0.25)).isEqualTo("250ms");
        assertThat(Times.seconds(101.4)).isEqualTo("1m41s");
    }
}
