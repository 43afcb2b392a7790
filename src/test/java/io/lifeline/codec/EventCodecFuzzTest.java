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
        assertThat(batch.total()).as("one outcome per line that is not blank").isEqualTo(linesWithContent(body.bytes()));
        Statistics.collect(batch.events().isEmpty() ? "no event accepted" : "some accepted");
        Statistics.coverage(c -> c.check("some accepted").percentage(p -> p > 1));
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
