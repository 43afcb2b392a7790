package io.lifeline.connector.inbound.dcgm;

import io.lifeline.connector.Translation;
import io.lifeline.connector.inbound.exposition.ExpositionParser;
import io.lifeline.connector.inbound.exposition.Format;
import io.lifeline.testing.Fixtures;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Parse + translate of one 8-GPU dcgm-exporter scrape, single thread. The body is the real LKE scrape
 * ({@code fixtures/dcgm/metrics_lke_rtx4000ada_k8s_pod_labels.prom}) with its GPU replicated eight times (distinct
 * {@code gpu}, {@code UUID}, {@code device} and {@code pci_bus_id}), grouped per metric as dcgm-exporter writes
 * it: 25 metrics × 8 GPUs = 200 series, 69 KB. Target: at least 1,000 scrapes per second per core.
 * Not run by the test suite; run with {@link #main} or the JMH runner.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class DcgmParseBenchmark {

    private byte[] body;
    private ExpositionParser parser;
    private DcgmScrapeTranslator translator;
    private long scrapes;

    @Setup
    public void setUp() {
        body = eightGpuScrape().getBytes(StandardCharsets.UTF_8);
        parser = new ExpositionParser();
        translator = new DcgmScrapeTranslator();
    }

    /** The steady state of a scrape loop: one parser per thread, reused. */
    @Benchmark
    public Translation parseAndTranslateReusingTheParser() {
        DcgmScrape scrape =
                new DcgmScrape("10.0.0.7:9400", "gpu-node-1", Instant.ofEpochSecond(1_700_000_000L + scrapes++));
        return translator.translate(parser.parseBytes(body, Format.PROMETHEUS_TEXT), scrape);
    }

    /** The convenience entry point, which parses with a fresh parser every time. */
    @Benchmark
    public Translation parseAndTranslateWithAFreshParser() {
        DcgmScrape scrape =
                new DcgmScrape("10.0.0.7:9400", "gpu-node-1", Instant.ofEpochSecond(1_700_000_000L + scrapes++));
        return translator.translate(body, Format.PROMETHEUS_TEXT, scrape);
    }

    /** Builds the 8-GPU body from the real one-GPU scrape. */
    static String eightGpuScrape() {
        List<String> lines = Fixtures.text("dcgm/metrics_lke_rtx4000ada_k8s_pod_labels.prom")
                .lines()
                .toList();
        StringBuilder out = new StringBuilder();
        List<String> metadata = new ArrayList<>();
        for (String line : lines) {
            if (line.startsWith("#")) {
                metadata.add(line);
                continue;
            }
            metadata.forEach(m -> out.append(m).append('\n'));
            metadata.clear();
            for (int gpu = 0; gpu < 8; gpu++) {
                out.append(line.replace("gpu=\"0\"", "gpu=\"" + gpu + "\"")
                                .replace(
                                        "GPU-a8394b51-c086-568a-9f1a-c1e1c934c44c",
                                        "GPU-a8394b51-c086-568a-9f1a-c1e1c934c44" + gpu)
                                .replace("nvidia0", "nvidia" + gpu)
                                .replace("00000000:00:02.0", "00000000:00:0" + (2 + gpu) + ".0"))
                        .append('\n');
            }
        }
        return out.toString();
    }

    public static void main(String[] args) throws RunnerException {
        new Runner(new OptionsBuilder()
                        .include(DcgmParseBenchmark.class.getSimpleName())
                        .build())
                .run();
    }
}
