package io.lifeline.action;

import io.lifeline.action.view.ActionView;

/** Another unfinished action already holds the target (HTTP 409); the message names it. */
public class TargetBusyException extends RuntimeException {

    private final String holderId;

    public TargetBusyException(ActionView holder) {
        super(holder.target() + " already has " + holder.kind().wire() + " " + holder.id() + " "
                + holder.state().wire() + "; wait for it or cancel it");
        this.holderId = holder.id();
    }

    public String holderId() {
        return holderId;
    }
}
