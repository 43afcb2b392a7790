package io.lifeline.domain.job.spot;

/**
 * What one useful GPU-hour of a job is expected to cost on one capacity type.
 *
 * @param capacityType              {@code spot} or {@code on-demand}
 * @param pricePerGpuHour           the configured price, or null when none is configured
 * @param interruptionsPerNodeHour  the pools' observed reclaim rate on it, or null without exposure
 * @param mtbiSeconds               M: the job's expected time between interruptions on it (its nodes × the rate), or null
 * @param intervalSeconds           τ: the checkpoint interval the ETTR is modelled at, or null
 * @param ettr                      expected ETTR (useful share of the GPU-time paid for), or null when unknown
 * @param ettrBasis                 how the ETTR was found
 * @param costPerUsefulGpuHour      price / ETTR, or null when either is unknown or the ETTR is 0
 */
public record CapacityCost(
        String capacityType,
        Double pricePerGpuHour,
        Double interruptionsPerNodeHour,
        Double mtbiSeconds,
        Double intervalSeconds,
        Double ettr,
        String ettrBasis,
        Double costPerUsefulGpuHour) {}
