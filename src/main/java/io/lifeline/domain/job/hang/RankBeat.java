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

    /**
     * How long this rank had not stepped (or been in its phase) when it reported, counted in its phase's way. Only what
     * the rank itself measured counts, never the time since its report: a rank whose reports stop (its process ended,
     * its sender cut off, Lifeline down) must not look stuck for longer and longer.
     */
    double stall() {
        return switch (phase) {
            case HangWatch.HOLDING -> 0;
            // Back in training after a phase: the clock starts when the phase ended, not at the last step before it.
            case HangWatch.TRAINING -> Math.min(sinceStepSeconds, phaseSeconds);
            default -> phaseSeconds;
        };
    }

    /** When the rank last moved (stepped, or entered its phase), by its own report. */
    long lastMovedMs() {
        return receivedMs - (long) (stall() * 1000);
    }
}
