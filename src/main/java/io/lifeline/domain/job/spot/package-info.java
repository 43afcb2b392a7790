/**
 * Spot placement checks: whether a job's coordinating roles (rank 0 and the rendezvous endpoint) sit on spot capacity
 * while its pools offer on-demand capacity, the checkpoint interval advised per capacity type from each pool's observed
 * reclaim rate, and the "spot vs on-demand" verdict: the expected cost per useful GPU-hour on each. Pure: prices come
 * in as {@link io.lifeline.domain.job.spot.SpotPrices}, node facts through the node directory, time from the jobs'
 * clock. The formulas are written down in docs/policies.md ("Spot placement").
 */
package io.lifeline.domain.job.spot;
