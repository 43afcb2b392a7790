package io.lifeline.action.port;

import java.util.Map;
import java.util.Set;

/**
 * What one attempt to send a command did.
 *
 * @param confirmed the channels that took the command durably in this attempt
 * @param failed    the channels that did not, each with the reason
 */
public record SendAttempt(Set<String> confirmed, Map<String, String> failed) {

    public SendAttempt {
        confirmed = Set.copyOf(confirmed);
        failed = Map.copyOf(failed);
    }

    /** An attempt every channel named took. */
    public static SendAttempt confirmed(String... channels) {
        return new SendAttempt(Set.of(channels), Map.of());
    }

    /** Whether no channel failed. */
    public boolean complete() {
        return failed.isEmpty();
    }
}
