package io.lifeline.app;

import io.lifeline.ingest.IngestPipeline;
import io.lifeline.runtime.ModelRuntime;
import io.lifeline.store.EventLogWriter;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready when the model has been rebuilt, the event store accepts writes and the write buffer has room.
 * A load balancer stops sending events while it is DOWN; nothing already acknowledged is at risk.
 */
@Readiness
@ApplicationScoped
public class IngestReadiness implements HealthCheck {

    private static final double FULL = 0.8;

    private final IngestPipeline pipeline;
    private final EventLogWriter writer;
    private final ModelRuntime model;

    IngestReadiness(IngestPipeline pipeline, EventLogWriter writer, ModelRuntime model) {
        this.pipeline = pipeline;
        this.writer = writer;
        this.model = model;
    }

    @Override
    public HealthCheckResponse call() {
        boolean roomy = writer.buffered() < writer.capacity() * FULL;
        HealthCheckResponseBuilder b = HealthCheckResponse.named("ingest")
                .status(pipeline.isOpen() && writer.healthy() && roomy)
                .withData("open", pipeline.isOpen())
                .withData("storeWritable", writer.healthy())
                .withData("bufferedEvents", writer.buffered())
                .withData("bufferCapacity", writer.capacity())
                .withData("appliedEvents", model.appliedCount());
        if (writer.lastError() != null) {
            b.withData("storeError", writer.lastError());
        }
        return b.build();
    }
}
