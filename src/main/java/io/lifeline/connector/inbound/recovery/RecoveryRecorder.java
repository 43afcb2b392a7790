package io.lifeline.connector.inbound.recovery;

import io.lifeline.config.PoliciesConfig;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.policy.RecoveryLadder;
import io.lifeline.eventlog.Leadership;
import io.lifeline.eventlog.ShutdownOrder;
import io.lifeline.ingest.IngestGateway;
import io.lifeline.platform.Threads;
import io.lifeline.policy.DefaultPolicyService;
import io.lifeline.runtime.IngestOpened;
import io.lifeline.runtime.ModelRuntime;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Reception;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Writes what the recovery ladder decides and checks into the event log, on the leading replica, every
 * {@code lifeline.policies.interval}: advice is recorded (and applied to the model) before the policy runner, which
 * reads it from the model, requests any action for it; every replica and every rebuild holds the same advice. Event
 * ids are the advice's incident, rung and verdict, so a second leader writing the same round writes duplicates.
 */
@ApplicationScoped
public class RecoveryRecorder {

    /** The source of the events it writes. */
    static final String SOURCE = "lifeline/recovery";

    private static final Logger LOG = Logger.getLogger(RecoveryRecorder.class);

    private final ModelRuntime runtime;
    private final IngestGateway gateway;
    private final Leadership leadership;
    private final DefaultPolicyService policies;
    private final PoliciesConfig config;
    private final Clock clock;
    private ScheduledExecutorService timer;

    RecoveryRecorder(
            ModelRuntime runtime,
            IngestGateway gateway,
            Leadership leadership,
            DefaultPolicyService policies,
            PoliciesConfig config,
            Clock clock) {
        this.runtime = runtime;
        this.gateway = gateway;
        this.leadership = leadership;
        this.policies = policies;
        this.config = config;
        this.clock = clock;
    }

    @SuppressWarnings("FutureReturnValueIgnored") // record() catches and logs its own failures
    void onOpened(@Observes IngestOpened opened) {
        timer = Executors.newSingleThreadScheduledExecutor(Threads.daemon("lifeline-recovery"));
        long period = config.interval().toMillis();
        timer.scheduleWithFixedDelay(this::record, period, period, TimeUnit.MILLISECONDS);
    }

    /** One round: decide and check on the model, write the outcome, wait until the model applied it. */
    void record() {
        try {
            if (!leadership.isLeader()) {
                return;
            }
            Instant now = clock.instant();
            List<Event> events = runtime.read(m -> policies.engine().recovery(m.jobs(), m.fleet(), now).stream()
                            .map(r -> event(r, now))
                            .toList())
                    .get(30, TimeUnit.SECONDS);
            if (events.isEmpty()) {
                return;
            }
            gateway.submit(events)
                    .thenCompose(receipt -> receipt.applied())
                    .toCompletableFuture()
                    .get(30, TimeUnit.SECONDS);
            for (Event e : events) {
                LOG.infof("Recovery of %s: %s", e.subject(), describe(e.data()));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.warnf("Recovery round failed: %s", e.toString());
        }
    }

    static Event event(RecoveryLadder.Entry r, Instant now) {
        EventType type = r.data() instanceof JobData.RecoveryAdvised
                ? EventType.JOB_RECOVERY_ADVISED
                : EventType.JOB_RECOVERY_CHECKED;
        return new Event(r.id(), SOURCE, type, r.job(), now, r.data());
    }

    private static String describe(Object data) {
        if (data instanceof JobData.RecoveryAdvised a) {
            return (a.mode().equals("dry-run") ? "(dry run) " : "") + "rung " + a.rung() + " of " + a.incident()
                    + ": " + a.remedy() + (a.node() == null ? "" : " " + a.node()) + " (" + a.rule() + "), "
                    + a.expected();
        }
        JobData.RecoveryChecked c = (JobData.RecoveryChecked) data;
        return "rung " + c.rung() + " of " + c.incident() + " " + c.verdict()
                + (c.reason() == null ? "" : ": " + c.reason());
    }

    /** Stops with the other {@link ShutdownOrder#BACKGROUND} work, before the connection pool closes. */
    void onStop(@Observes(notifyObserver = Reception.IF_EXISTS) @Priority(ShutdownOrder.BACKGROUND) ShutdownEvent ev) {
        stop();
    }

    @PreDestroy
    void stop() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
