package io.lifeline.alert;

import io.lifeline.alert.receiver.DeliveryOutcome;
import io.lifeline.alert.receiver.Receiver;
import io.lifeline.alert.receiver.ReceiverKind;
import io.lifeline.alert.store.AlertStore;
import io.lifeline.eventlog.Leadership;
import io.lifeline.eventlog.StoreUnavailableException;
import io.lifeline.platform.Backoff;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Delivers the outbox (webhook and Slack notifications) at least once: each due notification is posted, the
 * attempt recorded with its outcome, and a failure worth retrying (no answer, 5xx, 408, 429) is tried again after
 * an exponential backoff, up to {@code lifeline.alerts.delivery.max-attempts}. The body and
 * {@code Idempotency-Key} are the same on every attempt; the timestamp and signature are fresh each time.
 */
@ApplicationScoped
public class AlertDispatcher {

    private static final Logger LOG = Logger.getLogger(AlertDispatcher.class);
    private static final int BATCH = 50;

    private final AlertsConfig config;
    private final Leadership leadership;
    private final AlertStore store;
    private final AlertReceivers receivers;
    private final DeliveryMetrics metrics;
    private final HttpDelivery http;
    private final Clock clock;

    AlertDispatcher(
            AlertsConfig config,
            Leadership leadership,
            AlertStore store,
            AlertReceivers receivers,
            DeliveryMetrics metrics,
            Clock clock) {
        this.config = config;
        this.leadership = leadership;
        this.store = store;
        this.receivers = receivers;
        this.metrics = metrics;
        this.clock = clock;
        this.http = new HttpDelivery(config.delivery().timeout());
    }

    @Scheduled(
            every = "${lifeline.alerts.delivery.poll-interval:1s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scheduled() {
        if (config.enabled() && leadership.isLeader()) {
            deliverDue();
        }
    }

    /** Attempts every due notification once; returns how many were attempted. */
    public synchronized int deliverDue() {
        List<AlertStore.Pending> due;
        try {
            due = store.due(clock.instant(), BATCH);
        } catch (StoreUnavailableException e) {
            LOG.warnf("Could not read the alert outbox: %s", e.getMessage());
            return 0;
        }
        for (AlertStore.Pending p : due) {
            attempt(p);
        }
        return due.size();
    }

    private void attempt(AlertStore.Pending p) {
        int attempt = p.attempts() + 1;
        Receiver r = receivers.find(p.receiver());
        Instant now = clock.instant();
        if (r == null) {
            record(
                    p,
                    new Receiver(p.receiver(), p.kind(), java.net.URI.create("http://removed"), null),
                    attempt,
                    now,
                    DeliveryOutcome.FAILED,
                    new HttpDelivery.Result(null, "receiver no longer configured", 0),
                    null);
            return;
        }
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put(WebhookSignature.IDEMPOTENCY_HEADER, p.idempotencyKey());
        if (r.kind() == ReceiverKind.WEBHOOK && r.secret() != null) {
            String ts = Long.toString(now.getEpochSecond());
            headers.put(WebhookSignature.TIMESTAMP_HEADER, ts);
            headers.put(WebhookSignature.SIGNATURE_HEADER, WebhookSignature.sign(r.secret(), ts, p.body()));
        }
        HttpDelivery.Result res = http.post(r, p.body(), headers);
        Instant after = clock.instant();
        if (res.ok()) {
            record(p, r, attempt, after, DeliveryOutcome.DELIVERED, res, null);
        } else if (res.retryable() && attempt < config.delivery().maxAttempts()) {
            Instant next = after.plus(backoff(attempt, Backoff.retryAfter(res.retryAfter(), after)));
            record(p, r, attempt, after, DeliveryOutcome.RETRY, res, next);
        } else {
            LOG.warnf(
                    "Gave up delivering %s notification %s to %s after %d attempts: %s",
                    p.groupKey(), p.idempotencyKey(), r, attempt, res.error());
            record(p, r, attempt, after, DeliveryOutcome.FAILED, res, null);
        }
    }

    /**
     * initial × 2^(attempt−1), at most the maximum, less up to 10 % jitter so that retries of many groups spread
     * out; never sooner than the receiver's {@code Retry-After} ({@code retryAfter}, null without one), up to the
     * maximum.
     */
    Duration backoff(int attempt, Duration retryAfter) {
        return Backoff.fromSettings(
                        config.delivery().initialBackoff(), config.delivery().maxBackoff())
                .jitter(0.1)
                .delay(attempt, retryAfter);
    }

    Duration backoff(int attempt) {
        return backoff(attempt, null);
    }

    private void record(
            AlertStore.Pending p,
            Receiver r,
            int attempt,
            Instant at,
            DeliveryOutcome outcome,
            HttpDelivery.Result res,
            Instant next) {
        metrics.count(r.kind(), outcome);
        LOG.debugf(
                "Alert notification %s to %s, attempt %d: %s (%s)",
                p.idempotencyKey(), r, attempt, outcome.wire(), res.error() == null ? "ok" : res.error());
        try {
            store.recordAttempt(p.id(), r, attempt, at, outcome, res.status(), res.millis(), res.error(), next);
        } catch (StoreUnavailableException e) {
            // The notification stays pending with its old attempt count: it is sent again (at least once).
            LOG.warnf("Could not record delivery attempt %d of %s: %s", attempt, p.idempotencyKey(), e.getMessage());
        }
    }
}
