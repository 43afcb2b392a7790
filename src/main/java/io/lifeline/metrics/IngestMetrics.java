package io.lifeline.metrics;

import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.NotAppliedReason;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code lifeline_ingest_events_total{source,type}}: events accepted into the model, by source family and type.
 * The raw CloudEvents {@code source} is unbounded (one per exporter host, per cluster...), so the label is its
 * family: the first path segment ({@code dcgm/ip-10-0-3-17} → {@code dcgm}, {@code k8s/prod-east} → {@code k8s}).
 * At most {@link #MAX_FAMILIES} families get their own label value; the rest count as {@code other}.
 */
@Startup
@ApplicationScoped
public class IngestMetrics {

    /** Most distinct source families labelled; keeps the series count bounded whatever senders call themselves. */
    static final int MAX_FAMILIES = 32;
    /** Label value of sources beyond the cap or not shaped like a family name. */
    static final String OTHER = "other";

    private static final int MAX_FAMILY_LENGTH = 32;

    private final MeterRegistry registry;
    private final Map<String, Counter[]> byFamily = new ConcurrentHashMap<>();
    /** By reason, then by type ordinal: a bounded set (reasons × types), made when first needed. */
    private final Map<NotAppliedReason, Counter[]> notApplied = new ConcurrentHashMap<>();

    IngestMetrics(MeterRegistry registry) {
        this.registry = registry;
        counters(OTHER);
    }

    /** Counts events accepted into the model (called once per applied batch, on the store writer's thread). */
    public void accepted(List<Event> events) {
        String lastSource = null;
        Counter[] last = null;
        // Counted per type while the source repeats, then added once per counter: one increment per event was a
        // striped adder's update for each of them.
        int[] counts = new int[EventType.values().length];
        for (Event e : events) {
            // Batches usually come from one sender: skip the family lookup while the source repeats.
            if (last == null || !e.source().equals(lastSource)) {
                flush(last, counts);
                lastSource = e.source();
                last = counters(family(lastSource));
            }
            counts[e.type().ordinal()]++;
        }
        flush(last, counts);
    }

    /**
     * Counts an accepted event the model did not apply, by type and reason
     * ({@code lifeline_ingest_not_applied_events_total}).
     */
    public void notApplied(Event e, NotAppliedReason reason) {
        Counter[] byType = notApplied.computeIfAbsent(reason, r -> new Counter[EventType.values().length]);
        Counter c = byType[e.type().ordinal()];
        if (c == null) {
            c = Counter.builder("lifeline_ingest_not_applied_events")
                    .description(
                            "Events accepted but not applied to the model, by type and reason (stale, expired, ...)")
                    .tag("type", e.type().wireName())
                    .tag("reason", reason.wire())
                    .register(registry);
            byType[e.type().ordinal()] = c;
        }
        c.increment();
    }

    private static void flush(Counter[] counters, int[] counts) {
        if (counters == null) {
            return;
        }
        for (int t = 0; t < counts.length; t++) {
            if (counts[t] > 0) {
                counters[t].increment(counts[t]);
                counts[t] = 0;
            }
        }
    }

    private Counter[] counters(String family) {
        Counter[] c = byFamily.get(family);
        if (c != null) {
            return c;
        }
        if (byFamily.size() >= MAX_FAMILIES) {
            return byFamily.get(OTHER);
        }
        return byFamily.computeIfAbsent(family, this::register);
    }

    private Counter[] register(String family) {
        EventType[] types = EventType.values();
        Counter[] c = new Counter[types.length];
        for (EventType t : types) {
            c[t.ordinal()] = Counter.builder("lifeline_ingest_events")
                    .description("Events accepted into the model, by source family and type")
                    .tag("source", family)
                    .tag("type", t.wireName())
                    .register(registry);
        }
        return c;
    }

    /**
     * The family of a CloudEvents source: its first segment (before {@code /} or {@code :}), lower case, letters,
     * digits, {@code -}, {@code _} and {@code .} only; {@code other} when it has none of those or is too long.
     */
    static String family(String source) {
        if (source == null) {
            return OTHER;
        }
        int end = source.length();
        int start = 0;
        // "//host/path" style URIs: skip the leading slashes.
        while (start < end && source.charAt(start) == '/') {
            start++;
        }
        for (int i = start; i < source.length(); i++) {
            char ch = source.charAt(i);
            if (ch == '/' || ch == ':') {
                end = i;
                break;
            }
        }
        if (end == start || end - start > MAX_FAMILY_LENGTH) {
            return OTHER;
        }
        StringBuilder b = new StringBuilder(end - start);
        for (int i = start; i < end; i++) {
            char ch = Character.toLowerCase(source.charAt(i));
            boolean ok = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-' || ch == '_' || ch == '.';
            if (!ok) {
                return OTHER;
            }
            b.append(ch);
        }
        return b.toString();
    }
}
