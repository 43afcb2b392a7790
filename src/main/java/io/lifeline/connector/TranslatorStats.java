package io.lifeline.connector;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of one translator, cheap to update from any thread and easy to expose as metrics later:
 * <ul>
 *   <li>{@code received}: inputs offered (scrapes, documents, lines);</li>
 *   <li>{@code translated}: inputs understood at least in part (not refused as a whole); an input with nothing
 *       to report counts here too, so {@code received = translated + refused inputs};</li>
 *   <li>{@code rejected}: rejections, each with a reason code (an input can yield several, for example one per
 *       unknown instance of a notice);</li>
 *   <li>{@code events}: catalogue events produced.</li>
 * </ul>
 * Reason codes are a small fixed vocabulary per translator; at most {@value #MAX_REASONS} distinct codes are
 * kept, later ones are counted under {@code other} so that a bug cannot grow the map without bound.
 */
public final class TranslatorStats {

    public static final int MAX_REASONS = 64;
    public static final String OTHER = "other";

    private final String translator;
    private final LongAdder received = new LongAdder();
    private final LongAdder translated = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final LongAdder events = new LongAdder();
    private final ConcurrentHashMap<String, LongAdder> byReason = new ConcurrentHashMap<>();

    public TranslatorStats(String translator) {
        this.translator = translator;
    }

    /** Which translator these counters belong to (for a metric label). */
    public String translator() {
        return translator;
    }

    /** Counts one input and what came out of it; returns the translation unchanged. */
    public Translation record(Translation t) {
        received.increment();
        if (!t.isRejected()) {
            translated.increment();
        }
        events.add(t.events().size());
        for (Translation.Rejection r : t.rejections()) {
            rejected.increment();
            String key = byReason.containsKey(r.reason()) || byReason.size() < MAX_REASONS ? r.reason() : OTHER;
            byReason.computeIfAbsent(key, k -> new LongAdder()).increment();
        }
        return t;
    }

    public long received() {
        return received.sum();
    }

    public long translated() {
        return translated.sum();
    }

    public long rejected() {
        return rejected.sum();
    }

    public long events() {
        return events.sum();
    }

    /** Rejections by reason code, sorted by code. */
    public Map<String, Long> rejectionsByReason() {
        Map<String, Long> m = new TreeMap<>();
        byReason.forEach((k, v) -> m.put(k, v.sum()));
        return m;
    }

    /** A consistent-enough copy of all counters. */
    public Snapshot snapshot() {
        return new Snapshot(translator, received(), translated(), rejected(), events(), rejectionsByReason());
    }

    /**
     * The counters at one moment.
     *
     * @param translator          translator name
     * @param received            inputs offered
     * @param translated          inputs understood at least in part
     * @param rejected            rejections
     * @param events              events produced
     * @param rejectionsByReason  rejections by reason code
     */
    public record Snapshot(
            String translator,
            long received,
            long translated,
            long rejected,
            long events,
            Map<String, Long> rejectionsByReason) {
        public Snapshot {
            rejectionsByReason = Map.copyOf(rejectionsByReason);
        }
    }

    @Override
    public String toString() {
        return snapshot().toString();
    }
}
