package io.lifeline.domain.fleet;

import static io.lifeline.domain.fleet.FleetEvents.at;
import static io.lifeline.domain.fleet.FleetEvents.cordoned;
import static io.lifeline.domain.fleet.FleetEvents.healthy;
import static io.lifeline.domain.fleet.FleetEvents.notReady;
import static io.lifeline.domain.fleet.FleetEvents.notice;
import static io.lifeline.domain.fleet.FleetEvents.ready;
import static io.lifeline.domain.fleet.FleetEvents.registered;
import static io.lifeline.domain.fleet.FleetEvents.terminated;
import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.NoticeKind;
import io.lifeline.testing.MovableClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Interruptions per node in a sliding window, in bounded memory. */
class LemonScoreTest {

    private static final String N = "ip-10-0-7-17";
    private static final long DAY = 86_400;

    private final MovableClock clock = new MovableClock(at(0));

    private int score(Fleet fleet) {
        return fleet.node(N).orElseThrow().lemon().interruptions();
    }

    @Test
    void countsNoticesTerminationsNotReadyEpisodesAndGpuFailures() {
        Fleet fleet = new Fleet(clock);
        fleet.apply(registered(N, at(0)));
        fleet.apply(ready(N, at(10)));
        fleet.apply(cordoned(N, at(15)));
        fleet.apply(notReady(N, at(20)));
        fleet.apply(ready(N, at(30)));
        fleet.apply(healthy(N, 0).dbe(1L).at(at(40)));
        fleet.apply(notice(N, at(50), NoticeKind.SPOT_RECLAIM, at(170)));
        fleet.apply(terminated(N, at(170)));
        clock.set(at(200));
        LemonScore lemon = fleet.node(N).orElseThrow().lemon();
        assertThat(lemon.interruptions()).isEqualTo(4);
        assertThat(lemon.window()).isEqualTo(Duration.ofDays(7));
        assertThat(lemon.lastInterruption()).isEqualTo(at(170));
        assertThat(fleet.nodes(NodeQuery.all()).get(0).lemonScore()).isEqualTo(4);
    }

    @Test
    void interruptionsSlideOutOfTheWindow() {
        Fleet fleet = new Fleet(clock);
        fleet.apply(registered(N, at(0)));
        for (int day = 0; day < 10; day++) {
            fleet.apply(ready(N, at(day * DAY + 100)));
            fleet.apply(notReady(N, at(day * DAY + 200)));
        }
        clock.set(at(10 * DAY));
        assertThat(score(fleet)).isEqualTo(7);
        clock.set(at(20 * DAY));
        assertThat(score(fleet)).isZero();
        assertThat(fleet.node(N).orElseThrow().lemon().lastInterruption()).isEqualTo(at(9 * DAY + 200));
    }

    @Test
    void windowIsConfigurable() {
        Fleet fleet = new Fleet(FleetSettings.defaults(clock).withLemonWindow(Duration.ofDays(1)));
        fleet.apply(registered(N, at(0)));
        fleet.apply(notReady(N, at(100)));
        fleet.apply(ready(N, at(DAY)));
        fleet.apply(notReady(N, at(DAY + 100)));
        clock.set(at(DAY + 200));
        assertThat(score(fleet)).isEqualTo(1);
        assertThat(fleet.node(N).orElseThrow().lemon().window()).isEqualTo(Duration.ofDays(1));
    }

    @Test
    void memoryIsBoundedAndTheScoreSaturatesAtTheRingCapacity() {
        FleetSettings d = FleetSettings.defaults(clock);
        Fleet fleet = new Fleet(new FleetSettings(clock, d.xidPolicy(), d.gpuThresholds(), d.lemonWindow(), 5, 100));
        fleet.apply(registered(N, at(0)));
        for (int i = 1; i <= 20; i++) {
            fleet.apply(notReady(N, at(i * 60L)));
            fleet.apply(ready(N, at(i * 60L + 30)));
        }
        clock.set(at(3600));
        assertThat(score(fleet)).isEqualTo(5);
        assertThat(fleet.node(N).orElseThrow().lemon().lastInterruption()).isEqualTo(at(1200));
    }

    @Test
    void nodeWithoutInterruptionsScoresZero() {
        Fleet fleet = new Fleet(clock);
        fleet.apply(registered(N, at(0)));
        LemonScore lemon = fleet.node(N).orElseThrow().lemon();
        assertThat(lemon.interruptions()).isZero();
        assertThat(lemon.lastInterruption()).isNull();
    }
}
