package io.lifeline.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;

/**
 * Removes Lifeline's meters when the application stops. Gauges and function counters hold the beans they read;
 * a registry that outlives the application (tests start it several times in one JVM) would otherwise keep reading
 * stopped beans, and would hand a restarted application the old meters instead of registering its own.
 */
@ApplicationScoped
class MeterCleanup {

    private final MeterRegistry registry;

    MeterCleanup(MeterRegistry registry) {
        this.registry = registry;
    }

    void onStop(@Observes ShutdownEvent event) {
        for (Meter m : List.copyOf(registry.getMeters())) {
            if (m.getId().getName().startsWith("lifeline_")) {
                registry.remove(m);
            }
        }
    }
}
