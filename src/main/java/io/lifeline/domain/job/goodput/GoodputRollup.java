package io.lifeline.domain.job.goodput;

/**
 * Goodput of a group of jobs, with the interruption rate of the group.
 *
 * <p>Jobs are grouped by the pool (or capacity type) most of their nodes are in; interruptions and exposure
 * are attributed to the pool (capacity type) of the node that caused each interruption and of each node the
 * jobs ran on. {@code mtbiPerNodeSeconds} = node-seconds spent running jobs / interruptions: the mean time
 * between interruptions of one node. For a namespace or the fleet, the exposure and interruptions of the
 * group's jobs are used.
 *
 * @param dimension           grouping
 * @param key                 the group (pool name, capacity type, namespace, or {@code fleet})
 * @param jobs                jobs in the group
 * @param goodput             summed buckets and ratios
 * @param interruptions       interruptions attributed to the group
 * @param exposureNodeHours   node-hours the group's nodes spent running jobs
 * @param mtbiPerNodeSeconds  exposure / interruptions in seconds, or null when none
 */
public record GoodputRollup(
        RollupDimension dimension,
        String key,
        int jobs,
        GoodputView goodput,
        long interruptions,
        double exposureNodeHours,
        Double mtbiPerNodeSeconds) {}
