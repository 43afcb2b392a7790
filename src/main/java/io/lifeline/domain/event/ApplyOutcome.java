package io.lifeline.domain.event;

import java.util.Objects;

/**
 * What applying one event did to the model. An event either changed what the model holds ({@link #CHANGED}),
 * confirmed what it held already ({@link #UNCHANGED}: a repeat, such as a notice polled again with the same
 * deadline), or was not applied, with a stable reason ({@link NotAppliedReason}) and a detail that names the value
 * the model compared it with. Only a change moves a policy: a repeat was acted on when it first came, and an event
 * that was not applied is not news.
 *
 * @param kind    changed, unchanged or not applied
 * @param reason  why it was not applied; null unless {@code kind} is {@link Kind#NOT_APPLIED}
 * @param detail  what the model compared it with, for a person; null unless not applied
 */
public record ApplyOutcome(Kind kind, NotAppliedReason reason, String detail) {

    /** The event changed the model. */
    public static final ApplyOutcome CHANGED = new ApplyOutcome(Kind.CHANGED, null, null);
    /** The event confirmed what the model held already. */
    public static final ApplyOutcome UNCHANGED = new ApplyOutcome(Kind.UNCHANGED, null, null);

    /** Changed, unchanged or not applied. */
    public enum Kind {
        CHANGED,
        UNCHANGED,
        NOT_APPLIED
    }

    public ApplyOutcome {
        Objects.requireNonNull(kind, "kind");
        if ((kind == Kind.NOT_APPLIED) != (reason != null)) {
            throw new IllegalArgumentException("a reason goes with NOT_APPLIED, and only with it");
        }
    }

    /** An event the model did not apply, for {@code reason}; {@code detail} names what it was compared with. */
    public static ApplyOutcome notApplied(NotAppliedReason reason, String detail) {
        return new ApplyOutcome(
                Kind.NOT_APPLIED, Objects.requireNonNull(reason, "reason"), Objects.requireNonNull(detail, "detail"));
    }

    /** The changed or unchanged outcome. */
    public static ApplyOutcome of(boolean changed) {
        return changed ? CHANGED : UNCHANGED;
    }

    /** Whether the model took the event (changed or confirmed by it). */
    public boolean applied() {
        return kind != Kind.NOT_APPLIED;
    }

    /** Whether the event changed the model: what policies react to. */
    public boolean changed() {
        return kind == Kind.CHANGED;
    }
}
