package io.lifeline.connector.inbound.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.lifeline.codec.Rfc3339;
import io.lifeline.connector.Translation;
import io.lifeline.connector.TranslatorStats;
import io.lifeline.connector.inbound.pipeline.ConnectorMetrics;
import io.lifeline.connector.inbound.pipeline.ConnectorSink;
import io.lifeline.domain.event.Event;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.jboss.logging.Logger;

/**
 * What the watchers share: the event source ({@code kubernetes/<cluster>}), the clock, and the way translations
 * leave (counted, then queued for the pipeline through the {@link ConnectorSink}). Also the helpers that make
 * event ids deterministic: an id is built from the object's kind and uid plus its resourceVersion or the
 * transition time of the condition it reports, so a resync or a restart re-derives the same id and the
 * pipeline's (source, id) dedupe drops the repeat.
 */
final class KubeContext {

    private static final Logger LOG = Logger.getLogger(KubeContext.class);
    private static final int MAX_TEXT = 1000;
    /** Rejection reason of an object without metadata.name. */
    static final String UNNAMED_OBJECT = "unnamed_object";

    /** Where events leave: {@link ConnectorSink#send} in the application, a list in tests. */
    @FunctionalInterface
    interface Output {
        void send(String connector, List<Event> events);
    }

    final String source;
    final Clock clock;
    private final Output out;
    private final ConnectorMetrics metrics;

    KubeContext(String cluster, Clock clock, Output out, ConnectorMetrics metrics) {
        this.source = "kubernetes/" + Objects.requireNonNull(cluster, "cluster");
        this.clock = clock;
        this.out = out;
        this.metrics = metrics;
    }

    Instant now() {
        return clock.instant();
    }

    /** Exports a watcher's counters. */
    void register(TranslatorStats stats) {
        if (metrics != null) {
            metrics.register(stats);
        }
    }

    /** Counts a translation and queues its events. */
    void emit(TranslatorStats stats, Translation t) {
        if (metrics != null) {
            metrics.record(stats, t);
        } else {
            stats.record(t);
        }
        for (Translation.Rejection r : t.rejections()) {
            LOG.debugf("%s: dropped: %s (%s)", stats.translator(), r.reason(), r.detail());
        }
        if (!t.events().isEmpty()) {
            out.send(stats.translator(), t.events());
        }
    }

    /**
     * Counts each object that lacks the name every object from the API server has (metadata.name) as rejected
     * ({@code unnamed_object}) and says whether all are named, so that a handler never translates such an object.
     */
    boolean named(TranslatorStats stats, HasMetadata... objects) {
        for (HasMetadata o : objects) {
            if (!isNamed(o)) {
                emit(
                        stats,
                        Translation.rejected(
                                UNNAMED_OBJECT, (o == null ? "an object" : o.getKind()) + " without metadata.name"));
                return false;
            }
        }
        return true;
    }

    /** Whether an object has metadata with a name. */
    static boolean isNamed(HasMetadata o) {
        return o != null
                && o.getMetadata() != null
                && o.getMetadata().getName() != null
                && !o.getMetadata().getName().isBlank();
    }

    /** The object's uid, or namespace/name when it has none. */
    static String uid(HasMetadata o) {
        ObjectMeta m = o.getMetadata();
        if (m.getUid() != null && !m.getUid().isBlank()) {
            return m.getUid();
        }
        return m.getNamespace() == null ? m.getName() : m.getNamespace() + "/" + m.getName();
    }

    static String resourceVersion(HasMetadata o) {
        String rv = o.getMetadata().getResourceVersion();
        return rv == null ? "0" : rv;
    }

    /** Whether an update is a resync (the same object delivered again). */
    static boolean sameVersion(HasMetadata a, HasMetadata b) {
        String x = a.getMetadata().getResourceVersion();
        return x != null && x.equals(b.getMetadata().getResourceVersion());
    }

    /** The job of a namespaced object: {@code namespace/name}. */
    static String job(String namespace, String name) {
        return (namespace == null || namespace.isBlank() ? "default" : namespace) + "/" + name;
    }

    /** An RFC 3339 time as Kubernetes writes it, or {@code fallback} when absent or unreadable. */
    static Instant time(String rfc3339, Instant fallback) {
        Instant t = Rfc3339.parseOrNull(rfc3339);
        return t == null ? fallback : t;
    }

    /** The creation time of an object, or {@code fallback}. */
    static Instant created(HasMetadata o, Instant fallback) {
        return time(o.getMetadata().getCreationTimestamp(), fallback);
    }

    /** Text shortened to what an event field should carry. */
    static String text(String s) {
        if (s == null || s.isBlank()) {
            return null;
        }
        String t = s.strip();
        return t.length() <= MAX_TEXT ? t : t.substring(0, MAX_TEXT - 3) + "...";
    }

    /** {@code reason: message}, either part optional. */
    static String reason(String reason, String message) {
        if (reason == null || reason.isBlank()) {
            return text(message);
        }
        return text(message == null || message.isBlank() ? reason : reason + ": " + message);
    }
}
