package io.lifeline.runtime;

import io.lifeline.config.IngestConfig;
import io.quarkus.runtime.configuration.MemorySize;
import java.lang.reflect.Proxy;
import java.math.BigInteger;
import java.time.Clock;

/** A model host outside the application, for tests of other packages (its constructor is the container's). */
public final class ModelRuntimes {

    private ModelRuntimes() {}

    /** A running model host with an empty model. */
    public static ModelRuntime start(Clock clock) {
        return start(clock, 100_000, 64L * 1024 * 1024);
    }

    /** A running model host with an empty model whose queue holds {@code events} and {@code bytes}. */
    public static ModelRuntime start(Clock clock, int events, long bytes) {
        return new ModelRuntime(LiveModel.create(clock), config(events, bytes));
    }

    /** Ingest settings with only the model queue's bounds. */
    static IngestConfig config(int events, long bytes) {
        return (IngestConfig) Proxy.newProxyInstance(
                IngestConfig.class.getClassLoader(),
                new Class<?>[] {IngestConfig.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "applyQueueEvents" -> events;
                    case "applyQueueBytes" -> new MemorySize(BigInteger.valueOf(bytes));
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    public static void stop(ModelRuntime runtime) {
        runtime.stop();
    }
}
