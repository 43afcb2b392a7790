package io.lifeline.domain.job.spot;

import java.util.List;

/**
 * Everything about one job and spot capacity: where its coordinating roles run, the checkpoint interval advised per
 * capacity type, and the spot-vs-on-demand verdict.
 *
 * @param job        job name
 * @param placement  the placement check
 * @param intervals  the interval advice for spot and for on-demand
 * @param verdict    the spot-vs-on-demand verdict
 */
public record SpotReport(String job, SpotPlacement placement, List<CapacityInterval> intervals, SpotVerdict verdict) {

    public SpotReport {
        intervals = List.copyOf(intervals);
    }
}
