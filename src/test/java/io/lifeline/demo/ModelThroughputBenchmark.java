package io.lifeline.demo;

import io.lifeline.domain.LifelineModel;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.fleet.Fleet;
import io.lifeline.testing.BenchmarkReport;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * The core's own speed and size: events/s applied to the whole model ({@link LifelineModel} with the
 * {@link Fleet}) on one thread, replaying 10 simulated minutes of a 2,000-node (16,000-GPU), 500-job fleet from
 * the simulator (telemetry every 10 s, checkpoints, notices, failures, restores), and the retained heap of that
 * model. Five runs, medians. Not part of the test suite:
 * <pre>
 * ./mvnw -q -o -DskipFrontend test-compile
 * java -Xmx4g -cp target/test-classes:target/classes:$(cat target/classpath.txt) io.lifeline.demo.ModelThroughputBenchmark
 * </pre>
 * ({@code ./mvnw -q -o dependency:build-classpath -Dmdep.outputFile=target/classpath.txt} writes the class path.)
 */
public final class ModelThroughputBenchmark {

    private static final int RUNS = 5;

    private ModelThroughputBenchmark() {}

    public static void main(String[] args) {
        Instant start = TestScenarios.START;
        FleetSimulator sim = new FleetSimulator(TestScenarios.large(2000, 500), start);
        List<Event> events = new ArrayList<>(sim.advanceTo(start.plus(Duration.ofMinutes(10))));
        Clock clock = Clock.fixed(start.plus(Duration.ofMinutes(10)), ZoneOffset.UTC);
        System.out.printf("stream: %,d events%n", events.size());
        BenchmarkReport report = new BenchmarkReport("core");
        for (int warm = 0; warm < 2; warm++) {
            apply(events, clock);
        }
        for (int run = 0; run < RUNS; run++) {
            long t0 = System.nanoTime();
            apply(events, clock);
            report.add("core-apply-events-per-second", events.size() / ((System.nanoTime() - t0) / 1e9));
        }
        for (int run = 0; run < RUNS; run++) {
            long before = usedAfterGc();
            LifelineModel model = apply(events, clock);
            long after = usedAfterGc();
            report.add("hot-state-bytes-per-gpu (16,000 GPUs, 500 jobs)", (after - before) / 16_000.0);
            if (model.jobs().size() < 500) {
                throw new IllegalStateException(
                        "expected 500 jobs, got " + model.jobs().size());
            }
        }
        report.write("events/s on one thread; retained heap of the whole model divided by its GPUs");
    }

    private static LifelineModel apply(List<Event> events, Clock clock) {
        LifelineModel model = new LifelineModel(new Fleet(clock), clock);
        for (Event e : events) {
            model.apply(e);
        }
        return model;
    }

    private static long usedAfterGc() {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 4; i++) {
            System.gc();
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return rt.totalMemory() - rt.freeMemory();
    }
}
