package io.lifeline.connector;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.codec.EventCodec;
import io.lifeline.domain.event.Event;
import java.util.List;

/**
 * Checks that translated events survive the CloudEvents codec unchanged, i.e. respect the wire contract; the time to
 * the microsecond, which is what the codec (like the event log) keeps.
 */
public final class EventContract {

    private static final EventCodec CODEC = new EventCodec();

    private EventContract() {}

    public static void assertRoundTrips(List<Event> events) {
        for (Event e : events) {
            Event back = CODEC.decodeEvent(CODEC.encodeEvent(e));
            Event expected = new Event(
                    e.id(),
                    e.source(),
                    e.type(),
                    e.subject(),
                    e.time().truncatedTo(java.time.temporal.ChronoUnit.MICROS),
                    e.data());
            assertThat(back).as("codec round trip of %s", e.id()).isEqualTo(expected);
        }
    }
}
