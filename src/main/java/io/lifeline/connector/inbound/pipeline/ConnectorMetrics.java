package io.lifeline.connector.inbound.pipeline;

import io.lifeline.connector.Translation;
import io.lifeline.connector.TranslatorStats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Exports every inbound connector's {@link TranslatorStats} as Prometheus counters:
 * {@code lifeline_connector_received_total{connector}}, {@code lifeline_connector_translated_total{connector}},
 * {@code lifeline_connector_events_total{connector}} and {@code lifeline_connector_rejected_total{connector,reason}}.
 * The counters read the stats objects (function counters), so translators keep counting on their own and nothing is
 * counted twice. Reason codes are a small fixed vocabulary per translator, capped by {@link TranslatorStats}
 * ({@value TranslatorStats#MAX_REASONS} per connector, the rest under {@code other}), so the label stays bounded.
 * Rejections made after translation (an event dated too far in the future) are counted here directly.
 */
@ApplicationScoped
public class ConnectorMetrics {

    /** Rejected after translation: the event is dated beyond the allowed clock skew. */
    public static final String TIME_IN_FUTURE = "time_in_future";

    private final MeterRegistry registry;
    private final Map<String, TranslatorStats> byConnector = new ConcurrentHashMap<>();
    private final Set<String> reasonMeters = ConcurrentHashMap.newKeySet();
    private final Map<String, LongAdder> ingestRejections = new ConcurrentHashMap<>();

    ConnectorMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Exports a translator's counters under its own name; a second registration of the same name is ignored. */
    public void register(TranslatorStats stats) {
        if (byConnector.putIfAbsent(stats.translator(), stats) != null) {
            return;
        }
        String c = stats.translator();
        FunctionCounter.builder("lifeline_connector_received", stats, s -> s.received())
                .description("Inputs offered to an inbound connector (scrapes, documents, lines, objects)")
                .tag("connector", c)
                .register(registry);
        FunctionCounter.builder("lifeline_connector_translated", stats, s -> s.translated())
                .description("Inputs a connector understood at least in part")
                .tag("connector", c)
                .register(registry);
        FunctionCounter.builder("lifeline_connector_events", stats, s -> s.events())
                .description("Catalogue events a connector produced")
                .tag("connector", c)
                .register(registry);
        stats.rejectionsByReason().keySet().forEach(r -> reasonMeter(stats, r));
    }

    /** Records one input's translation in {@code stats} and makes sure each rejection reason has its meter. */
    public Translation record(TranslatorStats stats, Translation t) {
        stats.record(t);
        observe(stats, t);
        return t;
    }

    /** Makes sure each rejection reason of an already recorded translation has its meter. */
    public void observe(TranslatorStats stats, Translation t) {
        for (Translation.Rejection r : t.rejections()) {
            reasonMeter(stats, r.reason());
        }
    }

    /** Counts an event dropped after translation, for example by the future-skew guard. */
    public void rejectedAtIngest(String connector, String reason) {
        ingestRejections
                .computeIfAbsent(connector + '\u0000' + reason, k -> {
                    LongAdder n = new LongAdder();
                    // Same meter type as the translators' rejection counters, so that the family stays one counter.
                    FunctionCounter.builder("lifeline_connector_rejected", n, LongAdder::sum)
                            .description("Inputs or events a connector dropped, by reason")
                            .tag("connector", connector)
                            .tag("reason", reason)
                            .register(registry);
                    return n;
                })
                .increment();
    }

    /** The registered stats of a connector, or null. */
    public TranslatorStats stats(String connector) {
        return byConnector.get(connector);
    }

    private void reasonMeter(TranslatorStats stats, String reason) {
        String c = stats.translator();
        // A reason the stats folded into "other" (beyond the cap) is exported as "other".
        String r = stats.rejectionsByReason().containsKey(reason) ? reason : TranslatorStats.OTHER;
        if (!reasonMeters.add(c + '\u0000' + r)) {
            return;
        }
        FunctionCounter.builder(
                        "lifeline_connector_rejected",
                        stats,
                        s -> s.rejectionsByReason().getOrDefault(r, 0L))
                .description("Inputs or events a connector dropped, by reason")
                .tag("connector", c)
                .tag("reason", r)
                .register(registry);
    }
}
