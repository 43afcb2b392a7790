package io.lifeline.domain.job.hang;

/**
 * One rank's latest heartbeat, as received.
 *
 * @param rank              global rank
 * @param localRank         rank on its node, or null
 * @param node              its node, or null
 * @param receivedMs        when it was received (event time, epoch milliseconds)
 * @param toStep            the step it reached
 * @param sinceStepSeconds  seconds since its last step when it reported, by its own clock
 * @param phase             what it was doing ({@link HangWatch#TRAINING} when it did not say)
 * @param phaseSeconds      seconds in that phase when it reported
 */
record RankBeat(
        int rank,
        Integer localRank,
        String node,
        long receivedMs,
        long toStep,
        double sinceStepSeconds,
        String phase,
        double phaseSeconds) {

    /** How long this rank has not stepped (or been in its phase) at {@code nowMs}, counted in its phase's way. */
    double stall(long nowMs) {
        double elapsed = Math.max(0, nowMs - receivedMs) / 1000.0;
        return switch (phase) {
            case HangWatch.HOLDING -> 0;
            // Back in training after a phase: the clock starts when the phase ended, not at the last step before it.
            case HangWatch.TRAINING -> Math.min(sinceStepSeconds, phaseSeconds) + elapsed;
            default -> phaseSeconds + elapsed;
        };
    }
}
