package io.lifeline.domain.job.spot;

import io.lifeline.domain.support.WireEnum;

/**
 * A role whose loss stops the whole job, not just one worker: a reclaim of its node is a restart for every rank.
 */
public enum CoordinatorRole implements WireEnum {
    /** The node hosting global rank 0 (the one that usually writes checkpoints and logs). */
    RANK_0,
    /** The node hosting the rendezvous endpoint (torchrun's c10d store, {@code MASTER_ADDR}). */
    RENDEZVOUS_ENDPOINT
}
