package io.lifeline.domain.alert;

import java.time.Instant;
import java.util.List;

/**
 * The result of one evaluation.
 *
 * @param at          the evaluation time
 * @param changes     state changes, by rule and fingerprint (pending→inactive included; receivers skip those)
 * @param alerts      every alert the engine holds after it: pending and firing, then the recently resolved
 * @param overflowed  conditions dropped because the engine holds its maximum of active alerts
 */
public record Evaluation(Instant at, List<AlertChange> changes, List<Alert> alerts, int overflowed) {

    public Evaluation {
        changes = List.copyOf(changes);
        alerts = List.copyOf(alerts);
    }

    /** The changes receivers must hear about (see {@link AlertChange#notifiable()}). */
    public List<AlertChange> notifiable() {
        return changes.stream().filter(AlertChange::notifiable).toList();
    }
}
