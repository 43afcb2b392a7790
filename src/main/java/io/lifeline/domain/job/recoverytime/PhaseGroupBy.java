package io.lifeline.domain.job.recoverytime;

import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.support.WireEnum;
import java.util.Optional;

/** What the rows of a {@link RecoveryPhaseReport} group interruptions by. */
public enum PhaseGroupBy implements WireEnum {
    /** The interruption's cause. */
    CAUSE,
    /** The node pool the interruption is attributed to. */
    POOL,
    /** Both: one row per cause within each pool. */
    CAUSE_POOL;

    /** The group of an interruption whose pool is not known. */
    public static final String UNKNOWN_POOL = "(unknown)";

    /** The value named {@code s} (its wire name or its constant), empty for any other. */
    public static Optional<PhaseGroupBy> parse(String s) {
        return WireEnum.parse(PhaseGroupBy.class, s);
    }

    /** The row's name: the cause's wire name, the pool, or {@code cause · pool}. */
    String group(IncidentCause cause, String pool) {
        return switch (this) {
            case CAUSE -> cause.wire();
            case POOL -> pool;
            case CAUSE_POOL -> cause.wire() + " · " + pool;
        };
    }
}
