package io.lifeline.domain.policy.colocation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

class WindowScheduleTest {

    private static final ZoneId PARIS = ZoneId.of("Europe/Paris");
    private static final WindowSchedule.Weekly DAY = new WindowSchedule.Weekly(
            EnumSet.range(DayOfWeek.MONDAY, DayOfWeek.FRIDAY), LocalTime.of(8, 0), LocalTime.of(20, 0), PARIS);

    @Test
    void aWeekdayWindowIsOpenFromEightToEightParisTime() {
        // Wednesday 1 May 2024: Paris is UTC+2.
        assertThat(DAY.isOpen(Instant.parse("2024-05-01T05:59:59Z"))).isFalse();
        assertThat(DAY.openedAt(Instant.parse("2024-05-01T06:00:00Z"))).contains(Instant.parse("2024-05-01T06:00:00Z"));
        assertThat(DAY.isOpen(Instant.parse("2024-05-01T17:59:59Z"))).isTrue();
        assertThat(DAY.isOpen(Instant.parse("2024-05-01T18:00:00Z"))).isFalse();
        assertThat(DAY.nextChange(Instant.parse("2024-05-01T10:00:00Z")))
                .isEqualTo(Instant.parse("2024-05-01T18:00:00Z"));
    }

    @Test
    void theWeekendStaysClosedAndTheNextOpeningIsMonday() {
        Instant saturdayNoon = Instant.parse("2024-05-04T10:00:00Z");
        assertThat(DAY.isOpen(saturdayNoon)).isFalse();
        assertThat(DAY.nextChange(saturdayNoon)).isEqualTo(Instant.parse("2024-05-06T06:00:00Z"));
    }

    @Test
    void winterTimeMovesTheWindowInUtc() {
        // Wednesday 4 December 2024: Paris is UTC+1.
        assertThat(DAY.isOpen(Instant.parse("2024-12-04T06:30:00Z"))).isFalse();
        assertThat(DAY.isOpen(Instant.parse("2024-12-04T07:00:00Z"))).isTrue();
    }

    @Test
    void anOvernightWindowRunsIntoTheNextDayFromTheDayItOpens() {
        WindowSchedule.Weekly night = new WindowSchedule.Weekly(
                EnumSet.of(DayOfWeek.FRIDAY), LocalTime.of(22, 0), LocalTime.of(6, 0), ZoneId.of("UTC"));
        assertThat(night.openedAt(Instant.parse("2024-05-04T05:00:00Z")))
                .as("Saturday 05:00, opened Friday")
                .contains(Instant.parse("2024-05-03T22:00:00Z"));
        assertThat(night.isOpen(Instant.parse("2024-05-04T06:00:00Z"))).isFalse();
        assertThat(night.isOpen(Instant.parse("2024-05-04T23:00:00Z")))
                .as("Saturday night: not a day of it")
                .isFalse();
    }

    @Test
    void aCycleOpensAtItsAnchorForItsOpenTimeEveryPeriod() {
        Instant a = Instant.parse("2024-05-01T10:04:00Z");
        WindowSchedule.Cycle c = new WindowSchedule.Cycle(a, Duration.ofMinutes(12), Duration.ofMinutes(5));
        assertThat(c.isOpen(a.minusSeconds(1))).isFalse();
        assertThat(c.nextChange(a.minusSeconds(60))).isEqualTo(a);
        assertThat(c.openedAt(a.plusSeconds(299))).contains(a);
        assertThat(c.isOpen(a.plusSeconds(300))).isFalse();
        assertThat(c.nextChange(a.plusSeconds(300))).isEqualTo(a.plus(Duration.ofMinutes(12)));
        assertThat(c.openedAt(a.plus(Duration.ofMinutes(13)))).contains(a.plus(Duration.ofMinutes(12)));
    }
}
