/**
 * Co-location ("train at night, serve by day"): time windows and demand triggers that lend a pool's GPUs to
 * inference by shrinking its elastic training jobs to their minimum, checkpoint first, and grow them back after;
 * and the ledger of what each lending cost. Pure: time is given, signals are sampled by an edge. The policy that
 * decides on them, {@link io.lifeline.domain.policy.ColocationPolicy}, lives with the other policies in the parent
 * package, which uses this one; nothing here uses the parent.
 */
package io.lifeline.domain.policy.colocation;
