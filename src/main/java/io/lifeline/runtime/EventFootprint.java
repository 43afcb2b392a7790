package io.lifeline.runtime;

import io.lifeline.domain.event.Event;
import java.lang.reflect.RecordComponent;
import java.util.List;

/**
 * An estimate of the heap an event holds while it waits for the model: the envelope's strings measured, its data
 * costed once per record class from its components. An estimate, not a measurement (strings inside the data and
 * lists are given a typical size): it is what bounds the queue in bytes, so it errs on the large side.
 */
final class EventFootprint {

    /** The event record, its {@code Instant} and the queue's reference to it. */
    private static final int ENVELOPE = 16 + 6 * 4 + 24 + 8;

    private static final int STRING = 24 + 16;
    /** A string inside the data whose length is not measured (uuids, names, messages). */
    private static final int DATA_STRING = STRING + 48;

    private static final int BOXED = 16 + 4;
    private static final int OTHER = 64;
    /** A batch's own task, list and counters. */
    static final int PER_BATCH = 128;

    private static final ClassValue<Integer> DATA = new ClassValue<>() {
        @Override
        protected Integer computeValue(Class<?> type) {
            return dataBytes(type);
        }
    };

    private EventFootprint() {}

    /** Estimated bytes of one event. */
    static long of(Event e) {
        return ENVELOPE
                + chars(e.id())
                + chars(e.source())
                + chars(e.subject())
                + DATA.get(e.data().getClass());
    }

    /** Estimated bytes of a batch of events (a null, a stored row that no longer decodes, costs nothing). */
    static long of(List<Event> events) {
        long total = PER_BATCH;
        for (Event e : events) {
            if (e != null) {
                total += of(e);
            }
        }
        return total;
    }

    private static long chars(String s) {
        // Compact strings: one byte a character for Latin-1, which event identities are in practice.
        return (long) STRING + s.length();
    }

    private static int dataBytes(Class<?> type) {
        int bytes = 16;
        RecordComponent[] components = type.getRecordComponents();
        if (components == null) {
            return OTHER;
        }
        for (RecordComponent c : components) {
            Class<?> t = c.getType();
            if (t.isPrimitive()) {
                bytes += 8;
            } else if (t == String.class) {
                bytes += 4 + DATA_STRING;
            } else if (Number.class.isAssignableFrom(t) || t == Boolean.class) {
                bytes += 4 + BOXED;
            } else if (t.isEnum()) {
                bytes += 4;
            } else {
                bytes += 4 + OTHER;
            }
        }
        return bytes;
    }
}
