package io.lifeline.domain.replay;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** The clock of a replay: it stands where the replay is, moved only forward by the player. */
public final class ReplayClock extends Clock {

    private Instant now;

    public ReplayClock(Instant start) {
        this.now = start;
    }

    /** Moves the clock to {@code t} when that is later. */
    public void advanceTo(Instant t) {
        if (t.isAfter(now)) {
            now = t;
        }
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
