/**
 * The jobs model: lifecycle, elastic membership, checkpoints and freshness, incidents, goodput and
 * checkpoint-interval advice of training jobs. Pure Java: time comes from events and an injected clock.
 *
 * <h2>Accounting rules</h2>
 * <ul>
 *   <li><b>One clock per job.</b> Each job has an accounting clock that only moves forward. An event is
 *       accounted at {@code max(event time, clock)}: the time since the last event goes to what the job was
 *       doing (its activity, derived from its state), then the event changes the state. A late event is
 *       therefore accounted at the clock (its own facts, such as a checkpoint's completion time or an
 *       incident phase, keep their own time), and the buckets always add up to wall time.</li>
 *   <li><b>Buckets</b> (integer milliseconds): productive, checkpoint, lost rework, recovery (detection,
 *       restart, load), rescale, startup, waiting. Wall time runs from submission (or the first event seen)
 *       to the finish, or to now.</li>
 *   <li><b>GPU weighting.</b> Each bucket also accrues GPU-milliseconds: milliseconds × GPUs held at that
 *       time (GPUs of the current round's nodes that are not lost; none while waiting). Lost GPU-hours =
 *       (lost rework + recovery) GPU-milliseconds, which equals the sum over the job's incidents.</li>
 *   <li><b>Lost rework.</b> When training stops, the productive time captured after the newest good
 *       checkpoint of the current run (or after the run's restore point) is moved from productive to lost
 *       rework; the restore that follows names the checkpoint actually used and the amount is re-measured
 *       from it. A checkpoint captures the productive time at its start.</li>
 *   <li><b>Checkpoint time.</b> A synchronous save blocks from its start to its completion or failure (a save
 *       cut short by an interruption stays checkpoint time); an asynchronous save blocks for its reported
 *       blocking time only.</li>
 *   <li><b>Incidents</b> group every signal of one interruption and close at the first progress after a
 *       recovery marker (the rules are stated on {@code Interruptions}).</li>
 * </ul>
 */
package io.lifeline.domain.job;
