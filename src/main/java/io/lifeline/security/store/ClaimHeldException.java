package io.lifeline.security.store;

/**
 * A job's commands are claimed by another agent ({@link AgentClaims}): the poll or acknowledgement is refused (HTTP
 * 409); the claim may lapse after {@link #retryAfterSeconds()}.
 */
public class ClaimHeldException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final long retryAfterSeconds;

    public ClaimHeldException(String message, long retryAfterSeconds) {
        super(message);
        this.retryAfterSeconds = Math.max(1, retryAfterSeconds);
    }

    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
