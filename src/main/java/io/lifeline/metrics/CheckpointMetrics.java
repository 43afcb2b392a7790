package io.lifeline.metrics;

import io.lifeline.runtime.ModelCheckpoints;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;

/** The model checkpoints: how many were written or failed, their size, age and cost on the model thread. */
@Startup
@ApplicationScoped
public class CheckpointMetrics {

    CheckpointMetrics(MeterRegistry registry, ModelCheckpoints checkpoints) {
        FunctionCounter.builder("lifeline_model_checkpoints", checkpoints, ModelCheckpoints::written)
                .description("Model checkpoints written to PostgreSQL")
                .register(registry);
        FunctionCounter.builder("lifeline_model_checkpoint_failures", checkpoints, ModelCheckpoints::failed)
                .description("Model checkpoints that could not be taken or written")
                .register(registry);
        Gauge.builder("lifeline_model_checkpoint_bytes", checkpoints, ModelCheckpoints::lastBytes)
                .description("Size of the latest model checkpoint written")
                .register(registry);
        Gauge.builder("lifeline_model_checkpoint_hold_seconds", checkpoints, c -> c.lastHoldNanos() / 1e9)
                .description("How long the latest model checkpoint held the model thread")
                .register(registry);
        Gauge.builder("lifeline_model_checkpoint_age_seconds", checkpoints, ModelCheckpoints::ageSeconds)
                .description("Age of the latest model checkpoint this replica wrote")
                .register(registry);
    }
}
