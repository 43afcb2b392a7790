package io.lifeline.domain.job;

import java.time.Instant;

/**
 * A transition an event asked for that the state machine refused.
 *
 * @param from    state the job was in
 * @param to      state asked for
 * @param time    event time
 * @param cause   what asked for it (event type or signal)
 * @param reason  why it was refused
 */
public record RefusedTransition(JobState from, JobState to, Instant time, String cause, String reason) {}
