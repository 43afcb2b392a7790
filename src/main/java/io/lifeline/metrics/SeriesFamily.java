package io.lifeline.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * One metric name whose series come and go with the model: each {@link #publish} call sets the values of the
 * series it names and removes the series it does not name any more (a job that ended and was forgotten leaves no
 * stale series behind). Values are read by the registry at scrape time from a volatile holder, so a scrape never
 * touches the model. Called from one thread (the snapshot publisher).
 */
public final class SeriesFamily {

    /** Gauge or counter; a counter's published values must never decrease (the caller keeps them monotonic). */
    public enum Kind {
        GAUGE,
        COUNTER
    }

    private final MeterRegistry registry;
    private final String name;
    private final String description;
    private final Kind kind;
    private final Map<Tags, Series> series = new HashMap<>();
    /** How many times {@link #publish} ran: a series not touched by the latest run is stale. */
    private long generation;

    public SeriesFamily(MeterRegistry registry, String name, String description, Kind kind) {
        this.registry = registry;
        this.name = name;
        this.description = description;
        this.kind = kind;
    }

    /**
     * Sets every series in {@code values} and removes the others. One look-up per series and no copy of the tags:
     * with per-GPU series this runs over tens of thousands of them every refresh.
     */
    public void publish(Map<Tags, Double> values) {
        long g = ++generation;
        values.forEach((tags, v) -> {
            Series s = series.get(tags);
            if (s == null) {
                s = register(tags);
                series.put(tags, s);
            }
            s.value = v;
            s.generation = g;
        });
        if (series.size() != values.size()) {
            for (Iterator<Series> it = series.values().iterator(); it.hasNext(); ) {
                Series s = it.next();
                if (s.generation != g) {
                    registry.remove(s.meter);
                    it.remove();
                }
            }
        }
    }

    /** Series published now. */
    int size() {
        return series.size();
    }

    String name() {
        return name;
    }

    private Series register(Tags tags) {
        Series s = new Series();
        if (kind == Kind.GAUGE) {
            s.meter = Gauge.builder(name, s, x -> x.value)
                    .description(description)
                    .tags(tags)
                    .register(registry);
        } else {
            s.meter = FunctionCounter.builder(name, s, x -> x.value)
                    .description(description)
                    .tags(tags)
                    .register(registry);
        }
        return s;
    }

    /** A value holder the registry reads at scrape time. */
    private static final class Series {
        private volatile double value;
        private long generation;
        private Meter meter;
    }
}
