package io.lifeline.domain.storage;

import io.lifeline.domain.job.advice.IntervalAdvice;
import io.lifeline.domain.job.advice.StorageFeasibility;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a job's interval advice against the storage targets it writes to ({@link FeasibleInterval}): the interval
 * checked is the recommended one, else the job's current one; the bandwidth is the target's median.
 */
public final class StorageAdvice {

    private StorageAdvice() {}

    public static IntervalAdvice apply(IntervalAdvice a, StorageTargets targets, Instant now) {
        Double interval = a.recommendedSeconds() != null ? a.recommendedSeconds() : a.currentIntervalSeconds();
        List<StorageFeasibility> checked = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        for (StorageTargetView t : targets.ofJob(a.job(), now)) {
            StorageTargetView.Writer own = null;
            for (StorageTargetView.Writer w : t.writers()) {
                if (w.job().equals(a.job())) {
                    own = w;
                }
            }
            if (own == null || !own.writing()) {
                continue;
            }
            if (interval == null || interval <= 0 || own.bytesPerCheckpoint() == null || t.bandwidthMedian() == null) {
                notes.add("storage " + t.target() + ": no checkpoint size, write bandwidth or interval known yet, so"
                        + " whether it sustains the interval is not known");
                continue;
            }
            StorageFeasibility f = FeasibleInterval.check(
                    t.target(),
                    t.bandwidthMedian(),
                    a.job(),
                    own.bytesPerCheckpoint(),
                    interval,
                    targets.writers(t.target(), now));
            checked.add(f);
            if (!f.feasible()) {
                notes.add(String.format(
                        "storage %s has shown %s/s, and saving every %.0f s with the %d other job(s) there needs %s/s:"
                                + " %s",
                        f.target(),
                        bytes(f.bandwidthBytesPerSecond()),
                        f.intervalSeconds(),
                        f.otherJobs(),
                        bytes(f.requiredBytesPerSecond()),
                        f.sustainableSeconds() == null
                                ? "the other jobs alone use all of it"
                                : String.format(
                                        "it sustains an interval of %.0f s or longer", f.sustainableSeconds())));
            }
        }
        return checked.isEmpty() && notes.isEmpty() ? a : a.withStorage(checked, notes);
    }

    /** Bytes in binary units, for notes. */
    static String bytes(double b) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
        int i = 0;
        double v = b;
        while (Math.abs(v) >= 1024 && i < units.length - 1) {
            v /= 1024;
            i++;
        }
        return String.format("%.1f %s", v, units[i]);
    }
}
