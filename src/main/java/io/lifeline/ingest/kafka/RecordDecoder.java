package io.lifeline.ingest.kafka;

import io.lifeline.codec.EventCodec;
import io.lifeline.codec.InvalidEventException;
import io.lifeline.domain.event.Event;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * Turns a Kafka record into an event: CloudEvents binary mode (attributes in {@code ce_*} headers, data in the
 * value) or structured mode (the whole CloudEvent as the JSON value).
 */
final class RecordDecoder {

    private final EventCodec codec;

    RecordDecoder(EventCodec codec) {
        this.codec = codec;
    }

    Event decode(ConsumerRecord<byte[], byte[]> record) {
        if (record.value() == null) {
            throw new InvalidEventException("record has no value (tombstone)");
        }
        Headers h = record.headers();
        String specversion = header(h, "ce_specversion");
        if (specversion != null) {
            if (!"1.0".equals(specversion)) {
                throw new InvalidEventException("ce_specversion: only \"1.0\" is supported, got '" + specversion + "'");
            }
            return codec.decodeAttributes(header(h, "ce_id"), header(h, "ce_source"), header(h, "ce_type"),
                    header(h, "ce_subject"), header(h, "ce_time"), codec.parse(record.value()));
        }
        return codec.decodeEvent(codec.parse(record.value()));
    }

    private static String header(Headers headers, String name) {
        Header h = headers.lastHeader(name);
        return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
