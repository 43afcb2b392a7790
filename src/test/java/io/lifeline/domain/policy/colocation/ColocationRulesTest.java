package io.lifeline.domain.policy.colocation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lifeline.domain.policy.colocation.ColocationRules.RawDemand;
import io.lifeline.domain.policy.colocation.ColocationRules.RawWindow;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.EnumSet;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ColocationRulesTest {

    private static final String P = "lifeline.colocation";

    private static RawWindow weekly(String pool, String days, String from, String to, String zone) {
        return new RawWindow(pool, days, from, to, zone, null, null, null);
    }

    @Test
    void aWeekdayWindowInParisIsParsed() {
        ColocationRules r = ColocationRules.parse(
                Map.of("day", weekly("a100", "mon-fri", "08:00", "20:00", "Europe/Paris")), Map.of(), P);
        assertThat(r.windows()).singleElement().satisfies(w -> {
            assertThat(w.name()).isEqualTo("day");
            assertThat(w.pool()).isEqualTo("a100");
            WindowSchedule.Weekly s = (WindowSchedule.Weekly) w.schedule();
            assertThat(s.days()).isEqualTo(EnumSet.range(DayOfWeek.MONDAY, DayOfWeek.FRIDAY));
            assertThat(s.from()).isEqualTo(LocalTime.of(8, 0));
            assertThat(s.to()).isEqualTo(LocalTime.of(20, 0));
            assertThat(s.zone()).isEqualTo(ZoneId.of("Europe/Paris"));
        });
    }

    @Test
    void dayListsRangesAndNamesAreAllAccepted() {
        assertThat(days("weekdays")).isEqualTo(EnumSet.range(DayOfWeek.MONDAY, DayOfWeek.FRIDAY));
        assertThat(days("sat,sun")).isEqualTo(EnumSet.of(DayOfWeek.SATURDAY, DayOfWeek.SUNDAY));
        assertThat(days("Friday-mon"))
                .isEqualTo(EnumSet.of(DayOfWeek.FRIDAY, DayOfWeek.SATURDAY, DayOfWeek.SUNDAY, DayOfWeek.MONDAY));
        assertThat(days("daily")).hasSize(7);
    }

    private static java.util.Set<DayOfWeek> days(String s) {
        WindowSchedule.Weekly w = (WindowSchedule.Weekly)
                ColocationRules.parse(Map.of("w", weekly("p", s, "08:00", "09:00", "UTC")), Map.of(), P)
                        .windows()
                        .get(0)
                        .schedule();
        return w.days();
    }

    @Test
    void aBadZoneABadTimeAndAnUnknownDayAreEachNamedWithTheirSetting() {
        assertThatThrownBy(() -> ColocationRules.parse(
                        Map.of("day", weekly("a100", "mon-fry", "8h", "25:00", "Europe/Pariss")), Map.of(), P))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lifeline.colocation.windows.day.days: unknown day 'fry'")
                .hasMessageContaining("lifeline.colocation.windows.day.from: '8h' is not a time HH:MM")
                .hasMessageContaining("lifeline.colocation.windows.day.to: '25:00' is not a time HH:MM")
                .hasMessageContaining("lifeline.colocation.windows.day.zone: unknown time zone 'Europe/Pariss'");
    }

    @Test
    void aMissingPoolAnEmptyWindowAndMixedFormsAreRefused() {
        assertThatThrownBy(() -> ColocationRules.parse(
                        Map.of(
                                "a",
                                weekly(null, "mon", "08:00", "08:00", "UTC"),
                                "b",
                                new RawWindow("p", "mon", null, null, null, "10m", null, null)),
                        Map.of(),
                        P))
                .hasMessageContaining("windows.a.pool: required")
                .hasMessageContaining("windows.b: either days/from/to/zone");
        assertThatThrownBy(() ->
                        ColocationRules.parse(Map.of("a", weekly("p", "mon", "08:00", "08:00", "UTC")), Map.of(), P))
                .hasMessageContaining("windows.a: a window from 08:00 to the same time is empty");
    }

    @Test
    void demandTriggersNeedOneSourceAThresholdAndAValidHold() {
        ColocationRules r = ColocationRules.parse(
                Map.of(),
                Map.of(
                        "chat", new RawDemand("a100", "serving/chat", null, "3", "10m"),
                        "queue", new RawDemand("a100", null, "sum(vllm_num_requests_waiting)", "50", null)),
                P);
        assertThat(r.triggers())
                .extracting(DemandTrigger::source)
                .containsExactly(
                        new DemandTrigger.PendingPods("serving", "chat"),
                        new DemandTrigger.PrometheusQuery("sum(vllm_num_requests_waiting)"));
        assertThat(r.triggers().get(0).hold()).isEqualTo(Duration.ofMinutes(10));
        assertThat(r.triggers().get(1).hold()).as("default hold").isEqualTo(Duration.ofMinutes(10));

        assertThatThrownBy(() -> ColocationRules.parse(
                        Map.of(), Map.of("x", new RawDemand("a100", "serving/chat", "up", "three", "soon")), P))
                .hasMessageContaining("demand.x: exactly one of pending-pods")
                .hasMessageContaining("demand.x.threshold: not a number: 'three'")
                .hasMessageContaining("demand.x.hold: 'soon' is not a duration");
    }

    @Test
    void aCycleIsParsed() {
        ColocationRules r = ColocationRules.parse(
                Map.of("demo", new RawWindow("p", null, null, null, null, "12m", "5m", "2026-01-05T08:00:00Z")),
                Map.of(),
                P);
        assertThat(r.windows().get(0).schedule()).isInstanceOf(WindowSchedule.Cycle.class);
        assertThatThrownBy(() -> ColocationRules.parse(
                        Map.of("demo", new RawWindow("p", null, null, null, null, "5m", "12m", "2026-01-05T08:00:00Z")),
                        Map.of(),
                        P))
                .hasMessageContaining("0 < open-for < every");
    }
}
