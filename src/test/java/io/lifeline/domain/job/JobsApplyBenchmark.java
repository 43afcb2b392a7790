package io.lifeline.domain.job;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventData;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.TrainerData;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Throughput of {@link Jobs#apply} over 500 running jobs of 8 nodes each, with a realistic mix: mostly
 * {@code trainer.progress}, a checkpoint (start + completion) every 60 events of a job, and every 400 events
 * of a job an interruption with its recovery (worker failure, agent restart, re-rendezvous, restore, progress).
 *
 * <p>Not run by the tests. Run it with:
 * <pre>
 * ./mvnw -q -o -DskipFrontend test-compile
 * java -cp target/test-classes:target/classes:$(./mvnw -q -o dependency:build-classpath -Dmdep.outputFile=/dev/stdout) \
 *     org.openjdk.jmh.Main JobsApplyBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(1)
public class JobsApplyBenchmark {

    private static final int JOBS = 500;
    private static final int NODES_PER_JOB = 8;
    private static final Instant START = Instant.parse("2024-05-01T00:00:00Z");

    private Jobs jobs;
    private String[] names;
    private List<List<TrainerData.Participant>> rounds;
    private long[] eventsPerJob;
    private long[] stepPerJob;
    private long counter;
    private long ids;

    @Setup(Level.Iteration)
    public void setUp() {
        TestNodes nodes = new TestNodes();
        for (int i = 0; i < JOBS * NODES_PER_JOB; i++) {
            nodes.add("node-" + i, "pool-" + (i % 7), i % 3 == 0 ? CapacityType.ON_DEMAND : CapacityType.SPOT, 8);
        }
        jobs = new Jobs(nodes, Clock.fixed(START, ZoneOffset.UTC));
        names = new String[JOBS];
        rounds = new ArrayList<>();
        eventsPerJob = new long[JOBS];
        stepPerJob = new long[JOBS];
        counter = 0;
        Random random = new Random(42);
        for (int j = 0; j < JOBS; j++) {
            names[j] = "team-" + (j % 20) + "/job-" + j;
            List<TrainerData.Participant> ps = new ArrayList<>();
            for (int n = 0; n < NODES_PER_JOB; n++) {
                ps.add(new TrainerData.Participant("node-" + (j * NODES_PER_JOB + n), n * 8, 8));
            }
            rounds.add(ps);
            apply(
                    j,
                    START,
                    EventType.JOB_SUBMITTED,
                    new JobData.Submitted("team-" + (j % 20), null, null, new ElasticPolicy(4, 8, 8, 100), 8, 1800L));
            apply(j, START, EventType.TRAINER_RENDEZVOUS, new TrainerData.Rendezvous("r", 1, 64, ps));
            apply(
                    j,
                    START.plusMillis(random.nextInt(1000)),
                    EventType.TRAINER_PROGRESS,
                    new TrainerData.Progress(0, 100.0, 1e5));
        }
    }

    private void apply(int job, Instant at, EventType type, EventData data) {
        jobs.apply(new Event("b" + (++ids), "bench://trainer", type, names[job], at, data));
    }

    /** One event of the mix; each job's events are 1 s apart in its own time. */
    @Benchmark
    public void applyMixedEvents() {
        int j = (int) (counter++ % JOBS);
        long n = ++eventsPerJob[j];
        Instant at = START.plusSeconds(n);
        long phase = n % 400;
        if (phase == 10) {
            apply(j, at, EventType.TRAINER_WORKER_FAILED, new TrainerData.WorkerFailed("r", 3, null, 1, "NCCL error"));
        } else if (phase == 11) {
            apply(j, at, EventType.TRAINER_RESTARTED, new TrainerData.Restarted("r", (int) (n / 400), null));
        } else if (phase == 12) {
            apply(
                    j,
                    at,
                    EventType.TRAINER_RENDEZVOUS,
                    new TrainerData.Rendezvous("r", (int) (n / 400) + 2, 64, rounds.get(j)));
        } else if (phase == 13) {
            apply(
                    j,
                    at,
                    EventType.TRAINER_RESTORED,
                    new TrainerData.Restored("c-" + j + "-" + (n / 60), stepPerJob[j], "r"));
        } else if (n % 60 == 0) {
            apply(
                    j,
                    at,
                    EventType.TRAINER_CHECKPOINT_STARTED,
                    new TrainerData.CheckpointStarted("c-" + j + "-" + (n / 60), stepPerJob[j], false));
        } else if (n % 60 == 1 && n > 60) {
            apply(
                    j,
                    at,
                    EventType.TRAINER_CHECKPOINT_COMPLETED,
                    new TrainerData.CheckpointCompleted(
                            "c-" + j + "-" + (n / 60), stepPerJob[j], 1L << 30, 1.0, 1.0, null, null, 8, false, 64));
        } else {
            apply(j, at, EventType.TRAINER_PROGRESS, new TrainerData.Progress(++stepPerJob[j], 100.0, 1e5));
        }
    }
}
