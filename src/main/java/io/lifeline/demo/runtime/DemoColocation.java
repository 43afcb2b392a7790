package io.lifeline.demo.runtime;

import io.lifeline.domain.policy.colocation.LendingWindow;
import io.lifeline.domain.policy.colocation.WindowSchedule;
import io.lifeline.policy.ColocationService;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * The demo's day/night co-location window: a day of inference compressed into a short cycle on the on-demand pool,
 * so that the quick start shows it within its first minutes: four minutes after the fleet starts (its jobs train by
 * then), the pool lends its GPUs for five minutes, then trains at full size again, every twelve minutes. The cycle is
 * counted from the start of the fleet's run, which a restart continues.
 */
@ApplicationScoped
public class DemoColocation {

    static final String WINDOW = "demo-day";
    static final String POOL = "ondemand-p4d";
    static final Duration FIRST_OPENS_AFTER = Duration.ofMinutes(4);
    static final Duration EVERY = Duration.ofMinutes(12);
    static final Duration OPEN_FOR = Duration.ofMinutes(5);

    private final ColocationService colocation;
    private final Clock clock;

    DemoColocation(ColocationService colocation, Clock clock) {
        this.colocation = colocation;
        this.clock = clock;
    }

    /**
     * Adds the window, counted from the fleet's start: a run continued after a restart keeps the cycle it had (null:
     * counted from now).
     */
    void install(Instant fleetStart) {
        colocation.addWindow(window(fleetStart == null ? clock.instant() : fleetStart));
    }

    static LendingWindow window(Instant start) {
        return new LendingWindow(
                WINDOW, POOL, new WindowSchedule.Cycle(start.plus(FIRST_OPENS_AFTER), EVERY, OPEN_FOR));
    }
}
