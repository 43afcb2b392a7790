package io.lifeline.domain.fleet;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.GpuData;
import io.lifeline.domain.event.NodeData;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
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
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Throughput of {@link Fleet#apply} for {@code gpu.sample} events, round-robin over 16,000 GPUs on 2,000 nodes.
 * Not run by the tests. Events are pre-built for {@value #ROUNDS} rounds (every GPU gets a newer sample each
 * round, so each apply takes the real update path rather than the cheap stale-sample path); the fleet is rebuilt
 * before each iteration.
 *
 * <p>Run with JMH: {@code java -cp <test classpath> io.lifeline.domain.fleet.FleetApplyBenchmark jmh}, or without
 * JMH (a plain timed loop): the same command without {@code jmh}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx1g"})
public class FleetApplyBenchmark {

    static final int NODES = 2_000;
    static final int GPUS_PER_NODE = 8;
    static final int GPUS = NODES * GPUS_PER_NODE;
    static final int ROUNDS = 192;
    private static final Instant T0 = Instant.parse("2025-11-03T09:00:00Z");

    private Event[] events;
    private Fleet fleet;
    private int next;

    @Setup(Level.Trial)
    public void buildEvents() {
        events = samples();
    }

    @Setup(Level.Iteration)
    public void buildFleet() {
        fleet = registeredFleet();
        next = 0;
    }

    @Benchmark
    public List<NodeSignal> applySample() {
        Event e = events[next];
        next = next + 1 == events.length ? 0 : next + 1;
        return fleet.apply(e);
    }

    static Fleet registeredFleet() {
        Fleet f = new Fleet(Clock.fixed(T0, ZoneOffset.UTC));
        for (int n = 0; n < NODES; n++) {
            f.apply(new Event(
                    "reg-" + n,
                    "bench",
                    EventType.NODE_REGISTERED,
                    node(n),
                    T0,
                    new NodeData.Registered(
                            "pool-" + n % 4, CapacityType.SPOT, "us-east-1a", "p4d.24xlarge", GPUS_PER_NODE, null)));
        }
        return f;
    }

    /** Round-robin samples: round r gives every GPU a sample r seconds after T0, with slightly varying values. */
    static Event[] samples() {
        GpuData.Sample[][] payloads = new GpuData.Sample[4][GPUS];
        for (int v = 0; v < payloads.length; v++) {
            for (int gpu = 0; gpu < GPUS; gpu++) {
                int n = gpu / GPUS_PER_NODE;
                int i = gpu % GPUS_PER_NODE;
                payloads[v][gpu] = new GpuData.Sample(
                        FleetEvents.uuid(node(n), i),
                        i,
                        "NVIDIA A100-SXM4-80GB",
                        90.0 + v,
                        70_000.0 + v,
                        11_920.0 - v,
                        60.0 + v,
                        300.0 + v,
                        0L,
                        0L,
                        0L,
                        10L + v,
                        0,
                        "llama-pretrain-worker-" + n,
                        "research");
            }
        }
        Event[] out = new Event[GPUS * ROUNDS];
        String[] nodes = new String[NODES];
        for (int n = 0; n < NODES; n++) {
            nodes[n] = node(n);
        }
        for (int r = 0; r < ROUNDS; r++) {
            Instant t = T0.plusSeconds(10L + r);
            for (int gpu = 0; gpu < GPUS; gpu++) {
                out[r * GPUS + gpu] = new Event(
                        "bench",
                        "bench",
                        EventType.GPU_SAMPLE,
                        nodes[gpu / GPUS_PER_NODE],
                        t,
                        payloads[r % payloads.length][gpu]);
            }
        }
        return out;
    }

    private static String node(int n) {
        return "ip-10-" + n / 250 + "-" + n % 250 + "-17.ec2.internal";
    }

    /** Without an argument: a plain timed loop (no JMH). With {@code jmh}: the JMH run. */
    public static void main(String[] args) throws RunnerException {
        if (args.length > 0 && args[0].equals("jmh")) {
            new Runner(new OptionsBuilder()
                            .include(FleetApplyBenchmark.class.getName())
                            .build())
                    .run();
            return;
        }
        Event[] events = samples();
        for (int pass = 0; pass < 5; pass++) {
            Fleet f = registeredFleet();
            long start = System.nanoTime();
            int signals = 0;
            for (Event e : events) {
                signals += f.apply(e).size();
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf(
                    Locale.ROOT,
                    "pass %d: %,d gpu.sample events in %.2f s = %,.0f events/s (%d signals)%n",
                    pass,
                    events.length,
                    seconds,
                    events.length / seconds,
                    signals);
        }
    }
}
