package io.lifeline.ingest.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lifeline.codec.EventCodec;
import io.lifeline.codec.InvalidEventException;
import io.lifeline.domain.event.Event;
import io.lifeline.testing.ConformanceSuite;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * The record decoder on its own, over every case of the CloudEvents conformance suite in both Kafka modes, and on
 * binary-mode headers no JSON document can carry (raw bytes). The same records through a real broker:
 * {@code CloudEventsConformanceTest}.
 */
class RecordDecoderTest {

    private final RecordDecoder decoder = new RecordDecoder(new EventCodec());
    private final ConformanceSuite suite = new ConformanceSuite("conformance-node", "unit");

    private static ConsumerRecord<byte[], byte[]> record(byte[] value) {
        return new ConsumerRecord<>("lifeline.events", 0, 0L, "k".getBytes(StandardCharsets.UTF_8), value);
    }

    private static ConsumerRecord<byte[], byte[]> structured(ConformanceSuite.Case c) {
        ConsumerRecord<byte[], byte[]> r = record(c.json().getBytes(StandardCharsets.UTF_8));
        r.headers().add("content-type", "application/cloudevents+json; charset=utf-8".getBytes(StandardCharsets.UTF_8));
        return r;
    }

    private static ConsumerRecord<byte[], byte[]> binary(ConformanceSuite.Case c) {
        ConsumerRecord<byte[], byte[]> r = record(ConformanceSuite.binaryValue(c.event()));
        for (Map.Entry<String, String> h :
                ConformanceSuite.binaryHeaders(c.event()).entrySet()) {
            r.headers().add(h.getKey(), h.getValue().getBytes(StandardCharsets.UTF_8));
        }
        return r;
    }

    private static Consumer<ConformanceSuite.Case> rejectedWith(
            Function<String, String> reason,
            Function<ConformanceSuite.Case, ConsumerRecord<byte[], byte[]>> mode,
            RecordDecoder decoder) {
        return c -> assertThatThrownBy(() -> decoder.decode(mode.apply(c)))
                .as(c.id())
                .isInstanceOf(InvalidEventException.class)
                .hasMessageStartingWith(reason.apply(c.id()));
    }

    @Test
    void everyValidCaseDecodesInStructuredAndBinaryMode() {
        for (ConformanceSuite.Case c : suite.validEvents()) {
            for (ConsumerRecord<byte[], byte[]> r : java.util.List.of(structured(c), binary(c))) {
                Event e = decoder.decode(r);
                assertThat(e.id()).as(c.id()).isEqualTo(c.event().get("id").textValue());
                assertThat(e.source())
                        .as(c.id())
                        .isEqualTo(c.raw().get("source").textValue());
            }
        }
    }

    @Test
    void everyInvalidCaseIsRejectedWithItsReasonInStructuredMode() {
        assertThat(suite.invalidEvents())
                .allSatisfy(
                        rejectedWith(ConformanceSuite.INVALID_REASONS::get, RecordDecoderTest::structured, decoder));
    }

    @Test
    void everyInvalidCaseBinaryModeCanCarryIsRejectedWithItsReasonInBinaryMode() {
        assertThat(suite.invalidEvents())
                .filteredOn(c -> !ConformanceSuite.NOT_IN_BINARY_MODE.contains(c.id()))
                .hasSize(22)
                .allSatisfy(rejectedWith(ConformanceSuite::binaryReason, RecordDecoderTest::binary, decoder));
    }

