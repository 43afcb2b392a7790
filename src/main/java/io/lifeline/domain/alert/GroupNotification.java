package io.lifeline.domain.alert;

import java.util.List;
import java.util.Map;

/**
 * One notification for one group of alerts (same rule and namespace), as Alertmanager groups them: sent when an
 * alert of the group starts firing, resolves or comes out of a silence.
 *
 * @param groupKey        identifies the group, in Alertmanager's form: {@code {}:{alertname="...", namespace="..."}}
 * @param rule            the group's rule
 * @param namespace       the group's namespace, or null for fleet-wide and node alerts
 * @param status          {@code firing} when any of its alerts fires, else {@code resolved}
 * @param groupLabels     the labels grouped by ({@code alertname}, and {@code namespace} when there is one)
 * @param alerts          the group's firing alerts plus the ones that just resolved, not silenced
 * @param idempotencyKey  stable for this state change of the group: the same on every retry of the notification,
 *                        different for the next change
 */
public record GroupNotification(
        String groupKey,
        AlertRule rule,
        String namespace,
        String status,
        Map<String, String> groupLabels,
        List<Alert> alerts,
        String idempotencyKey) {

    public GroupNotification {
        groupLabels = Map.copyOf(groupLabels);
        alerts = List.copyOf(alerts);
    }

    public boolean firing() {
        return "firing".equals(status);
    }
}
