package io.lifeline.action;

/** The answer to a submission: the action, and whether it was created before under the same idempotency key. */
public record Submitted(ActionView action, boolean replayed) {}
