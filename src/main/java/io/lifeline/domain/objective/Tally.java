package io.lifeline.domain.objective;

import io.lifeline.domain.job.goodput.Bucket;
import io.lifeline.domain.job.incident.IncidentCause;
import java.util.Arrays;

/**
 * GPU time of a group of jobs over some span, by goodput bucket and by the cause of the incidents that lost it, with
 * its price. Deltas are signed: a rework reclassifies productive time as lost, so a span can hold negative productive
 * time that an earlier span counted.
 */
final class Tally {

    static final int BUCKETS = Bucket.values().length;
    static final int CAUSES = IncidentCause.values().length;

    final long[] gpuMillis = new long[BUCKETS];
    final double[] lostGpuHoursByCause = new double[CAUSES];
    /** Held time priced. */
    double heldMoney;
    /** Held time that was not productive, priced. */
    double spentMoney;
    /** Time lost to interruptions (lost rework, hang, recovery), priced. */
    double lostMoney;
    /** Held GPU-milliseconds of jobs without a price. */
    long unpricedGpuMillis;

    void clear() {
        Arrays.fill(gpuMillis, 0);
        Arrays.fill(lostGpuHoursByCause, 0);
        heldMoney = 0;
        spentMoney = 0;
        lostMoney = 0;
        unpricedGpuMillis = 0;
    }

    void add(Tally o) {
        for (int i = 0; i < BUCKETS; i++) {
            gpuMillis[i] += o.gpuMillis[i];
        }
        for (int i = 0; i < CAUSES; i++) {
            lostGpuHoursByCause[i] += o.lostGpuHoursByCause[i];
        }
        heldMoney += o.heldMoney;
        spentMoney += o.spentMoney;
        lostMoney += o.lostMoney;
        unpricedGpuMillis += o.unpricedGpuMillis;
    }

    /** GPU-milliseconds the jobs held (every bucket but waiting). */
    long heldGpuMillis() {
        long s = 0;
        for (Bucket b : Bucket.values()) {
            if (b != Bucket.WAITING) {
                s += gpuMillis[b.ordinal()];
            }
        }
        return s;
    }

    long productiveGpuMillis() {
        return gpuMillis[Bucket.PRODUCTIVE.ordinal()];
    }

    /** GPU-milliseconds lost to interruptions: lost rework, hang and the recovery phases. */
    long lostGpuMillis() {
        long s = 0;
        for (Bucket b : Bucket.values()) {
            if (isLoss(b)) {
                s += gpuMillis[b.ordinal()];
            }
        }
        return s;
    }

    /** Whether time in {@code b} is lost to an interruption (what the loss limits count). */
    static boolean isLoss(Bucket b) {
        return b == Bucket.LOST_REWORK || b == Bucket.HANG || b.isRecovery();
    }
}
