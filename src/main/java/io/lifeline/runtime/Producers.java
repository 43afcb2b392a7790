package io.lifeline.runtime;

import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.ingest.codec.EventCodec;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.EnumMap;
import java.util.Map;

/** Beans for plain classes that the core and the edges share. */
public class Producers {

    @Produces
    @Singleton
    Clock clock() {
        return Clock.systemUTC();
    }

    @Produces
    @Singleton
    EventCodec codec() {
        return new EventCodec();
    }

    @Produces
    @Singleton
    EventApplier model() {
        return new CountingApplier();
    }

    /** Counts applied events by type until the domain model is plugged in. */
    static final class CountingApplier implements EventApplier {
        final Map<EventType, Long> counts = new EnumMap<>(EventType.class);

        @Override
        public void apply(Event event) {
            counts.merge(event.type(), 1L, Long::sum);
        }
    }
}
