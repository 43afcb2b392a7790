package io.lifeline.domain.fleet;

import static io.lifeline.domain.fleet.FleetEvents.at;
import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.testing.MovableClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Nodes known only from stray events are forgotten once silent; registered and terminated ones follow their rules. */
class StrayNodesTest {

    private final MovableClock clock = new MovableClock(at(0));
    private final Fleet fleet = new Fleet(FleetSettings.defaults(clock).withStrayNodesForgetAfter(Duration.ofHours(1)));

    @Test
    void aNodeKnownOnlyFromGpuSamplesIsForgottenOnceSilent() {
        fleet.apply(FleetEvents.healthy("ghost", 0).at(at(0)));
        fleet.apply(FleetEvents.registered("live", at(0)));
        assertThat(fleet.size()).isEqualTo(2);
        // Other nodes keep the event time moving.
        for (int minute = 1; minute <= 150; minute++) {
            fleet.apply(FleetEvents.healthy("live", 0).at(at(minute * 60L)));
        }
        assertThat(fleet.lifecycle("ghost")).isNull();
        assertThat(fleet.lifecycle("live")).isEqualTo(NodeLifecycle.REGISTERED);
        assertThat(fleet.size()).isEqualTo(1);
    }

    @Test
    void aStrayThatKeepsReportingIsKeptAndOneThatRegistersIsKeptForGood() {
        fleet.apply(FleetEvents.healthy("reporting", 0).at(at(0)));
        fleet.apply(FleetEvents.healthy("late-registrar", 0).at(at(0)));
        fleet.apply(FleetEvents.registered("late-registrar", at(60)));
        for (int minute = 1; minute <= 300; minute++) {
            fleet.apply(FleetEvents.healthy("reporting", 0).at(at(minute * 60L)));
        }
        assertThat(fleet.node("reporting")).isPresent();
        assertThat(fleet.lifecycle("late-registrar")).isEqualTo(NodeLifecycle.REGISTERED);
    }

    @Test
    void aLateEventForAForgottenTerminatedNodeDoesNotBringItBackForGood() {
        Fleet small = new Fleet(new FleetSettings(
                clock,
                FleetSettings.defaults(clock).xidPolicy(),
                FleetSettings.defaults(clock).gpuThresholds(),
                Duration.ofDays(7),
                8,
                1,
                Duration.ofHours(1)));
        small.apply(FleetEvents.registered("a", at(0)));
        small.apply(FleetEvents.terminated("a", at(10)));
        small.apply(FleetEvents.registered("b", at(20)));
        small.apply(FleetEvents.terminated("b", at(30)));
        assertThat(small.lifecycle("a"))
                .as("fell out of the terminated history")
                .isNull();
        // A sample of "a" delivered late re-creates it, as a stray.
        small.apply(FleetEvents.healthy("a", 0).at(at(5)));
        assertThat(small.lifecycle("a")).isEqualTo(NodeLifecycle.UNKNOWN);
        for (int minute = 1; minute <= 150; minute++) {
            small.apply(FleetEvents.registered("c" + minute, at(minute * 60L)));
        }
        assertThat(small.lifecycle("a")).isNull();
    }

    @Test
    void spotChurnKeepsTheFleetBoundedByLiveNodesAndTheTerminatedHistory() {
        Fleet small = new Fleet(new FleetSettings(
                clock,
                FleetSettings.defaults(clock).xidPolicy(),
                FleetSettings.defaults(clock).gpuThresholds(),
                Duration.ofDays(7),
                8,
                100,
                Duration.ofHours(1)));
        for (int i = 0; i < 5_000; i++) {
            String node = "spot-" + i;
            // Its GPUs report before it registers; then it is reclaimed.
            small.apply(FleetEvents.healthy(node, 0).at(at(i * 10L)));
            small.apply(FleetEvents.registered(node, at(i * 10L + 1)));
            small.apply(FleetEvents.terminated(node, at(i * 10L + 5)));
        }
        assertThat(small.size()).isEqualTo(100);
    }
}
