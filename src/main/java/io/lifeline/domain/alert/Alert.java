package io.lifeline.domain.alert;

import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One alert as of an evaluation.
 *
 * @param fingerprint  identity: a hash of the rule and labels (see {@link Fingerprint})
 * @param rule         the rule that raised it
 * @param labels       identifying labels, including {@code alertname} and {@code severity}, sorted
 * @param annotations  {@code summary} and {@code description}, sorted
 * @param state        where it stands
 * @param activeSince  when the condition started to hold (pending since)
 * @param firingSince  when it started firing ({@code startsAt}), or null while pending
 * @param resolvedAt   when it resolved ({@code endsAt}), or null
 * @param updatedAt    the evaluation that last changed or confirmed it
 * @param value        the measured value (age ratio, count, depth...), may be null
 * @param namespace    the namespace it concerns, or null for fleet-wide and node alerts
 * @param silencedBy   ids of the active silences that match it (empty: not silenced)
 */
public record Alert(
        String fingerprint,
        AlertRule rule,
        Map<String, String> labels,
        Map<String, String> annotations,
        AlertState state,
        Instant activeSince,
        Instant firingSince,
        Instant resolvedAt,
        Instant updatedAt,
        Double value,
        String namespace,
        List<String> silencedBy) {

    public Alert {
        labels = Collections.unmodifiableMap(new TreeMap<>(labels));
        annotations = Collections.unmodifiableMap(new TreeMap<>(annotations));
        silencedBy = List.copyOf(silencedBy);
    }

    public boolean silenced() {
        return !silencedBy.isEmpty();
    }

    Alert with(AlertState s, Instant active, Instant firing, Instant resolved, Instant updated) {
        return new Alert(
                fingerprint,
                rule,
                labels,
                annotations,
                s,
                active,
                firing,
                resolved,
                updated,
                value,
                namespace,
                silencedBy);
    }

    Alert withSilences(List<String> ids) {
        return new Alert(
                fingerprint,
                rule,
                labels,
                annotations,
                state,
                activeSince,
                firingSince,
                resolvedAt,
                updatedAt,
                value,
                namespace,
                ids);
    }
}
