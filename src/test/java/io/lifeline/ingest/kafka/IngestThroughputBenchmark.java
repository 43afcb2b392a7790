package io.lifeline.ingest.kafka;

import io.lifeline.codec.EventCodec;
import io.lifeline.ingest.IngestPipeline;
import io.lifeline.runtime.ModelRuntime;
import io.lifeline.testing.BenchmarkReport;
import io.lifeline.testing.FigureFile;
import io.lifeline.testing.PhaseRecording;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Ingest throughput, measured side by side in one run: events/s through Kafka into applied state (90% telemetry,
 * 10% lifecycle stored in PostgreSQL), a bare Kafka consumer reading the same topic, and HTTP batches.
 * Not part of the test suite: {@code ./mvnw test -Dgroups=benchmark -DexcludedGroups= -Dtest=IngestThroughputBenchmark}.
 */
@QuarkusTest
@Tag("benchmark")
class IngestThroughputBenchmark {

    private static final int RUNS = Integer.getInteger("bench.runs", 5);
    private static final int HTTP_CONNECTIONS = Integer.getInteger("bench.http.connections", 32);
    /** A directory to record each phase of the last run into with the flight recorder (bench/profile.sh). */
    private static final String JFR_DIR = System.getProperty("bench.jfr");

    private static final int KAFKA_EVENTS = Integer.getInteger("bench.kafka.events", 1_000_000);
    private static final int HTTP_EVENTS = Integer.getInteger("bench.http.events", 400_000);
    /** A first pass of each phase, not counted (-Dbench.warmup=false to skip it). */
    private static final boolean WARMUP = Boolean.parseBoolean(System.getProperty("bench.warmup", "true"));

    @Inject
    IngestPipeline pipeline;

    @Inject
    EventCodec codec;

    @Inject
    ModelRuntime model;

    @Inject
    MeterRegistry registry;

    @Inject
    io.lifeline.eventlog.OffsetStore offsets;

    private static List<Double> series(BenchmarkReport report, String what) {
        return report.series(what);
    }

    @Test
    void measure() throws Exception {
        IngestLoad load = new IngestLoad(pipeline, codec, model, registry, offsets);
        BenchmarkReport report = new BenchmarkReport("ingest");
        FigureFile figures = new FigureFile("ingest", "bench/ingest.sh " + RUNS);
        List<Double> ratios = new ArrayList<>();
        if (WARMUP) {
            // Not counted: the first pass compiles the hot paths and meets every GPU and job (and their series) for
            // the first time; the measured runs see the fleet as it stands once running.
            String topic = "bench-warmup-" + UUID.randomUUID().toString().substring(0, 6);
            load.fill(topic, KAFKA_EVENTS, 0);
            load.bareConsume(topic, KAFKA_EVENTS);
            load.lifelineConsume(topic, KAFKA_EVENTS);
            load.httpOutOfProcess(HTTP_EVENTS, 0, "json", HTTP_CONNECTIONS);
            load.httpOutOfProcess(HTTP_EVENTS, 0, "ndjson", HTTP_CONNECTIONS);
            System.out.println("[bench] warm-up done");
        }
        for (int run = 1; run <= RUNS; run++) {
            figures.sampleLoad();
            String topic = "bench-" + run + "-" + UUID.randomUUID().toString().substring(0, 6);
            load.fill(topic, KAFKA_EVENTS, run);
            boolean record = JFR_DIR != null && run == RUNS;
            double bare = load.bareConsume(topic, KAFKA_EVENTS);
            report.add("kafka-bare-consumer", bare);
            try (PhaseRecording r = PhaseRecording.start(record, JFR_DIR, "kafka")) {
                double applied = load.lifelineConsume(topic, KAFKA_EVENTS);
                report.add("kafka-into-applied-state", applied);
                ratios.add(applied / bare);
            }
            try (PhaseRecording r = PhaseRecording.start(record, JFR_DIR, "http")) {
                report.add("http-batches-of-1000", load.http(HTTP_EVENTS, run));
            }
            try (PhaseRecording r = PhaseRecording.start(record, JFR_DIR, "http-own-process")) {
                report.add(
                        "http-own-process-json-arrays-of-1000",
                        load.httpOutOfProcess(HTTP_EVENTS, run, "json", HTTP_CONNECTIONS));
            }
            report.add(
                    "http-own-process-ndjson-of-1000",
                    load.httpOutOfProcess(HTTP_EVENTS, run, "ndjson", HTTP_CONNECTIONS));
        }
        figures.add("kafka_ingest_events_per_s", "events/s", series(report, "kafka-into-applied-state"), 250_000.0);
        figures.add("kafka_bare_consumer_events_per_s", "events/s", series(report, "kafka-bare-consumer"), null);
        figures.addRatio(
                "kafka_ingest_ratio",
                ratios,
                0.5,
                "kafka_bare_consumer_events_per_s",
                report.median("kafka-bare-consumer"));
        figures.add(
                "http_ingest_events_per_s",
                "events/s",
                series(report, "http-own-process-json-arrays-of-1000"),
                100_000.0);
        figures.add(
                "http_ingest_ndjson_events_per_s",
                "events/s",
                series(report, "http-own-process-ndjson-of-1000"),
                100_000.0);
        figures.add("http_ingest_in_process_events_per_s", "events/s", series(report, "http-batches-of-1000"), null);
        figures.write();
        report.write("events/s, " + KAFKA_EVENTS + " Kafka events (" + IngestLoad.PARTITIONS + " partitions) and "
                + HTTP_EVENTS + " HTTP events per run, 90% gpu.sample / 10% lifecycle");
    }
}
