package io.lifeline.domain.job.incident;

import static io.lifeline.domain.job.incident.RecoveryPhase.DECISION;
import static io.lifeline.domain.job.incident.RecoveryPhase.DETECTION;
import static io.lifeline.domain.job.incident.RecoveryPhase.LOST_REWORK;
import static io.lifeline.domain.job.incident.RecoveryPhase.RENDEZVOUS;
import static io.lifeline.domain.job.incident.RecoveryPhase.RESCHEDULING;
import static io.lifeline.domain.job.incident.RecoveryPhase.RESTORE;

import io.lifeline.domain.job.goodput.Bucket;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Divides an incident's buckets among the {@link RecoveryPhase}s. Whole buckets go to one phase each; two buckets hold
 * two phases, cut where a phase stamp says: the hang bucket at the hang's suspicion ({@link IncidentPhase#HUNG}: before
 * it detection, after it decision, until the first sign of recovery), and the restart bucket at the agent's restart
 * after a re-admission ({@link IncidentPhase#ADMITTED} to {@link IncidentPhase#RESTARTED}: rescheduling, the rest
 * rendezvous). Stamps carry event times and buckets the accounting clock, so a cut is held within its bucket, and the
 * bucket's GPU time is shared in the same proportion.
 */
final class PhaseSplitter {

    private static final int N = RecoveryPhase.values().length;

    private PhaseSplitter() {}

    static PhaseSplit split(
            long[] ms, long[] gms, long lostMs, long lostGpuMs, List<PhaseStamp> stamps, Instant closedAt) {
        long[] out = new long[N];
        long[] gpu = new long[N];

        long hang = ms[Bucket.HANG.ordinal()];
        long hangGpu = gms[Bucket.HANG.ordinal()];
        Instant hung = first(stamps, null, IncidentPhase.HUNG);
        long decided = 0;
        if (hang > 0 && hung != null) {
            Instant acted = first(
                    stamps,
                    hung,
                    IncidentPhase.ADMITTED,
                    IncidentPhase.RESTARTED,
                    IncidentPhase.REJOINED,
                    IncidentPhase.RESTORED);
            // A hang that ended without a restart waited for a decision until it closed.
            decided = within(hung, acted != null ? acted : closedAt, hang);
        }
        long decidedGpu = share(hangGpu, decided, hang);
        out[DETECTION.ordinal()] = ms[Bucket.RECOVERY_DETECTION.ordinal()] + hang - decided;
        gpu[DETECTION.ordinal()] = gms[Bucket.RECOVERY_DETECTION.ordinal()] + hangGpu - decidedGpu;
        out[DECISION.ordinal()] = decided;
        gpu[DECISION.ordinal()] = decidedGpu;

        long restart = ms[Bucket.RECOVERY_RESTART.ordinal()];
        long restartGpu = gms[Bucket.RECOVERY_RESTART.ordinal()];
        Instant admitted = first(stamps, null, IncidentPhase.ADMITTED);
        long placed = 0;
        if (restart > 0 && admitted != null) {
            Instant started = first(stamps, admitted, IncidentPhase.RESTARTED);
            // Without a restart reported, the group's forming ends the placement: the rendezvous is folded in.
            Instant end = started != null ? started : first(stamps, admitted, IncidentPhase.REJOINED);
            placed = end == null ? restart : within(admitted, end, restart);
        }
        long placedGpu = share(restartGpu, placed, restart);
        out[RESCHEDULING.ordinal()] = ms[Bucket.WAITING.ordinal()] + placed;
        gpu[RESCHEDULING.ordinal()] = gms[Bucket.WAITING.ordinal()] + placedGpu;
        out[RENDEZVOUS.ordinal()] = restart - placed;
        gpu[RENDEZVOUS.ordinal()] = restartGpu - placedGpu;

        out[RESTORE.ordinal()] = ms[Bucket.RECOVERY_LOAD.ordinal()];
        gpu[RESTORE.ordinal()] = gms[Bucket.RECOVERY_LOAD.ordinal()];
        out[LOST_REWORK.ordinal()] = lostMs;
        gpu[LOST_REWORK.ordinal()] = lostGpuMs;
        return PhaseSplit.of(out, gpu);
    }

    /**
     * The earliest time of a stamp of one of {@code phases} at or after {@code notBefore} (any when null), or null.
     * Stamps are kept in arrival order, which a late event breaks.
     */
    private static Instant first(List<PhaseStamp> stamps, Instant notBefore, IncidentPhase... phases) {
        Instant best = null;
        for (PhaseStamp s : stamps) {
            if (notBefore != null && s.time().isBefore(notBefore)
                    || best != null && !s.time().isBefore(best)) {
                continue;
            }
            for (IncidentPhase p : phases) {
                if (s.phase() == p) {
                    best = s.time();
                }
            }
        }
        return best;
    }

    /** Milliseconds from {@code a} to {@code b}, held within 0 and {@code cap}; 0 when {@code b} is unknown. */
    private static long within(Instant a, Instant b, long cap) {
        if (b == null) {
            return 0;
        }
        return Math.max(0, Math.min(cap, Duration.between(a, b).toMillis()));
    }

    /** The part of {@code total} that {@code part} of {@code whole} milliseconds takes. */
    private static long share(long total, long part, long whole) {
        if (whole <= 0 || part <= 0) {
            return 0;
        }
        return part >= whole ? total : Math.round((double) total * part / whole);
    }
}
