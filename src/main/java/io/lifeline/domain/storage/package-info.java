/**
 * Checkpoint storage targets: where the jobs' checkpoints go, learned from what the trainers report on each save
 * (location, size, write time, free space). Per target the bytes kept under retention, the write bandwidth seen,
 * the free space left and the time until it is full; and whether a checkpoint interval asks more bandwidth than the
 * target has shown ({@link io.lifeline.domain.storage.FeasibleInterval}). Running aggregates, bounded per target and per
 * job. docs/checkpoints.md states the rules.
 */
package io.lifeline.domain.storage;
