package io.lifeline.domain.job.goodput;

import io.lifeline.domain.support.WireEnum;

/** What a goodput rollup groups jobs by. */
public enum RollupDimension implements WireEnum {
    /** The node pool most of a job's nodes are in. */
    POOL,
    /** The capacity type most of a job's nodes have. */
    CAPACITY_TYPE,
    /** The job's namespace. */
    NAMESPACE,
    /** All jobs together. */
    FLEET
}
