package io.lifeline.demo;

import io.lifeline.domain.event.Event;
import io.lifeline.runtime.LiveModel;
import io.lifeline.testing.BenchmarkReport;
import java.lang.reflect.Method;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * How long the periodic whole-model reads hold the model's thread (while they run, no event is applied): the metrics
 * snapshot ({@code lifeline.metrics.snapshot-interval}), the alert rules' snapshot
 * ({@code lifeline.alerts.evaluation-interval}) and the dashboards' shared snapshot (at most once a second while a
 * dashboard is open), on the 2,000-node (16,000-GPU), 500-job simulated fleet after 10 minutes. Medians of 20 reads
 * after 10 warm-up reads. Not part of the test suite:
 * <pre>
 * ./mvnw -q -o -DskipFrontend test-compile
 * ./mvnw -q -o dependency:build-classpath -Dmdep.outputFile=target/classpath.txt
 * java -Xmx4g -cp target/test-classes:target/classes:$(cat target/classpath.txt) io.lifeline.demo.SnapshotReadBenchmark
 * </pre>
 */
public final class SnapshotReadBenchmark {

    private static final int WARM_UP = 10;
    private static final int READS = 20;

    private SnapshotReadBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Instant start = TestScenarios.START;
        FleetSimulator sim = new FleetSimulator(TestScenarios.large(2000, 500), start);
        List<Event> events = new ArrayList<>(sim.advanceTo(start.plus(Duration.ofMinutes(10))));
        Instant now = start.plus(Duration.ofMinutes(10));
        LiveModel model = LiveModel.create(Clock.fixed(now, ZoneOffset.UTC));
        for (Event e : events) {
            model.root().apply(e);
        }
        Method metrics = method("io.lifeline.metrics.SnapshotReader", "read", LiveModel.class, Instant.class, boolean.class);
        Method alerts = method("io.lifeline.alert.AlertSnapshots", "fromModel", LiveModel.class);
        Method dashboard = method("io.lifeline.ui.data.SnapshotReader", "capture", LiveModel.class, Instant.class);
        BenchmarkReport report = new BenchmarkReport("snapshot-reads");
        time(report, "metrics snapshot (job node info on)", () -> metrics.invoke(null, model, now, true));
        time(report, "alert rules' snapshot", () -> alerts.invoke(null, model));
        time(report, "dashboards' shared snapshot (the part on the model's thread)",
                () -> dashboard.invoke(null, model, now));
        report.write("microseconds per read on the model's thread, 2,000 nodes / 16,000 GPUs / 500 jobs");
    }

    private interface Read {
        Object run() throws Exception;
    }

    private static void time(BenchmarkReport report, String what, Read read) throws Exception {
        for (int i = 0; i < WARM_UP; i++) {
            read.run();
        }
        for (int i = 0; i < READS; i++) {
            long t0 = System.nanoTime();
            read.run();
            report.add(what, (System.nanoTime() - t0) / 1e3);
        }
    }

    private static Method method(String type, String name, Class<?>... params) throws Exception {
        Method m = Class.forName(type).getDeclaredMethod(name, params);
        m.setAccessible(true);
        return m;
    }
}