    /** The binding scenario of the suite's kafka-protocol-binding.feature, with a catalogue type. */
    @Test
    void theBindingScenarioDecodesTheSameInBothModes() {
        ConsumerRecord<byte[], byte[]> binary = record("{\"by\":\"Hello World!\"}".getBytes(StandardCharsets.UTF_8));
        binary.headers()
                .add("ce_specversion", bytes("1.0"))
                .add("ce_id", bytes("1234-1234-1234"))
                .add("ce_type", bytes(ConformanceSuite.TYPE))
                .add("ce_source", bytes("/mycontext/subcontext"))
                .add("ce_time", bytes("2018-04-05T03:56:24Z"))
                .add("ce_subject", bytes("n1"))
                .add("content-type", bytes("application/json"));
        ConsumerRecord<byte[], byte[]> structured = record(bytes("{\"specversion\":\"1.0\",\"type\":\"node.cordoned\","
                + "\"time\":\"2018-04-05T03:56:24Z\",\"id\":\"1234-1234-1234\",\"source\":\"/mycontext/subcontext\","
                + "\"subject\":\"n1\",\"datacontenttype\":\"application/json\",\"data\":{\"by\":\"Hello World!\"}}"));
        structured.headers().add("content-type", bytes("application/cloudevents+json"));
        assertThat(decoder.decode(binary)).isEqualTo(decoder.decode(structured));
    }

    private static ConsumerRecord<byte[], byte[]> binaryNodeCordoned(String id, String source, String time) {
        ConsumerRecord<byte[], byte[]> r = record(bytes("{}"));
        r.headers()
                .add("ce_specversion", bytes("1.0"))
                .add("ce_id", bytes(id))
                .add("ce_source", bytes(source))
                .add("ce_type", bytes("node.cordoned"))
                .add("ce_subject", bytes("n1"))
                .add("ce_time", bytes(time));
        return r;
    }

    @Test
    void poisonInBinaryModeHeadersIsRejectedBeforeStorage() {
        assertThatThrownBy(() -> decoder.decode(binaryNodeCordoned("a\u0000b", "s", "2026-03-01T10:00:00Z")))
                .hasMessage("ce_id: must not contain NUL characters");
        assertThatThrownBy(() -> decoder.decode(binaryNodeCordoned("a", "test/\u0000", "2026-03-01T10:00:00Z")))
                .hasMessage("ce_source: must not contain NUL characters");
        assertThatThrownBy(() -> decoder.decode(binaryNodeCordoned("a", "s\u001b[31m", "2026-03-01T10:00:00Z")))
                .hasMessageStartingWith("ce_source: must not contain control characters (U+001B");
        assertThatThrownBy(() -> decoder.decode(binaryNodeCordoned("a", "s", "0000-01-01T00:00:00Z")))
                .hasMessage("ce_time: must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59Z,"
                        + " got '0000-01-01T00:00:00Z'");

        ConsumerRecord<byte[], byte[]> notUtf8 = binaryNodeCordoned("a", "s", "2026-03-01T10:00:00Z");
        notUtf8.headers().remove("ce_id").add("ce_id", new byte[] {'a', (byte) 0xC3, (byte) 0x28});
        assertThatThrownBy(() -> decoder.decode(notUtf8)).hasMessage("ce_id: not valid UTF-8");

        ConsumerRecord<byte[], byte[]> twice = binaryNodeCordoned("a", "s", "2026-03-01T10:00:00Z");
        twice.headers().add("ce_id", bytes("b"));
        assertThatThrownBy(() -> decoder.decode(twice)).hasMessage("ce_id: given more than once");

        ConsumerRecord<byte[], byte[]> badExtension = binaryNodeCordoned("a", "s", "2026-03-01T10:00:00Z");
        badExtension.headers().add("ce_traceparent", bytes("00-\u0000"));
        assertThatThrownBy(() -> decoder.decode(badExtension))
                .hasMessage("ce_traceparent: must not contain NUL characters");

        ConsumerRecord<byte[], byte[]> large = record(new byte[64 * 1024 + 1]);
        large.headers().add("ce_specversion", bytes("1.0"));
        assertThatThrownBy(() -> decoder.decode(large)).hasMessage("data: larger than 65536 bytes");
    }

    @Test
    void otherHeadersThanTheBindingsAreNotLookedAt() {
        ConsumerRecord<byte[], byte[]> r = binaryNodeCordoned("a", "s", "2026-03-01T10:00:00Z");
        r.headers().add("X-Trace", new byte[] {0, (byte) 0xFF}).add("traceparent", null);
        assertThat(decoder.decode(r).id()).isEqualTo("a");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
