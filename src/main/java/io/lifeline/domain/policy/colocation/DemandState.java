package io.lifeline.domain.policy.colocation;

import java.time.Duration;
import java.time.Instant;

/**
 * Where a demand trigger stands: whether it lends now, since when, and its last reading. Immutable; each sample
 * makes the next state ({@link #sampled}); a failed reading keeps the state (a Prometheus outage neither shrinks nor
 * grows anything) and says why.
 *
 * @param active     whether the pool lends because of this trigger
 * @param since      when it last became active or inactive (null before the first sample)
 * @param belowSince while active: since when the value has been at or below the threshold (null when above)
 * @param value      the last value read (null before the first good reading)
 * @param sampledAt  when it was read
 * @param error      why the last reading failed, or null
 */
public record DemandState(
        boolean active, Instant since, Instant belowSince, Double value, Instant sampledAt, String error) {

    /** Before any reading: not lending. */
    public static final DemandState INITIAL = new DemandState(false, null, null, null, null, null);

    /** The state after reading {@code v} at {@code at}. */
    public DemandState sampled(double v, Instant at, double threshold, Duration hold) {
        if (v > threshold) {
            return new DemandState(true, active ? since : at, null, v, at, null);
        }
        if (!active) {
            return new DemandState(false, since == null ? at : since, null, v, at, null);
        }
        Instant below = belowSince == null ? at : belowSince;
        if (Duration.between(below, at).compareTo(hold) >= 0) {
            return new DemandState(false, at, null, v, at, null);
        }
        return new DemandState(true, since, below, v, at, null);
    }

    /** The state after a reading that failed: unchanged, with the reason. */
    public DemandState failed(String why, Instant at) {
        return new DemandState(active, since, belowSince, value, at, why);
    }
}
