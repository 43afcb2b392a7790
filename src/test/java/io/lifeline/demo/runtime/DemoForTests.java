package io.lifeline.demo.runtime;

import io.lifeline.action.port.ClusterActions;
import io.lifeline.action.port.CommandChannel;
import io.lifeline.ingest.IngestGateway;
import java.time.Clock;
import java.util.Optional;

/**
 * The demo fleet outside the application, on a clock a test moves: the runner's ticks advance the simulation to that
 * clock, and the cluster and command channel the quick start plugs into the executor.
 */
public final class DemoForTests {

    private DemoForTests() {}

    /** A runner at speed 1 ticking every 10 ms of real time towards {@code clock}. */
    public static DemoRunner runner(IngestGateway gateway, Clock clock) {
        return runner(gateway, clock, DemoJournal.NONE);
    }

    /** Like {@link #runner(IngestGateway, Clock)}, keeping its run in {@code journal}. */
    public static DemoRunner runner(IngestGateway gateway, Clock clock, DemoJournal journal) {
        return new DemoRunner(
                new DemoConfig() {
                    @Override
                    public Optional<Boolean> enabled() {
                        return Optional.of(true);
                    }

                    @Override
                    public Optional<String> scenarioFile() {
                        return Optional.empty();
                    }

                    @Override
                    public double speed() {
                        return 1.0;
                    }

                    @Override
                    public long tickMillis() {
                        return 10;
                    }
                },
                gateway,
                clock,
                journal);
    }

    /** The demo's co-location window, counted from {@code fleetStart}. */
    public static io.lifeline.domain.policy.colocation.LendingWindow window(java.time.Instant fleetStart) {
        return DemoColocation.window(fleetStart);
    }

    public static ClusterActions cluster(DemoRunner runner) {
        return new DemoClusterActions(runner);
    }

    public static CommandChannel commands(DemoRunner runner) {
        return new DemoCommandSink(runner);
    }
}
