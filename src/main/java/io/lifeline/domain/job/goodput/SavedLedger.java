package io.lifeline.domain.job.goodput;

import java.util.Map;

/**
 * A job's goodput ledger as plain values, part of a saved job ({@link GoodputLedger#save()}).
 *
 * @param millis     accrued milliseconds per bucket (buckets at zero may be left out)
 * @param gpuMillis  accrued GPU-milliseconds per bucket (likewise)
 * @param startMs    when the job's wall time starts
 * @param clockMs    the accounting clock
 * @param activity   what the job is doing from the clock on, null once it ended
 * @param gpus       GPUs it holds meanwhile
 */
public record SavedLedger(
        Map<Bucket, Long> millis, Map<Bucket, Long> gpuMillis, long startMs, long clockMs, Bucket activity, int gpus) {

    public SavedLedger {
        millis = Map.copyOf(millis);
        gpuMillis = Map.copyOf(gpuMillis);
    }
}
