package io.lifeline.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.Event;
import io.lifeline.testing.CloudEventSeeds;
import io.lifeline.testing.Hostile;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * The structured-mode codec over hostile variants of real CloudEvents (the catalogue examples of docs/events.md and
 * the CloudEvents conformance suite): a body is decoded into events and per-event rejections, or refused as a whole
 * with {@link InvalidEventException}; nothing else is ever thrown. Whatever is accepted survives the store's round
 * trip (encoded as it is stored, then decoded as at replay). Tries: {@code jqwik.tries.default}.
 */
class EventCodecFuzzTest {

    private final EventCodec codec = new EventCodec();

    @Property
    void aBodyIsDecodedOrRefusedWithAReason(@ForAll("bodies") Hostile.Case body) {
        DecodedBatch batch;
        try {
            batch = codec.decodeBody(body.bytes(), false);
        } catch (InvalidEventException e) {
            assertThat(e.getMessage()).isNotBlank();
            Statistics.collect("refused as a whole");
            return;
        }
        checked(batch);
        Statistics.collect(batch.events().isEmpty() ? "no event accepted" : "some accepted");
        Statistics.coverage(c -> {
            c.check("some accepted").percentage(p -> p > 1);
            c.check("refused as a whole").percentage(p -> p > 1);
        });
    }

    @Property
    void anNdjsonBodyIsDecodedLineByLine(@ForAll("ndjson") Hostile.Case body) {
        DecodedBatch batch = codec.decodeBody(body.bytes(), true);
        checked(batch);
        assertThat(batch.total())
                .as("one outcome per line that is not blank")
                .isEqualTo(linesWithContent(body.bytes()));
        Statistics.collect(batch.events().isEmpty() ? "no event accepted" : "some accepted");
        Statistics.coverage(c -> c.check("some accepted").percentage(p -> p > 1));
    }

    /**
     * Reading the attributes off the parser (the fast path) answers exactly as decoding the whole tree does: the same
     * events, the same refusals with the same ids and reasons, the same refusal of a whole body.
     */
    @Property
    void theStreamingDecoderAnswersAsTheTreeDecoder(@ForAll("bodies") Hostile.Case body) {
        assertThat(outcome(() -> describe(codec.decodeBody(body.bytes(), false))))
                .isEqualTo(outcome(() -> describe(decodeAsTree(body.bytes()))));
        assertThat(outcome(() -> codec.decodeStructured(body.bytes()).toString()))
                .isEqualTo(outcome(
                        () -> codec.decodeEvent(codec.parse(body.bytes())).toString()));
        Statistics.collect(
                outcome(() -> codec.decodeStructured(body.bytes()).toString()).startsWith("refused")
                        ? "single event refused"
                        : "single event accepted");
        Statistics.coverage(c -> c.check("single event accepted").percentage(p -> p > 1));
    }

    /** A structured body decoded the way the codec did before it streamed: the whole tree first, then each event. */
    private DecodedBatch decodeAsTree(byte[] body) {
        com.fasterxml.jackson.databind.JsonNode root;
        try {
            root = codec.mapper().readTree(body);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new InvalidEventException("malformed JSON: " + e.getOriginalMessage());
        } catch (java.io.IOException e) {
            throw new InvalidEventException("unreadable body: " + e.getMessage());
        }
        if (root == null || root.isMissingNode()) {
            throw new InvalidEventException("empty body");
        }
        if (!root.isArray() && !root.isObject()) {
            throw new InvalidEventException(
                    "expected a CloudEvent object or an array of them, got " + DataReader.describe(root));
        }
        List<com.fasterxml.jackson.databind.JsonNode> nodes = new java.util.ArrayList<>();
        root.forEach(nodes::add);
        if (root.isObject()) {
            nodes = List.of(root);
        }
        List<Event> events = new java.util.ArrayList<>();
        List<Integer> positions = new java.util.ArrayList<>();
        List<Refusal> rejections = new java.util.ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            com.fasterxml.jackson.databind.JsonNode node = nodes.get(i);
            String id = node.isObject() && node.path("id").isTextual()
                    ? node.get("id").textValue()
                    : null;
            try {
                events.add(codec.decodeEvent(node));
                positions.add(i);
            } catch (InvalidEventException e) {
                rejections.add(new Refusal(i, id == null ? null : DataReader.abbreviate(id), e.getMessage()));
            }
        }
        return new DecodedBatch(events, positions, rejections);
    }

    private static String describe(DecodedBatch b) {
        return b.events() + " at " + b.positions() + ", refused " + b.rejections();
    }

    private static String outcome(java.util.function.Supplier<String> decode) {
        try {
            return decode.get();
        } catch (InvalidEventException e) {
            return "refused: " + e.getMessage();
        }
    }

    /** Lines holding something other than spaces and tabs (a line's ending is LF, optionally after CR). */
    private static int linesWithContent(byte[] b) {
        int n = 0;
        boolean content = false;
        for (int i = 0; i <= b.length; i++) {
            if (i == b.length || b[i] == '\n') {
                n += content ? 1 : 0;
                content = false;
            } else if (b[i] != ' ' && b[i] != '\t' && !(b[i] == '\r' && (i + 1 == b.length || b[i + 1] == '\n'))) {
                content = true;
            }
        }
        return n;
    }

    private void checked(DecodedBatch batch) {
        assertThat(batch.positions()).hasSameSizeAs(batch.events());
        assertThat(batch.rejections()).allSatisfy(r -> assertThat(r.reason()).isNotBlank());
        for (Event e : batch.events()) {
            Event again = codec.decodeEvent(codec.parse(codec.toBytes(codec.encodeEvent(e))));
            assertThat(again).as("accepted, stored and replayed").isEqualTo(e);
        }
    }

    @Provide
    Arbitrary<Hostile.Case> bodies() {
        return Hostile.any(CloudEventSeeds.seeds());
    }

    @Provide
    Arbitrary<Hostile.Case> ndjson() {
        List<Hostile.Seed> seeds = CloudEventSeeds.ndjsonSeeds();
        return net.jqwik.api.Arbitraries.oneOf(Hostile.bytes(seeds), Hostile.json(seeds.subList(1, seeds.size())));
    }
}
