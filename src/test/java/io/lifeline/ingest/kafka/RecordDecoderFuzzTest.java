package io.lifeline.ingest.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.lifeline.codec.EventCodec;
import io.lifeline.codec.InvalidEventException;
import io.lifeline.domain.event.Event;
import io.lifeline.testing.CloudEventSeeds;
import io.lifeline.testing.Hostile;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Kafka records over hostile variants of real CloudEvents, in binary mode (attributes in {@code ce_*} headers, which
 * are deleted, duplicated, emptied, nulled or changed byte by byte, data in the value) and in structured mode: a
 * record is decoded into an event or refused with {@link InvalidEventException}, never anything else.
 */
class RecordDecoderFuzzTest {

    private static final List<String> HEADERS =
            List.of("ce_specversion", "ce_id", "ce_source", "ce_type", "ce_subject", "ce_time", "content-type");

    private final RecordDecoder decoder = new RecordDecoder(new EventCodec());

    @Property
    void aBinaryModeRecordIsDecodedOrRefusedWithAReason(@ForAll("binary") Binary record) {
        decodedOrRefused(record.record());
        bothOutcomesSeen();
    }

    @Property
    void aStructuredModeRecordIsDecodedOrRefusedWithAReason(@ForAll("structured") Hostile.Case value) {
        decodedOrRefused(new ConsumerRecord<>("lifeline.events", 0, 0L, null, value.bytes()));
        bothOutcomesSeen();
    }

    private void decodedOrRefused(ConsumerRecord<byte[], byte[]> record) {
        try {
            Event e = decoder.decode(record);
            assertThat(e.id()).isNotBlank();
            Statistics.collect("decoded");
        } catch (InvalidEventException refused) {
            assertThat(refused.getMessage()).isNotBlank();
            Statistics.collect("refused");
        }
    }

    /** The inputs stay close enough to real records that some are accepted, and hostile enough that some are not. */
    private static void bothOutcomesSeen() {
        Statistics.coverage(c -> {
            c.check("decoded").percentage(p -> p > 1);
            c.check("refused").percentage(p -> p > 1);
        });
    }

    /** What is done to one header: nothing, deleted, sent twice, emptied, null, or changed byte by byte. */
    enum HeaderOp {
        KEEP,
        DELETE,
        TWICE,
        EMPTY,
        NULL,
        MUTATE
    }

    /**
     * One record: the seed event's attributes as headers, each treated by its op, and its data as the value.
     *
     * @param seed     the event
     * @param ops      one op per header of {@link #HEADERS}
     * @param mutation the byte mutations of a header that is mutated
     * @param value    the data, mutated
     */
    record Binary(JsonNode seed, List<HeaderOp> ops, List<Hostile.ByteMutation> mutation, Hostile.Case value) {

        ConsumerRecord<byte[], byte[]> record() {
            ConsumerRecord<byte[], byte[]> r = new ConsumerRecord<>("lifeline.events", 0, 0L, null, value.bytes());
            for (int i = 0; i < HEADERS.size(); i++) {
                String name = HEADERS.get(i);
                String attribute = name.equals("content-type") ? "datacontenttype" : name.substring(3);
                JsonNode v = seed.get(attribute);
                byte[] bytes = (v == null || v.isNull() ? "" : v.isTextual() ? v.textValue() : v.toString())
                        .getBytes(StandardCharsets.UTF_8);
                switch (ops.get(i)) {
                    case KEEP -> r.headers().add(name, bytes);
                    case DELETE -> {}
                    case TWICE ->
                        r.headers()
                                .add(name, bytes)
                                .add(name.toUpperCase(Locale.ROOT), bytes)
                                .add(name, "second".getBytes(StandardCharsets.UTF_8));
                    case EMPTY -> r.headers().add(name, new byte[0]);
                    case NULL -> r.headers().add(name, null);
                    case MUTATE ->
                        r.headers()
                                .add(
                                        name,
                                        Hostile.mutate(new Hostile.Seed(name, bytes), List.of(), mutation)
                                                .bytes());
                    default -> throw new IllegalStateException();
                }
            }
            return r;
        }

        @Override
        public String toString() {
            return seed.path("id").asText() + " headers " + ops + " " + mutation + " value " + value;
        }
    }

    @Provide
    Arbitrary<Binary> binary() {
        List<JsonNode> events = CloudEventSeeds.events();
        Arbitrary<HeaderOp> op = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(10, Arbitraries.just(HeaderOp.KEEP)),
                net.jqwik.api.Tuple.of(1, Arbitraries.of(HeaderOp.values())));
        // One arbitrary per seed event, made once (a flatMap would make them anew for every try).
        List<Arbitrary<Binary>> perSeed = new ArrayList<>();
        for (JsonNode seed : events) {
            JsonNode data = seed.get("data");
            Hostile.Seed value = new Hostile.Seed(
                    "data of " + seed.path("id").asText(),
                    data == null ? "{}".getBytes(StandardCharsets.UTF_8) : CloudEventSeeds.bytes(data));
            perSeed.add(Combinators.combine(
                            Arbitraries.just(seed),
                            op.list().ofSize(HEADERS.size()),
                            Hostile.byteMutation().list().ofMinSize(1).ofMaxSize(4),
                            Arbitraries.oneOf(
                                    Arbitraries.just(Hostile.mutate(value, List.of(), List.of())),
                                    Hostile.any(List.of(value))))
                    .as(Binary::new));
        }
        return Arbitraries.oneOf(perSeed);
    }

    @Provide
    Arbitrary<Hostile.Case> structured() {
        return Hostile.any(CloudEventSeeds.seeds());
    }
}
