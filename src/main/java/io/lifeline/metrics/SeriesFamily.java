package io.lifeline.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * One metric name whose series come and go with the model: each {@link #publish} call sets the values of the
 * series it names and removes the series it does not name any more (a job that ended and was forgotten leaves no
 * stale series behind). Values are read by the registry at scrape time from a volatile holder, so a scrape never
 * touches the model. Called from one thread (the snapshot publisher).
 */
final class SeriesFamily {

    /** Gauge or counter; a counter's published values must never decrease (the caller keeps them monotonic). */
    enum Kind { GAUGE, COUNTER }

    private final MeterRegistry registry;
    private final String name;
    private final String description;
    private final Kind kind;
    private final Map<List<Tag>, Series> series = new HashMap<>();

    SeriesFamily(MeterRegistry registry, String name, String description, Kind kind) {
        this.registry = registry;
        this.name = name;
        this.description = description;
        this.kind = kind;
    }

    /** Sets every series in {@code values} and removes the others. */
    void publish(Map<Tags, Double> values) {
        Map<List<Tag>, Double> wanted = new HashMap<>();
        values.forEach((tags, v) -> wanted.put(tags.stream().toList(), v));
        for (Iterator<Map.Entry<List<Tag>, Series>> it = series.entrySet().iterator(); it.hasNext();) {
            Map.Entry<List<Tag>, Series> e = it.next();
            if (!wanted.containsKey(e.getKey())) {
                registry.remove(e.getValue().meter);
                it.remove();
            }
        }
        wanted.forEach((tags, v) -> series.computeIfAbsent(tags, this::register).value = v);
    }

    /** Series published now. */
    int size() {
        return series.size();
    }

    String name() {
        return name;
    }

    private Series register(List<Tag> tags) {
        Series s = new Series();
        if (kind == Kind.GAUGE) {
            s.meter = Gauge.builder(name, s, x -> x.value).description(description).tags(tags).register(registry);
        } else {
            s.meter = FunctionCounter.builder(name, s, x -> x.value).description(description).tags(tags)
                    .register(registry);
        }
        return s;
    }

    /** A value holder the registry reads at scrape time. */
    private static final class Series {
        private volatile double value;
        private Meter meter;
    }
}
