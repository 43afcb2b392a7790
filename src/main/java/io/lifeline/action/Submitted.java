package io.lifeline.action;

import io.lifeline.action.view.ActionView;

/** The answer to a submission: the action, and whether it was created before under the same idempotency key. */
public record Submitted(ActionView action, boolean replayed) {}
