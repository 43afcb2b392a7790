package io.lifeline.domain.job.straggler;

import java.time.Instant;

/**
 * One rank found persistently slower than its peers.
 *
 * @param rank                global rank
 * @param node                the node it runs on (from the job's membership, else as the rank reported it), or null
 * @param localRank           its rank on the node, or null when not reported
 * @param gpuIndex            the GPU it drives (torchrun gives each local rank the GPU of that index), or null
 * @param stepSeconds         its median step time in the latest window it reported in
 * @param peerMedianSeconds   the median of its peers' step times in that window
 * @param slowdown            {@code stepSeconds / peerMedianSeconds}
 * @param slowSince           the end of the first window of the slow streak that made it a straggler
 * @param flaggedAt           the end of the window it became a straggler
 * @param slowWindows         consecutive slow windows so far
 */
public record Straggler(
        int rank,
        String node,
        Integer localRank,
        Integer gpuIndex,
        double stepSeconds,
        double peerMedianSeconds,
        double slowdown,
        Instant slowSince,
        Instant flaggedAt,
        int slowWindows) {}
