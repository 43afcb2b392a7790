package io.lifeline.domain.alert;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Mutes the alerts whose labels match every matcher, from {@code startsAt} until {@code endsAt}. A silenced alert
 * keeps its state (the API shows it, with the silence's id) but receivers are not told about it.
 *
 * @param id         silence id
 * @param matchers   all must match (at least one)
 * @param startsAt   when it starts
 * @param endsAt     when it ends (after {@code startsAt}); expiring a silence sets it to now
 * @param createdBy  who made it
 * @param comment    why
 */
public record Silence(
        String id, List<Matcher> matchers, Instant startsAt, Instant endsAt, String createdBy, String comment) {

    public Silence {
        Objects.requireNonNull(id, "id");
        matchers = List.copyOf(matchers == null ? List.of() : matchers);
        if (matchers.isEmpty()) {
            throw new IllegalArgumentException("matchers: a silence needs at least one matcher");
        }
        if (startsAt == null || endsAt == null) {
            throw new IllegalArgumentException("startsAt, endsAt: required");
        }
        if (!endsAt.isAfter(startsAt)) {
            throw new IllegalArgumentException("endsAt: must be after startsAt");
        }
        if (matchers.stream().allMatch(m -> m.matches(Map.of()))) {
            // As Alertmanager: a silence whose matchers all match an alert without labels would mute everything.
            throw new IllegalArgumentException("matchers: at least one matcher must not match the empty value");
        }
    }

    /** Whether it is in force at {@code now}. */
    public boolean activeAt(Instant now) {
        return !now.isBefore(startsAt) && now.isBefore(endsAt);
    }

    /** Whether it has ended by {@code now}. */
    public boolean expiredAt(Instant now) {
        return !now.isBefore(endsAt);
    }

    /** Whether it mutes an alert with these labels (ignoring time). */
    public boolean matches(Map<String, String> labels) {
        for (Matcher m : matchers) {
            if (!m.matches(labels)) {
                return false;
            }
        }
        return true;
    }

    /** This silence ended at {@code now} (or unchanged when it already ended). */
    public Silence expire(Instant now) {
        if (expiredAt(now)) {
            return this;
        }
        Instant start = startsAt.isAfter(now) ? now.minusMillis(1) : startsAt;
        return new Silence(id, matchers, start, now, createdBy, comment);
    }
}
