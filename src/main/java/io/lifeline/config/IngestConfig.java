package io.lifeline.config;

import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.runtime.configuration.MemorySizeConverter;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithConverter;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Ingest pipeline settings ({@code lifeline.ingest.*}); documented in docs/configuration.md. */
@ConfigMapping(prefix = "lifeline.ingest")
public interface IngestConfig {

    /** Event ids remembered for deduplication by (source, id). */
    @WithDefault("1000000")
    int dedupeCapacity();

    /** Lifecycle events that may wait for the store; beyond this, ingest pushes back (HTTP 503). */
    @WithDefault("200000")
    int bufferEvents();

    /** Most events written to the store in one transaction. */
    @WithDefault("5000")
    int writeBatchEvents();

    /**
     * Events waiting for the model's writer thread; a submission that does not fit is pushed back before it is
     * stored (HTTP 503 with {@code Retry-After}, a Kafka pause).
     */
    @WithDefault("250000")
    int applyQueueEvents();

    /** Estimated heap bytes of the events waiting for the model's writer thread; pushed back beyond, like events. */
    @WithDefault("128M")
    @WithConverter(MemorySizeConverter.class)
    MemorySize applyQueueBytes();

    /** Events dated further ahead than this are rejected (clock skew guard). */
    @WithDefault("1h")
    Duration maxFutureSkew();

    /**
     * Telemetry (GPU samples, training progress) is kept in memory; one event per job or GPU per this interval
     * is also stored (plus health changes and the first progress after a lifecycle event), so that a restart
     * rebuilds the same model.
     */
    @WithDefault("5m")
    Duration telemetryStoreInterval();

    /**
     * A job or GPU that sent no telemetry for this long is forgotten by the sampler (spot churn brings new GPUs all
     * the time); at least twice {@link #telemetryStoreInterval()}.
     */
    @WithDefault("30m")
    Duration telemetryForgetAfter();

    /** Most events in one HTTP batch. */
    @WithDefault("10000")
    int maxBatchEvents();

    /** Event log settings. */
    Log log();

    /** {@code lifeline.ingest.log.*}. */
    interface Log {
        /** Stored events older than this are removed (whole daily partitions at a time). */
        @WithDefault("30d")
        Duration retention();

        /** Daily partitions created ahead of time. */
        @WithDefault("7")
        int partitionsAhead();
    }
}
