package io.lifeline.domain.job.recovery;

import io.lifeline.domain.support.WireEnum;

/** Where a piece of advice stands: checked against fresh observations until its deadline. */
public enum Verdict implements WireEnum {
    /** Decided; its expected state not reached yet, the deadline not passed. */
    PENDING,
    /** Its expected state was reached. */
    VERIFIED,
    /** Its expected state was not reached (the reason says what was seen); the next rung follows when there is one. */
    FAILED
}
