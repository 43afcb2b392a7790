package io.lifeline.ingest.kafka;

import io.lifeline.codec.EventCodec;
import io.lifeline.codec.InvalidEventException;
import io.lifeline.domain.event.Event;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * Turns a Kafka record into an event: CloudEvents binary mode (attributes in {@code ce_*} headers, data in the
 * value) or structured mode (the whole CloudEvent as the JSON value).
 */
final class RecordDecoder {

    /** The CloudEvents Kafka binding: attributes in {@code ce_} headers, the data's media type in content-type. */
    static final String PREFIX = "ce_";

    private static final String SPECVERSION = PREFIX + "specversion";
    private static final String CONTENT_TYPE = "content-type";

    private final EventCodec codec;

    RecordDecoder(EventCodec codec) {
        this.codec = codec;
    }

    Event decode(ConsumerRecord<byte[], byte[]> record) {
        if (record.value() == null) {
            throw new InvalidEventException("record has no value (tombstone)");
        }
        Event e = decodeValue(record);
        if (e.type().internal()) {
            throw new InvalidEventException(
                    "type " + e.type().wireName() + " is written by Lifeline itself and not accepted from producers");
        }
        return e;
    }

    private Event decodeValue(ConsumerRecord<byte[], byte[]> record) {
        Headers h = record.headers();
        if (h.lastHeader(SPECVERSION) != null) {
            List<EventCodec.Header> headers = new ArrayList<>();
            for (Header header : h) {
                headers.add(new EventCodec.Header(header.key(), header.value()));
            }
            Header contentType = h.lastHeader(CONTENT_TYPE);
            return codec.decodeBinary(
                    PREFIX,
                    headers,
                    contentType == null ? null : new EventCodec.Header(CONTENT_TYPE, contentType.value()),
                    record.value());
        }
        return codec.decodeStructured(record.value());
    }
}
