package io.lifeline.connector.inbound.dcgm;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.connector.Translation;
import io.lifeline.connector.inbound.exposition.Format;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.GpuData;
import io.lifeline.testing.Fixtures;
import io.lifeline.testing.Hostile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * The dcgm-exporter translation over hostile variants of the real scrapes in the fixtures: whatever the body, a
 * scrape yields a translation (never an exception) whose events are GPU samples and XIDs of a valid node, with ids
 * the codec would accept, and whose rejections carry the documented reasons. One translator serves every try, as in
 * the application, so the XID memory is fuzzed too.
 */
class DcgmTranslationFuzzTest {

    private static final Set<String> REASONS = Set.of(
            DcgmScrapeTranslator.NO_NODE_NAME,
            DcgmScrapeTranslator.INVALID_NODE_NAME,
            DcgmScrapeTranslator.NO_GPU_SERIES,
            DcgmScrapeTranslator.SERIES_WITHOUT_UUID,
            DcgmScrapeTranslator.SERIES_WITHOUT_GPU_INDEX,
            DcgmScrapeTranslator.OUT_OF_RANGE_VALUE,
            DcgmScrapeTranslator.UNPARSEABLE_LINES);

    private final DcgmScrapeTranslator translator = new DcgmScrapeTranslator(64);

    @Property
    void anyScrapeTranslatesIntoValidGpuEventsOrReasons(
            @ForAll("scrapes") Hostile.Case body, @ForAll("nodes") String node, @ForAll Format format) {
        DcgmScrape scrape = new DcgmScrape("10.0.0.7:9400", node, Instant.parse("2026-03-01T10:00:00Z"));
        Translation t = translator.translate(body.bytes(), format, scrape);

        assertThat(t.rejections()).allSatisfy(r -> assertThat(r.reason()).isIn(REASONS));
        for (Event e : t.events()) {
            assertThat(e.type()).isIn(EventType.GPU_SAMPLE, EventType.GPU_XID);
            assertThat(e.id().length()).isLessThanOrEqualTo(256);
            assertThat(e.subject()).matches("[A-Za-z0-9][A-Za-z0-9._:/@-]{0,252}");
            if (node != null && !node.isBlank()) {
                assertThat(e.subject()).isEqualTo(node);
            }
            assertThat(((GpuData) e.data()).index()).isBetween(0, 1023);
        }
        assertThat(translator.trackedGpus()).isLessThanOrEqualTo(64);
        Statistics.collect(t.events().isEmpty() ? "no event" : "events");
        Statistics.coverage(c -> c.check("events").percentage(p -> p > 1));
    }

    @Provide
    Arbitrary<Hostile.Case> scrapes() {
        try (Stream<Path> files = Files.list(Fixtures.path("dcgm"))) {
            return Hostile.bytes(files.filter(p -> p.toString().endsWith(".prom"))
                    .sorted()
                    .map(p -> new Hostile.Seed("dcgm/" + p.getFileName(), read(p)))
                    .toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Provide
    Arbitrary<String> nodes() {
        return Arbitraries.oneOf(Arbitraries.just(null), Hostile.strings(List.of("ip-10-0-3-17.ec2.internal")));
    }

    private static byte[] read(Path p) {
        try {
            return Files.readAllBytes(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
