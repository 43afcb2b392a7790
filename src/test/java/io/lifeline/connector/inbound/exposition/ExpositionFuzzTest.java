package io.lifeline.connector.inbound.exposition;

import io.lifeline.testing.Fixtures;
import io.lifeline.testing.Hostile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The exposition parser over hostile variants of real scrapes (the dcgm-exporter and Prometheus fixtures and the 211
 * OpenMetrics conformance cases): it never throws, in either format, and its result has the shape the lines
 * dictate ({@link ExpositionOracle}). One parser instance is reused across tries, as the scraper reuses it, so that
 * what it keeps between parses is fuzzed too.
 */
class ExpositionFuzzTest {

    private final ExpositionParser reused = new ExpositionParser();

    @Property
    void anyScrapeParsesIntoSamplesAndLineErrors(@ForAll("scrapes") Hostile.Case scrape) {
        byte[] body = scrape.bytes();
        Exposition prom = reused.parseBytes(body, Format.PROMETHEUS_TEXT);
        ExpositionOracle.checkPrometheus(lenientUtf8(body), prom);
        ExpositionOracle.checkOpenMetrics(reused.parseBytes(body, Format.OPENMETRICS));
        ExpositionOracle.checkPrometheus(scrape.text(), reused.parseText(scrape.text(), Format.PROMETHEUS_TEXT));
        ExpositionOracle.checkOpenMetrics(ExpositionParser.parse(scrape.text(), Format.OPENMETRICS));
    }

    private static String lenientUtf8(byte[] body) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE)
                    .decode(ByteBuffer.wrap(body))
                    .toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new IllegalStateException(e);
        }
    }

    @Provide
    Arbitrary<Hostile.Case> scrapes() {
        return Hostile.bytes(seeds());
    }

    /** Every real scrape in the fixtures. */
    static List<Hostile.Seed> seeds() {
        List<Hostile.Seed> out = new ArrayList<>();
        for (String dir : List.of("dcgm", "prometheus")) {
            try (Stream<Path> files = Files.list(Fixtures.path(dir))) {
                files.filter(p -> p.toString().endsWith(".prom"))
                        .sorted()
                        .forEach(p -> out.add(new Hostile.Seed(dir + "/" + p.getFileName(), read(p))));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        try (Stream<Path> cases = Files.list(Fixtures.path("openmetrics/conformance_parsers"))) {
            cases.sorted()
                    .forEach(c ->
                            out.add(new Hostile.Seed("openmetrics/" + c.getFileName(), read(c.resolve("metrics")))));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    private static byte[] read(Path p) {
        try {
            return Files.readAllBytes(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
