package io.lifeline.ingest.kafka;

import io.lifeline.codec.EventCodec;
import io.lifeline.ingest.IngestPipeline;
import io.lifeline.runtime.ModelRuntime;
import io.lifeline.testing.BenchmarkReport;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
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

    private static final int RUNS = 5;
    private static final int KAFKA_EVENTS = Integer.getInteger("bench.kafka.events", 500_000);
    private static final int HTTP_EVENTS = Integer.getInteger("bench.http.events", 200_000);

    @Inject
    IngestPipeline pipeline;
    @Inject
    EventCodec codec;
    @Inject
    ModelRuntime model;
    @Inject
    MeterRegistry registry;
    @Inject
    io.lifeline.store.OffsetStore offsets;

    @Test
    void measure() throws Exception {
        IngestLoad load = new IngestLoad(pipeline, codec, model, registry, offsets);
        BenchmarkReport report = new BenchmarkReport("ingest");
        for (int run = 1; run <= RUNS; run++) {
            String topic = "bench-" + run + "-" + UUID.randomUUID().toString().substring(0, 6);
            load.fill(topic, KAFKA_EVENTS, run);
            report.add("kafka-bare-consumer", load.bareConsume(topic, KAFKA_EVENTS));
            report.add("kafka-into-applied-state", load.lifelineConsume(topic, KAFKA_EVENTS));
            report.add("http-batches-of-1000", load.http(HTTP_EVENTS, run));
        }
        report.write("events/s, " + KAFKA_EVENTS + " Kafka events (" + IngestLoad.PARTITIONS + " partitions) and "
                + HTTP_EVENTS + " HTTP events per run, 90% gpu.sample / 10% lifecycle");
    }
}
