package io.lifeline.metrics;

import com.sun.management.OperatingSystemMXBean;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.config.MeterFilterReply;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.Map;

/**
 * Keeps {@code /metrics} clean under {@code promtool check metrics} (MetricsLintTest): every series with a HELP text
 * and named by Prometheus' conventions, the framework's as well as Lifeline's.
 *
 * <ul>
 *   <li>Framework meters registered without a description (Netty's allocator and event-loop gauges) get one: from
 *   {@link #DESCRIPTIONS}, else one made from the meter's name, so a meter a later framework version adds still
 *   has a HELP line.</li>
 *   <li>The text writer escapes a double quote in a {@code # HELP} line as {@code \"}, which the 0.0.4 text format
 *   does not allow there (only {@code \\} and {@code \n}): parsers of the text format reject the whole page. One
 *   binder's description has quotes, so descriptions lose their double quotes.</li>
 *   <li>{@code system.cpu.count} would be {@code system_cpu_count}, a gauge ending in {@code _count}, which Prometheus
 *   reserves for histograms and summaries: it is published as {@code system_cpus}.</li>
 *   <li>{@code process.cpu.time} is in nanoseconds ({@code process_cpu_time_ns_total}); it is replaced by the
 *   conventional {@code process_cpu_seconds_total}, in seconds.</li>
 * </ul>
 */
public class ExpositionFilters {

    /** HELP texts of framework meters that come without one. */
    static final Map<String, String> DESCRIPTIONS = Map.of(
            "netty.allocator.memory.used", "Memory used by Netty's buffer allocator, by allocator and memory type",
            "netty.allocator.memory.pinned", "Memory of Netty's buffer allocator pinned by buffers in use",
            "netty.allocator.pooled.arenas", "Arenas of Netty's pooled buffer allocator, by memory type",
            "netty.allocator.pooled.cache.size", "Cache size of Netty's pooled buffer allocator, by cache type",
            "netty.allocator.pooled.chunk.size", "Chunk size of Netty's pooled buffer allocator",
            "netty.allocator.pooled.threadlocal.caches", "Thread-local caches of Netty's pooled buffer allocator",
            "netty.eventexecutor.tasks.pending", "Tasks waiting in a Netty event loop's queue");

    static final String CPU_COUNT = "system.cpu.count";
    static final String CPU_TIME = "process.cpu.time";

    @Produces
    @Singleton
    MeterFilter conventionalExposition() {
        return new MeterFilter() {
            @Override
            public MeterFilterReply accept(Meter.Id id) {
                return CPU_TIME.equals(id.getName()) ? MeterFilterReply.DENY : MeterFilterReply.NEUTRAL;
            }

            @Override
            public Meter.Id map(Meter.Id id) {
                return described(id);
            }
        };
    }

    /** {@code process_cpu_seconds_total}, in place of the nanosecond {@code process.cpu.time}. */
    @Produces
    @Singleton
    MeterBinder processCpuSeconds() {
        return registry -> {
            if (ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os
                    && os.getProcessCpuTime() >= 0) {
                FunctionCounter.builder("process.cpu", os, o -> o.getProcessCpuTime() / 1e9)
                        .baseUnit("seconds")
                        .description("CPU time used by the Lifeline process")
                        .register(registry);
            }
        };
    }

    /** The id with a quote-free description (made up when it has none) and a conventional name. */
    static Meter.Id described(Meter.Id id) {
        String d = id.getDescription();
        String fixed = d == null || d.isBlank()
                ? DESCRIPTIONS.getOrDefault(id.getName(), fromName(id.getName()))
                : d.replace("\"", "");
        String name = CPU_COUNT.equals(id.getName()) ? "system.cpus" : id.getName();
        if (fixed.equals(d) && name.equals(id.getName())) {
            return id;
        }
        return new Meter.Id(name, Tags.of(id.getTagsAsIterable()), id.getBaseUnit(), fixed, id.getType());
    }

    /** {@code netty.eventexecutor.tasks.pending} → "Netty eventexecutor tasks pending". */
    static String fromName(String name) {
        String words = name.replace('.', ' ').replace('_', ' ');
        return words.isEmpty() ? "Unnamed meter" : words.substring(0, 1).toUpperCase(Locale.ROOT) + words.substring(1);
    }
}
