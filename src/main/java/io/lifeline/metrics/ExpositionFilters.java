package io.lifeline.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.MeterFilter;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * Keeps the exposition readable by every Prometheus text-format parser. The text writer escapes a double quote in
 * a {@code # HELP} line as {@code \"}, which the 0.0.4 text format does not allow there (only {@code \\} and
 * {@code \n}): {@code promtool check metrics} and servers that scrape the text format reject the whole page. One
 * binder's description has quotes ({@code process.cpu.time}), so descriptions lose their double quotes.
 */
public class ExpositionFilters {

    @Produces
    @Singleton
    MeterFilter plainDescriptions() {
        return new MeterFilter() {
            @Override
            public Meter.Id map(Meter.Id id) {
                String d = id.getDescription();
                if (d == null || d.indexOf('"') < 0) {
                    return id;
                }
                return new Meter.Id(id.getName(), Tags.of(id.getTagsAsIterable()),
                        id.getBaseUnit(), d.replace("\"", ""), id.getType());
            }
        };
    }
}
