package io.lifeline.ingest;

import io.lifeline.codec.Refusal;
import io.lifeline.domain.event.Event;
import java.util.List;
import java.util.function.IntFunction;
import org.jboss.logging.Logger;

/**
 * The record of why an event was not applied when nobody waits for an answer (a Kafka record, the events a connector
 * makes of what it watches or scrapes): one line per event, naming where it came from, its id, subject and the
 * reason, beside the {@code lifeline_ingest_not_applied_events_total} count. Lifecycle events are logged at INFO;
 * telemetry (a sample older than the newest one) only at DEBUG, as it comes by the thousand and the next one replaces
 * it.
 */
public final class NotAppliedLog {

    private static final Logger LOG = Logger.getLogger(NotAppliedLog.class);

    private NotAppliedLog() {}

    /**
     * Logs every event of {@code applied} the model did not apply.
     *
     * @param from       where the events came from ({@code kafka}, {@code kube}, {@code dcgm} ...)
     * @param submitted  the submitted list the receipt's indexes refer to
     * @param where      what to call the item at an index (a record's topic, partition and offset), or null
     */
    public static void record(
            String from, List<Event> submitted, IngestReceipt.Applied applied, IntFunction<String> where) {
        for (Refusal n : applied.notApplied()) {
            Event e = submitted.get(n.index());
            Logger.Level level = e.isTelemetry() ? Logger.Level.DEBUG : Logger.Level.INFO;
            if (LOG.isEnabled(level)) {
                LOG.logf(
                        level,
                        "Not applied (%s%s): %s %s of %s: %s: %s",
                        from,
                        where == null ? "" : " " + where.apply(n.index()),
                        e.type().wireName(),
                        e.id(),
                        e.subject(),
                        n.reason(),
                        n.detail());
            }
        }
    }
}
