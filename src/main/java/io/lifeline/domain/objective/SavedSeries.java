package io.lifeline.domain.objective;

import java.util.List;

/**
 * One objective's series as plain values, to keep its windows across a restart. Slots are saved by their absolute
 * number (epoch millis / width), arrays by the ordinal of the bucket and incident cause named in {@link SavedBook}.
 *
 * @param name               the objective
 * @param scope              its scope, {@code kind:value}: history is restored only to the same scope
 * @param minutes            non-empty minute slots
 * @param hours              non-empty hour slots
 * @param heldMs             held GPU-milliseconds since the objective was set
 * @param productiveNetMs    productive GPU-milliseconds since then, reworks taken off
 * @param productiveShownMs  the highest {@code productiveNetMs} published
 */
public record SavedSeries(
        String name,
        String scope,
        List<SavedSlot> minutes,
        List<SavedSlot> hours,
        long heldMs,
        long productiveNetMs,
        long productiveShownMs) {

    /**
     * One slot.
     *
     * @param index              its absolute number
     * @param gpuMillis          GPU-milliseconds by bucket ordinal
     * @param lostByCause        GPU-hours lost by incident cause ordinal
     * @param heldMoney          held time priced
     * @param spentMoney         unproductive held time priced
     * @param lostMoney          interruption loss priced
     * @param unpricedGpuMillis  held GPU-milliseconds without a price
     */
    public record SavedSlot(
            long index,
            long[] gpuMillis,
            double[] lostByCause,
            double heldMoney,
            double spentMoney,
            double lostMoney,
            long unpricedGpuMillis) {}
}
