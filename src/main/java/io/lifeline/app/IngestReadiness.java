package io.lifeline.app;

import io.lifeline.eventlog.EventLogTail;
import io.lifeline.eventlog.EventLogWriter;
import io.lifeline.ingest.IngestPipeline;
import io.lifeline.ingest.kafka.KafkaIngest;
import io.lifeline.runtime.ModelRuntime;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready when the model has been rebuilt, the event store accepts writes, the write buffer has room, the log is being
 * followed and (when configured) the Kafka consumer is polling.
 * A load balancer stops sending events while it is DOWN; nothing already acknowledged is at risk.
 */
@Readiness
@ApplicationScoped
public class IngestReadiness implements HealthCheck {

    private static final double FULL = 0.8;

    private final IngestPipeline pipeline;
    private final EventLogWriter writer;
    private final ModelRuntime model;

    private final KafkaIngest kafka;
    private final EventLogTail log;

    IngestReadiness(
            IngestPipeline pipeline, EventLogWriter writer, ModelRuntime model, KafkaIngest kafka, EventLogTail log) {
        this.kafka = kafka;
        this.log = log;
        this.pipeline = pipeline;
        this.writer = writer;
        this.model = model;
    }

    @Override
    public HealthCheckResponse call() {
        boolean roomy = writer.buffered() < writer.capacity() * FULL;
        // Kafka ingest, when configured, must be polling: a consumer that died must not look ready (and idle).
        boolean kafkaUp = !kafka.configured() || !pipeline.isOpen() || kafka.up();
        HealthCheckResponseBuilder b = HealthCheckResponse.named("ingest")
                .status(pipeline.isOpen() && writer.healthy() && roomy && kafkaUp && log.healthy())
                .withData("open", pipeline.isOpen())
                .withData("logFollowed", log.healthy())
                .withData("logPosition", log.cursor())
                .withData("storeWritable", writer.healthy())
                .withData("bufferedEvents", writer.buffered())
                .withData("bufferCapacity", writer.capacity())
                .withData("appliedEvents", model.appliedCount());
        if (kafka.configured()) {
            b.withData("kafkaConsumer", kafka.up() ? "polling" : "down");
        }
        if (writer.lastError() != null) {
            b.withData("storeError", writer.lastError());
        }
        return b.build();
    }
}
