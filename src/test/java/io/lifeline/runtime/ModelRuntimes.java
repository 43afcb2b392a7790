package io.lifeline.runtime;

import io.lifeline.config.IngestConfig;
import java.lang.reflect.Proxy;
import java.time.Clock;

/** A model host outside the application, for tests of other packages (its constructor is the container's). */
public final class ModelRuntimes {

    private ModelRuntimes() {
    }

    /** A running model host with an empty model. */
    public static ModelRuntime start(Clock clock) {
        IngestConfig config = (IngestConfig) Proxy.newProxyInstance(IngestConfig.class.getClassLoader(),
                new Class<?>[] {IngestConfig.class}, (proxy, method, args) -> {
                    if (method.getName().equals("applyQueueBatches")) {
                        return 64;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
        return new ModelRuntime(LiveModel.create(clock), config);
    }

    public static void stop(ModelRuntime runtime) {
        runtime.stop();
    }
}
