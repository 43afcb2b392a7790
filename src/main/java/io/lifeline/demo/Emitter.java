package io.lifeline.demo;

import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventData;
import io.lifeline.domain.event.EventType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns what happens in the simulation into catalogue events: ids unique per run, sources named after the
 * component that would report the event in a real fleet ({@code lifeline-demo/<component>}), the current
 * simulated time, and the subject the catalogue asks for.
 */
final class Emitter {

    static final String CLOUD = "lifeline-demo/cloud";
    static final String KUBELET = "lifeline-demo/kubelet";
    /** Changes Lifeline's own cluster actions made (cordon, eviction), as the API server reports them. */
    static final String API_SERVER = "lifeline-demo/kube-apiserver";

    static final String TERMINATION_HANDLER = "lifeline-demo/node-termination-handler";
    static final String DCGM = "lifeline-demo/dcgm-exporter";
    static final String SCHEDULER = "lifeline-demo/kueue";
    static final String OPERATOR = "lifeline-demo/training-operator";
    static final String AGENT = "lifeline-demo/torchrun";
    static final String TRAINER = "lifeline-demo/trainer";

    private final String idPrefix;
    private final Agenda agenda;
    /** How much later than the simulated time events are stamped: the time the fleet stood still (see resume). */
    private long pausedMillis;

    private long counter;
    private long cachedMillis = Long.MIN_VALUE;
    private Instant cachedInstant;
    private List<Event> out = new ArrayList<>();

    Emitter(String runTag, Agenda agenda) {
        this.idPrefix = runTag + "-";
        this.agenda = agenda;
    }

    void emit(String source, EventType type, String subject, EventData data) {
        long now = stamp(agenda.now());
        if (now != cachedMillis) {
            cachedMillis = now;
            cachedInstant = Instant.ofEpochMilli(now);
        }
        out.add(new Event(idPrefix + counter++, source, type, subject, cachedInstant, data));
    }

    /** The time an event of simulated time {@code simMillis} carries. */
    long stamp(long simMillis) {
        return simMillis + pausedMillis;
    }

    /** The simulated time of an event time. */
    long unstamp(long eventMillis) {
        return eventMillis - pausedMillis;
    }

    /** The fleet stood still for {@code millis} more: later events are stamped that much later. */
    void paused(long millis) {
        pausedMillis += millis;
        cachedMillis = Long.MIN_VALUE;
    }

    /** Hands over the events emitted since the last call. */
    List<Event> drain() {
        List<Event> events = out;
        out = new ArrayList<>(Math.max(16, events.size()));
        return events;
    }

    long emitted() {
        return counter;
    }
}
