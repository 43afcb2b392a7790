package io.lifeline.action;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.agroal.api.AgroalDataSource;
import io.lifeline.action.port.ClusterActions;
import io.lifeline.action.port.TrainerCommandSink;
import io.lifeline.action.store.ActionStore;
import io.lifeline.config.ActionsConfig;
import io.lifeline.eventlog.Leadership;
import io.lifeline.metrics.ActionMetricsForTests;
import io.lifeline.runtime.ModelRuntime;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;

/** The action store, executor and service outside the application, for tests of other packages. */
public final class ActionsForTests {

    private ActionsForTests() {}

    public static ActionStore store(AgroalDataSource db) {
        return new ActionStore(db, new ObjectMapper());
    }

    public static ActionExecutor executor(
            ActionStore store,
            ClusterActions cluster,
            TrainerCommandSink commands,
            ModelRuntime runtime,
            Leadership leadership,
            ActionsConfig config,
            Clock clock) {
        return new ActionExecutor(
                store,
                cluster,
                commands,
                runtime,
                leadership,
                config,
                clock,
                ActionMetricsForTests.of(new SimpleMeterRegistry()));
    }

    public static DefaultActionService service(
            ActionStore store, ActionExecutor executor, ModelRuntime runtime, Clock clock) {
        return new DefaultActionService(store, executor, runtime, clock);
    }
}
