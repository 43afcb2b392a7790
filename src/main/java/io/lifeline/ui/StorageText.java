package io.lifeline.ui;

import io.lifeline.domain.job.advice.IntervalAdvice;
import io.lifeline.domain.job.advice.StorageFeasibility;
import io.lifeline.domain.storage.StorageTargetView;

/** One line per storage target a job writes to, as the job page shows it. */
final class StorageText {

    private StorageText() {}

    /** Bandwidth seen, free space and time until full, and whether the advised interval fits. */
    static String of(StorageTargetView t, IntervalAdvice advice) {
        StringBuilder s = new StringBuilder("Storage ")
                .append(t.target())
                .append(": writes at ")
                .append(rate(t.bandwidthMedian()))
                .append(" (median, slowest tenth ")
                .append(rate(t.bandwidthP10()))
                .append(") · ")
                .append(Format.bytes(t.freeBytes()))
                .append(" free")
                .append(t.capacityBytes() == null ? "" : " of " + Format.bytes(t.capacityBytes()))
                .append(" · ")
                .append(
                        t.secondsUntilFull() == null
                                ? "not filling"
                                : "full in " + Format.seconds(t.secondsUntilFull()))
                .append(" · ")
                .append(Format.bytes(t.keptBytes()))
                .append(" kept by ")
                .append(t.jobs())
                .append(t.jobs() == 1 ? " job" : " jobs");
        if (advice != null) {
            for (StorageFeasibility f : advice.storage()) {
                if (f.target().equals(t.target())) {
                    s.append(
                            f.feasible()
                                    ? " · sustains the advised interval"
                                    : " · too slow for every " + Format.seconds(f.intervalSeconds()) + ": sustains "
                                            + (f.sustainableSeconds() == null
                                                    ? "no interval while the other jobs write"
                                                    : "every " + Format.seconds(f.sustainableSeconds())));
                }
            }
        }
        return s.toString();
    }

    private static String rate(Double bytesPerSecond) {
        return bytesPerSecond == null ? Format.bytes(null) : Format.bytes(Math.round(bytesPerSecond)) + "/s";
    }
}
