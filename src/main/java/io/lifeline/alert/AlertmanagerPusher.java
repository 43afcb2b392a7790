package io.lifeline.alert;

import io.lifeline.alert.receiver.DeliveryOutcome;
import io.lifeline.alert.receiver.Receiver;
import io.lifeline.alert.receiver.ReceiverKind;
import io.lifeline.alert.store.AlertStore;
import io.lifeline.domain.alert.Alert;
import io.lifeline.domain.alert.AlertState;
import io.lifeline.domain.alert.Evaluation;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Sends alerts to Alertmanager receivers the way Prometheus does: every firing alert again each resend interval
 * (with {@code endsAt} a few intervals ahead, so Alertmanager resolves it by itself if Lifeline goes quiet), and
 * resolved alerts with their real {@code endsAt} for a while after they resolved. A push that fails is retried at
 * the next evaluation; Alertmanager deduplicates by labels, so repeats are harmless.
 */
final class AlertmanagerPusher {

    private static final Logger LOG = Logger.getLogger(AlertmanagerPusher.class);
    private static final int BATCH = 500;

    private final AlertsConfig config;
    private final AlertReceivers receivers;
    private final AlertPayloads payloads;
    private final AlertStore store;
    private final DeliveryMetrics metrics;
    private final HttpDelivery http;
    /** Per receiver: when the last successful push happened. */
    private final Map<String, Instant> lastOk = new HashMap<>();

    AlertmanagerPusher(
            AlertsConfig config,
            AlertReceivers receivers,
            AlertPayloads payloads,
            AlertStore store,
            DeliveryMetrics metrics,
            HttpDelivery http) {
        this.config = config;
        this.receivers = receivers;
        this.payloads = payloads;
        this.store = store;
        this.metrics = metrics;
        this.http = http;
    }

    void push(Evaluation ev) {
        List<Receiver> targets = receivers.ofKind(ReceiverKind.ALERTMANAGER);
        if (targets.isEmpty()) {
            return;
        }
        Instant now = ev.at();
        List<Alert> send = new ArrayList<>();
        for (Alert a : ev.alerts()) {
            boolean recentlyResolved = a.state() == AlertState.RESOLVED
                    && a.resolvedAt() != null
                    && a.resolvedAt()
                            .plus(config.alertmanager().resolvedResendFor())
                            .isAfter(now);
            if (!a.silenced() && (a.state() == AlertState.FIRING || recentlyResolved)) {
                send.add(a);
            }
        }
        boolean changed = !ev.notifiable().isEmpty();
        Duration resend = config.alertmanager().resendInterval();
        Duration validFor = (resend.compareTo(config.evaluationInterval()) > 0 ? resend : config.evaluationInterval())
                .multipliedBy(4);
        for (Receiver r : targets) {
            Instant last = lastOk.get(r.name());
            boolean due = changed || last == null || !now.isBefore(last.plus(resend));
            if (!due || send.isEmpty()) {
                continue;
            }
            HttpDelivery.Result res = null;
            for (int from = 0; from < send.size() && (res == null || res.ok()); from += BATCH) {
                // Bounded request bodies: a large fleet's firing alerts go in several posts.
                List<Alert> batch = send.subList(from, Math.min(send.size(), from + BATCH));
                res = http.post(r, payloads.alertmanager(batch, now, validFor), Map.of());
            }
            DeliveryOutcome outcome = res.ok()
                    ? DeliveryOutcome.DELIVERED
                    : res.retryable() ? DeliveryOutcome.RETRY : DeliveryOutcome.FAILED;
            metrics.count(r.kind(), outcome);
            if (res.ok()) {
                lastOk.put(r.name(), now);
            } else {
                lastOk.remove(r.name());
                LOG.warnf(
                        "Alertmanager receiver %s refused or missed %d alerts: %s; sending again at the next evaluation",
                        r.name(), send.size(), res.error());
            }
            try {
                store.recordAttempt(null, r, 1, now, outcome, res.status(), res.millis(), res.error(), null);
            } catch (io.lifeline.eventlog.StoreUnavailableException e) {
                LOG.warnf("Could not record a delivery attempt to %s: %s", r.name(), e.getMessage());
            }
        }
    }
}
