/**
 * The demo fleet simulator: a seeded discrete-event simulation of GPU node pools and elastic training jobs
 * that produces catalogue events ({@link io.lifeline.domain.event.Event}).
 *
 * <p>Pure: JDK and the event catalogue only, time given by the caller. {@link io.lifeline.demo.FleetSimulator}
 * is the entry point; {@link io.lifeline.demo.Scenario} describes the fleet. Inside, an {@code Agenda}
 * (priority queue of happenings, ties in scheduling order) drives four parts that share a {@code SimContext}:
 * {@code Fleet} (nodes, notices, XIDs, replacements, telemetry), {@code Placement} (free nodes to jobs),
 * {@code Trainer} (rendezvous, restore, failures, membership changes) and {@code Checkpoints}, plus
 * {@code Commands} for Lifeline's trainer commands. Happenings that lose their relevance are not cancelled:
 * each carries the job's epoch and does nothing when the job has restarted since. See docs/demo.md.
 */
package io.lifeline.demo;
