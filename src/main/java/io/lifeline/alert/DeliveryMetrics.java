package io.lifeline.alert;

import io.lifeline.alert.receiver.DeliveryOutcome;
import io.lifeline.alert.receiver.ReceiverKind;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.EnumMap;
import java.util.Map;

/**
 * {@code lifeline_webhook_deliveries_total{receiver_kind, outcome}}: every delivery attempt to every kind of
 * receiver, by outcome. All combinations are registered up front so the series exist before the first delivery.
 */
@ApplicationScoped
public class DeliveryMetrics {

    private final Map<ReceiverKind, Map<DeliveryOutcome, Counter>> counters = new EnumMap<>(ReceiverKind.class);

    DeliveryMetrics(MeterRegistry registry) {
        for (ReceiverKind k : ReceiverKind.values()) {
            Map<DeliveryOutcome, Counter> byOutcome = new EnumMap<>(DeliveryOutcome.class);
            for (DeliveryOutcome o : DeliveryOutcome.values()) {
                byOutcome.put(
                        o,
                        Counter.builder("lifeline_webhook_deliveries")
                                .description("Alert delivery attempts by receiver kind and outcome")
                                .tag("receiver_kind", k.wire())
                                .tag("outcome", o.wire())
                                .register(registry));
            }
            counters.put(k, byOutcome);
        }
    }

    public void count(ReceiverKind kind, DeliveryOutcome outcome) {
        counters.get(kind).get(outcome).increment();
    }

    /** Attempts counted so far (for tests and the health view). */
    public double total(ReceiverKind kind, DeliveryOutcome outcome) {
        return counters.get(kind).get(outcome).count();
    }
}
