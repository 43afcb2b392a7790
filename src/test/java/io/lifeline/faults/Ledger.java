package io.lifeline.faults;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Every lifecycle event the suite produced, by id: what it is, how it was sent, and whether Lifeline must apply it or
 * reject it. An event counts as produced once the broker acknowledged it (or Lifeline answered its HTTP request);
 * the checks then account for each one.
 */
final class Ledger {

    /** What an event is, which says how to find it applied in a replica's model. */
    enum Kind {
        /** {@code node.registered}: the node is listed. */
        NODE,
        /** {@code trainer.checkpoint.completed}: the checkpoint's timeline entry, exactly once. */
        CHECKPOINT,
        /** Any other lifecycle event: stored once in the log, followed by both replicas. */
        OTHER,
        /** Not a valid event: dead-lettered (Kafka) or refused (HTTP) with a reason. */
        POISON
    }

    /** One produced event. {@code detail} is the checkpoint id of a CHECKPOINT. */
    record Entry(String scenario, String id, String source, Kind kind, String subject, String detail, String via) {
        boolean mustApply() {
            return kind != Kind.POISON;
        }
    }

    private final Map<String, Entry> produced = new ConcurrentHashMap<>();
    private final Map<String, String> refusedOverHttp = new ConcurrentHashMap<>();
    private final AtomicLong telemetry = new AtomicLong();
    private final AtomicLong resent = new AtomicLong();
    private final AtomicLong sendFailures = new AtomicLong();

    void produced(Entry e) {
        if (produced.putIfAbsent(e.id(), e) != null) {
            resent.incrementAndGet();
        }
    }

    void refusedOverHttp(String id, String reason) {
        refusedOverHttp.put(id, reason);
    }

    String httpRefusal(String id) {
        return refusedOverHttp.get(id);
    }

    void telemetrySent(int n) {
        telemetry.addAndGet(n);
    }

    void sendFailed() {
        sendFailures.incrementAndGet();
    }

    long telemetry() {
        return telemetry.get();
    }

    long sendFailures() {
        return sendFailures.get();
    }

    /** The events one scenario produced. */
    List<Entry> of(String scenario) {
        List<Entry> out = new ArrayList<>();
        for (Entry e : produced.values()) {
            if (e.scenario().equals(scenario)) {
                out.add(e);
            }
        }
        return out;
    }

    List<Entry> all() {
        return new ArrayList<>(produced.values());
    }
}
