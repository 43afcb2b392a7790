package io.lifeline.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.job.incident.IncidentCause;
import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

class FormatTest {

    @Test
    void durationsUseTheTwoLargestUnits() {
        assertThat(Format.duration(450L)).isEqualTo("450 ms");
        assertThat(Format.duration(45_000L)).isEqualTo("45 s");
        assertThat(Format.duration(725_000L)).isEqualTo("12 min 5 s");
        assertThat(Format.duration(3 * 3_600_000L + 12 * 60_000L)).isEqualTo("3 h 12 min");
        assertThat(Format.duration(52 * 3_600_000L)).isEqualTo("2 d 4 h");
        assertThat(Format.duration(null)).isEqualTo("—");
    }

    @Test
    void gpuHoursKeepAPrecisionThatFitsTheirSize() {
        assertThat(Format.gpuHours(0)).isEqualTo("0 GPU-h");
        assertThat(Format.gpuHours(0.05)).isEqualTo("3 GPU-min");
        assertThat(Format.gpuHours(12.34)).isEqualTo("12.3 GPU-h");
        assertThat(Format.gpuHours(1234.5)).isEqualTo("1,235 GPU-h");
    }

    @Test
    void timesAreShownInTheViewersZone() {
        Instant t = Instant.parse("2026-11-29T13:05:00Z");
        assertThat(Format.time(t, ZoneId.of("UTC"))).isEqualTo("2026-11-29 13:05:00");
        assertThat(Format.time(t, ZoneId.of("Europe/Berlin"))).isEqualTo("2026-11-29 14:05:00");
    }

    @Test
    void ratiosAndWords() {
        assertThat(Format.percent(0.8734)).isEqualTo("87.3 %");
        assertThat(Format.percent(null)).isEqualTo("—");
        assertThat(Format.words(IncidentCause.SPOT_RECLAIM)).isEqualTo("spot reclaim");
        assertThat(Format.bytes(979_252_543_488L)).isEqualTo("912.0 GiB");
    }
}
