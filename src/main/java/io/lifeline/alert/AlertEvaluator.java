package io.lifeline.alert;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lifeline.alert.receiver.Receiver;
import io.lifeline.alert.receiver.ReceiverKind;
import io.lifeline.alert.store.AlertStore;
import io.lifeline.alert.store.SilenceStore;
import io.lifeline.domain.alert.Alert;
import io.lifeline.domain.alert.AlertEngine;
import io.lifeline.domain.alert.AlertGroups;
import io.lifeline.domain.alert.AlertRule;
import io.lifeline.domain.alert.AlertSnapshot;
import io.lifeline.domain.alert.Evaluation;
import io.lifeline.domain.alert.GroupNotification;
import io.lifeline.domain.alert.Silence;
import io.lifeline.eventlog.Leadership;
import io.lifeline.eventlog.StoreUnavailableException;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Runs the alert rules every {@code lifeline.alerts.evaluation-interval} on the replica that leads alerting, as a
 * checklist: take a snapshot of the model, load the silences, evaluate, store the changes together with the
 * notifications they call for (the outbox the {@link AlertDispatcher} delivers from), push to Alertmanager.
 */
@ApplicationScoped
public class AlertEvaluator {

    private static final Logger LOG = Logger.getLogger(AlertEvaluator.class);
    private static final Duration CLEANUP_EVERY = Duration.ofHours(1);

    private final AlertsConfig config;
    private final Leadership leadership;
    private final AlertSnapshots snapshots;
    private final AlertStore store;
    private final SilenceStore silences;
    private final AlertReceivers receivers;
    private final AlertPayloads payloads;
    private final AlertmanagerPusher alertmanager;
    private final Clock clock;
    private AlertEngine engine;
    private Instant lastCleanup = Instant.EPOCH;

    AlertEvaluator(
            AlertsConfig config,
            Leadership leadership,
            AlertSnapshots snapshots,
            AlertStore store,
            SilenceStore silences,
            AlertReceivers receivers,
            DeliveryMetrics metrics,
            ObjectMapper json,
            Clock clock) {
        this.config = config;
        this.leadership = leadership;
        this.snapshots = snapshots;
        this.store = store;
        this.silences = silences;
        this.receivers = receivers;
        this.clock = clock;
        this.payloads = new AlertPayloads(json, config.externalUrl());
        this.alertmanager = new AlertmanagerPusher(
                config,
                receivers,
                payloads,
                store,
                metrics,
                new HttpDelivery(config.delivery().timeout()));
    }

    @Scheduled(
            every = "${lifeline.alerts.evaluation-interval:15s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scheduled() {
        if (config.enabled()) {
            evaluateNow();
        }
    }

    /** Evaluates once now, if this replica leads alerting. Empty when it does not, or the store failed. */
    public synchronized Optional<Evaluation> evaluateNow() {
        if (!leadership.isLeader()) {
            engine = null;
            return Optional.empty();
        }
        Instant now = clock.instant();
        try {
            AlertEngine e = engine();
            AlertSnapshot snapshot =
                    snapshots.take(now, AlertRulesFactory.longestWindow(config, AlertRule.ACTION_FAILED));
            List<Silence> muting = silences.list(now, false, config.maxSilences());
            Evaluation ev = e.evaluate(snapshot, muting, now);
            store.recordEvaluation(ev.changes(), activeOnly(ev), outbox(ev), now);
            alertmanager.push(ev);
            if (ev.overflowed() > 0) {
                LOG.warnf(
                        "%d alert conditions dropped: %d alerts are active already (lifeline.alerts.max-alerts)",
                        ev.overflowed(), config.maxAlerts());
            }
            cleanup(now);
            return Optional.of(ev);
        } catch (RuntimeException ex) {
            // The engine may be ahead of the store now: rebuild it from the store at the next pass.
            engine = null;
            LOG.warnf("Alert evaluation failed, retrying at the next interval: %s", ex.toString());
            return Optional.empty();
        }
    }

    private AlertEngine engine() {
        if (engine == null) {
            AlertEngine e = new AlertEngine(AlertRulesFactory.from(config), config.maxAlerts(), config.maxResolved());
            e.restore(store.loadAlerts());
            engine = e;
        }
        return engine;
    }

    private static List<Alert> activeOnly(Evaluation ev) {
        return ev.alerts().stream().filter(a -> a.state().active()).toList();
    }

    /** One outbox row per group notification and webhook or Slack receiver. */
    private List<AlertStore.Outgoing> outbox(Evaluation ev) {
        List<AlertStore.Outgoing> out = new ArrayList<>();
        List<GroupNotification> groups = AlertGroups.notifications(ev);
        if (groups.isEmpty()) {
            return out;
        }
        for (Receiver r : receivers.all()) {
            for (GroupNotification g : groups) {
                if (r.kind() == ReceiverKind.WEBHOOK) {
                    out.add(new AlertStore.Outgoing(
                            r, g.idempotencyKey(), g.groupKey(), g.status(), payloads.webhook(g, r.name())));
                } else if (r.kind() == ReceiverKind.SLACK) {
                    out.add(new AlertStore.Outgoing(
                            r, g.idempotencyKey(), g.groupKey(), g.status(), payloads.slack(g)));
                }
            }
        }
        return out;
    }

    private void cleanup(Instant now) {
        if (now.isBefore(lastCleanup.plus(CLEANUP_EVERY))) {
            return;
        }
        lastCleanup = now;
        try {
            Instant before = now.minus(config.retention());
            store.deleteOlderThan(before);
            silences.deleteEndedBefore(before);
        } catch (StoreUnavailableException e) {
            LOG.warnf("Could not delete old alert records: %s", e.getMessage());
        }
    }
}
