package io.lifeline.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The one clock tests move by hand: set to an instant or moved by a duration, always in UTC. Safe to read from other
 * threads (the code under test may run its own).
 */
public final class MovableClock extends Clock {

    private final AtomicReference<Instant> now;

    public MovableClock(Instant start) {
        this.now = new AtomicReference<>(start);
    }

    /** Moves the clock to {@code t}, forward or back. */
    public void set(Instant t) {
        now.set(t);
    }

    /** Moves the clock by {@code d}. */
    public void advance(Duration d) {
        now.updateAndGet(t -> t.plus(d));
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        return now.get();
    }
}
