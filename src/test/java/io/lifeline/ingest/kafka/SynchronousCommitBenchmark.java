package io.lifeline.ingest.kafka;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;

import io.lifeline.app.EmbeddedDatabase;
import io.lifeline.codec.EventCodec;
import io.lifeline.ingest.IngestPipeline;
import io.lifeline.runtime.ModelRuntime;
import io.lifeline.testing.BenchmarkReport;
import io.lifeline.testing.PostgresResource;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What durable commits cost the quick start: ingest throughput into applied state with the embedded PostgreSQL
 * server started as Lifeline starts it ({@link EmbeddedDatabase#serverSettings}), {@code synchronous_commit} on
 * against off, side by side in every run (the server restarted between, the order alternating from run to run,
 * after an unrecorded warm-up pass).
 * Not part of the test suite:
 * {@code ./mvnw test -Dgroups=benchmark -DexcludedGroups= -Dtest=SynchronousCommitBenchmark}.
 */
@QuarkusTest
@Tag("benchmark")
class SynchronousCommitBenchmark {

    private static final int RUNS = Integer.getInteger("bench.runs", 5);
    private static final int KAFKA_EVENTS = Integer.getInteger("bench.kafka.events", 200_000);
    private static final int HTTP_EVENTS = Integer.getInteger("bench.http.events", 100_000);

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

    @Test
    void synchronousCommitOnAgainstOff() throws Exception {
        IngestLoad load = new IngestLoad(pipeline, codec, model, registry, offsets);
        BenchmarkReport report = new BenchmarkReport("synchronous-commit");
        try {
            // Unrecorded: the first pass also pays for compilation and the consumer's first group join.
            useServer(EmbeddedDatabase.serverSettings(true));
            String warmUp =
                    "bench-commit-warm-up-" + UUID.randomUUID().toString().substring(0, 6);
            load.fill(warmUp, KAFKA_EVENTS / 4, 0);
            load.lifelineConsume(warmUp, KAFKA_EVENTS / 4);
            load.http(HTTP_EVENTS / 4, 0);
            for (int run = 1; run <= RUNS; run++) {
                for (boolean on : run % 2 == 1 ? List.of(true, false) : List.of(false, true)) {
                    String mode = on ? "on" : "off";
                    useServer(EmbeddedDatabase.serverSettings(on));
                    String topic = "bench-commit-" + mode + "-" + run + "-"
                            + UUID.randomUUID().toString().substring(0, 6);
                    load.fill(topic, KAFKA_EVENTS, run);
                    report.add(
                            "Kafka into applied state, synchronous_commit=" + mode,
                            load.lifelineConsume(topic, KAFKA_EVENTS));
                    report.add(
                            "HTTP batches of 1,000 into applied state, synchronous_commit=" + mode,
                            load.http(HTTP_EVENTS, run));
                }
            }
        } finally {
            useServer(Map.of());
        }
        report.write("events/s, " + KAFKA_EVENTS + " Kafka events (" + IngestLoad.PARTITIONS + " partitions) and "
                + HTTP_EVENTS + " HTTP events per run and setting, 90% gpu.sample / 10% lifecycle, fsync on");
    }

    private static void useServer(Map<String, String> settings) throws Exception {
        PostgresResource.restartServer(settings);
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> given().get("/q/health/ready").then().statusCode(200));
    }
}
