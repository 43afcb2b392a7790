package io.lifeline.domain.job.spot;

import io.lifeline.domain.job.advice.IntervalAdvice;

/**
 * The checkpoint interval advised for a job were all its nodes of one capacity type, from the reclaim rate its pools
 * showed for that capacity type (every job's nodes counted) and the job's own checkpoint cost and recovery time.
 *
 * @param capacityType              {@code spot} or {@code on-demand}
 * @param interruptionsPerNodeHour  the pools' interruptions per node-hour on that capacity type, or null without exposure
 * @param advice                    the interval advice at that rate ({@link io.lifeline.domain.job.advice.IntervalAdvisor})
 */
public record CapacityInterval(String capacityType, Double interruptionsPerNodeHour, IntervalAdvice advice) {}
