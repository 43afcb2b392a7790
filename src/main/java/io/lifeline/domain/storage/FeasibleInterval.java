package io.lifeline.domain.storage;

import io.lifeline.domain.job.advice.StorageFeasibility;
import java.util.List;

/**
 * Whether a job's checkpoint interval fits what its storage target can write (a pure function).
 *
 * <p>A job saving S bytes every τ seconds writes S/τ bytes per second on average. With the other jobs on the target
 * writing Σ S<sub>j</sub>/τ<sub>j</sub> at their own intervals, an interval τ for the job fits a target that has shown
 * a bandwidth B when S/τ + Σ S<sub>j</sub>/τ<sub>j</sub> ≤ B. The shortest interval that fits, the others keeping
 * theirs, is τ<sub>min</sub> = S / (B − Σ S<sub>j</sub>/τ<sub>j</sub>); there is none when the others alone need B or
 * more.
 */
public final class FeasibleInterval {

    private FeasibleInterval() {}

    /**
     * One job writing to a target.
     *
     * @param job                 its name
     * @param bytesPerCheckpoint  S: its checkpoint size
     * @param intervalSeconds     τ: its interval (&gt; 0)
     */
    public record Writer(String job, double bytesPerCheckpoint, double intervalSeconds) {

        /** S/τ, bytes per second. */
        public double bytesPerSecond() {
            return bytesPerCheckpoint / intervalSeconds;
        }
    }

    /**
     * @param target         the storage target
     * @param bandwidth      B, bytes per second (&gt; 0)
     * @param job            the job advised (left out of {@code writers} if there)
     * @param bytes          its checkpoint size S
     * @param intervalSeconds the interval to check (&gt; 0)
     * @param writers        every job writing to the target, the advised one included or not
     */
    public static StorageFeasibility check(
            String target, double bandwidth, String job, double bytes, double intervalSeconds, List<Writer> writers) {
        double others = 0;
        int count = 0;
        for (Writer w : writers) {
            if (!w.job().equals(job)) {
                others += w.bytesPerSecond();
                count++;
            }
        }
        double required = bytes / intervalSeconds + others;
        Double sustainable = bandwidth > others ? bytes / (bandwidth - others) : null;
        return new StorageFeasibility(
                target, bandwidth, bytes, intervalSeconds, count, others, required, required <= bandwidth, sustainable);
    }
}
