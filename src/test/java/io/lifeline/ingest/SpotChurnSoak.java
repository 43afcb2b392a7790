package io.lifeline.ingest;

import io.lifeline.demo.FleetSimulator;
import io.lifeline.demo.Scenario;
import io.lifeline.demo.runtime.ScenarioParser;
import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.fleet.FleetSnapshot;
import io.lifeline.eventlog.RetryLaterException;
import io.lifeline.runtime.ModelRuntime;
import io.lifeline.runtime.ModelRuntimes;
import io.lifeline.testing.MovableClock;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * A soak run of the model under spot churn: the built-in simulator with its spot pools reclaimed every few minutes
 * (new node names and GPU uuids all the time), plus short jobs started and ended every simulated minute and late
 * events of jobs ended long ago, all through the telemetry sampler and the model's bounded queue into the real model
 * (snapshots and history drains included). Simulated time runs {@code --speed} times faster than the wall clock
 * (the sampler and the model read the simulated clock). Every {@code --sample-seconds} it prints the heap used after a
 * full GC, with the sizes of the model's parts; at the end, first, last and max, and the slope.
 *
 * <p>Usage: {@code bench/soak.sh [minutes] [speed]}, or this class's main with {@code --minutes}, {@code --speed},
 * {@code --sample-seconds}.
 */
public final class SpotChurnSoak {

    private static final Instant START = Instant.parse("2026-01-05T00:00:00Z");
    private static final int JOBS_PER_MINUTE = 20;
    private static final long JOB_MINUTES = 10;

    private final MovableClock clock = new MovableClock(START);
    private final FleetSimulator sim;
    private final TelemetrySampler sampler;
    private final ModelRuntime model;
    private final SplittableRandom rng = new SplittableRandom(7);
    private final LinkedHashSet<String> liveNodes = new LinkedHashSet<>();
    private final ArrayDeque<String[]> runningJobs = new ArrayDeque<>();
    private final ArrayDeque<String> endedJobs = new ArrayDeque<>();
    private long jobSeq;
    private long ids;
    private long events;
    private long pushedBack;
    private long nodesSeen;
    private FleetSnapshot previous = FleetSnapshot.EMPTY;

    private SpotChurnSoak() {
        Scenario base = new ScenarioParser().loadDefault();
        List<Scenario.Pool> pools = new ArrayList<>();
        for (Scenario.Pool p : base.pools()) {
            // Every node of every pool is spot and reclaimed about every 6 simulated minutes.
            pools.add(new Scenario.Pool(
                    p.name(),
                    io.lifeline.domain.event.CapacityType.SPOT,
                    p.zone(),
                    p.instanceType(),
                    p.gpuModel(),
                    p.nodeCount() * 2,
                    p.gpusPerNode(),
                    10.0,
                    60));
        }
        Scenario churn = new Scenario(
                base.seed(),
                base.telemetryIntervalSeconds(),
                base.progressIntervalSeconds(),
                1.0,
                base.fatalXidFraction(),
                30,
                300,
                null,
                pools,
                base.jobs());
        this.sim = new FleetSimulator(churn, START);
        clock.set(START);
        this.sampler = new TelemetrySampler(Duration.ofMinutes(5), Duration.ofMinutes(30), clock);
        this.model = ModelRuntimes.start(clock, 250_000, 128L * 1024 * 1024);
    }

    public static void main(String[] args) throws Exception {
        long minutes = 60;
        double speed = 30;
        long sampleSeconds = 60;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--minutes" -> minutes = Long.parseLong(args[i + 1]);
                case "--speed" -> speed = Double.parseDouble(args[i + 1]);
                case "--sample-seconds" -> sampleSeconds = Long.parseLong(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        new SpotChurnSoak().run(minutes, speed, sampleSeconds);
    }

    @SuppressWarnings("FutureReturnValueIgnored") // the test waits on the model, not on each task
    private void run(long minutes, double speed, long sampleSeconds) throws Exception {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long wallStart = System.nanoTime();
        long wallEnd = wallStart + TimeUnit.MINUTES.toNanos(minutes);
        long nextSample = wallStart;
        long nextSnapshot = wallStart;
        List<double[]> series = new ArrayList<>();
        System.out.println("wall_s,sim_h,events,pushed_back,nodes_seen,used_heap_after_gc_mib,fleet_nodes,jobs,"
                + "sampler_marks,queue_events");
        Instant sim = START;
        while (System.nanoTime() < wallEnd) {
            long now = System.nanoTime();
            if (now >= nextSample) {
                double[] point = sample(memory, (now - wallStart) / 1e9, sim);
                series.add(point);
                nextSample += TimeUnit.SECONDS.toNanos(sampleSeconds);
            }
            // Keep simulated time at most `speed` times ahead of the wall clock.
            double wallSeconds = (System.nanoTime() - wallStart) / 1e9;
            if (Duration.between(START, sim).toMillis() / 1000.0 > wallSeconds * speed) {
                Thread.sleep(5);
                continue;
            }
            sim = sim.plusSeconds(1);
            List<Event> batch = new ArrayList<>(sim.getEpochSecond() % 60 == 0 ? jobChurn(sim) : List.of());
            batch.addAll(this.sim.advanceTo(sim));
            clock.set(sim);
            submit(batch);
            if (sim.getEpochSecond() % 5 == 0) {
                // What JobHistory does in the application, on the model thread.
                model.read(m -> {
                    m.jobs().drainTimeline();
                    m.jobs().drainRecords();
                    return null;
                });
            }
            if (System.nanoTime() >= nextSnapshot) {
                // What ModelSnapshots does, once a wall-clock second.
                nextSnapshot = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
                model.read(m -> {
                    previous = m.fleet().snapshot(previous);
                    m.jobs().details();
                    return null;
                });
            }
        }
        double[] last = sample(memory, (System.nanoTime() - wallStart) / 1e9, sim);
        series.add(last);
        summary(series);
        ModelRuntimes.stop(model);
    }

    /** The pipeline's path without the store: sampler, room in the queue first, then the model. */
    private void submit(List<Event> batch) throws InterruptedException {
        for (Event e : batch) {
            if (e.type() == EventType.NODE_REGISTERED) {
                liveNodes.add(e.subject());
                nodesSeen++;
            } else if (e.type() == EventType.NODE_TERMINATED) {
                liveNodes.remove(e.subject());
            }
            if (e.isTelemetry()) {
                sampler.shouldStore(e);
            } else {
                sampler.lifecycle(e);
            }
        }
        while (true) {
            try {
                model.enqueue(batch, model.admit(batch));
                break;
            } catch (RetryLaterException e) {
                pushedBack++;
                Thread.sleep(10);
            }
        }
        events += batch.size();
    }

    /** Short jobs: some start on live nodes, those started {@link #JOB_MINUTES} ago end, and ended ones speak late. */
    private List<Event> jobChurn(Instant at) {
        List<Event> out = new ArrayList<>();
        while (!runningJobs.isEmpty() && Long.parseLong(runningJobs.peekFirst()[1]) <= at.getEpochSecond()) {
            String job = runningJobs.pollFirst()[0];
            out.add(event(job, at, EventType.JOB_FINISHED, new JobData.Finished(JobData.Outcome.SUCCEEDED, "done")));
            endedJobs.addLast(job);
        }
        List<String> nodes = new ArrayList<>(liveNodes);
        for (int i = 0; i < JOBS_PER_MINUTE && nodes.size() >= 2; i++) {
            String job = "soak/job-" + jobSeq++;
            out.add(event(
                    job,
                    at,
                    EventType.JOB_SUBMITTED,
                    new JobData.Submitted("soak", "soak", "low", new ElasticPolicy(1, 2, 8, 3), 8, 300L)));
            String a = nodes.get(rng.nextInt(nodes.size()));
            String b = nodes.get(rng.nextInt(nodes.size()));
            out.add(event(
                    job,
                    at,
                    EventType.TRAINER_RENDEZVOUS,
                    new TrainerData.Rendezvous(
                            "run",
                            1,
                            16,
                            List.of(new TrainerData.Participant(a, 0, 8), new TrainerData.Participant(b, 8, 8)))));
            out.add(event(job, at, EventType.TRAINER_PROGRESS, new TrainerData.Progress(1, 100.0, 1e5)));
            runningJobs.addLast(new String[] {job, Long.toString(at.getEpochSecond() + JOB_MINUTES * 60)});
        }
        // A late progress of a job that ended a while ago (forgotten by then, once the ended history is full).
        while (endedJobs.size() > 6_000) {
            String gone = endedJobs.pollFirst();
            if (rng.nextInt(10) == 0) {
                out.add(event(gone, at, EventType.TRAINER_PROGRESS, new TrainerData.Progress(2, 100.0, 1e5)));
            }
        }
        return out;
    }

    private Event event(String job, Instant at, EventType type, io.lifeline.domain.event.EventData data) {
        return new Event("soak-" + ids++, "soak/jobs", type, job, at, data);
    }

    private double[] sample(MemoryMXBean memory, double wallSeconds, Instant sim) throws Exception {
        model.barrier().get(60, TimeUnit.SECONDS);
        int[] sizes =
                model.read(m -> new int[] {m.fleet().size(), m.jobs().size()}).get(60, TimeUnit.SECONDS);
        System.gc();
        System.gc();
        double used = memory.getHeapMemoryUsage().getUsed() / (1024.0 * 1024.0);
        double simHours = Duration.between(START, sim).toSeconds() / 3600.0;
        System.out.printf(
                Locale.ROOT,
                "%.0f,%.2f,%d,%d,%d,%.1f,%d,%d,%d,%d%n",
                wallSeconds,
                simHours,
                events,
                pushedBack,
                nodesSeen,
                used,
                sizes[0],
                sizes[1],
                sampler.size(),
                model.queuedEvents());
        System.out.flush();
        return new double[] {wallSeconds, used};
    }

    private static void summary(List<double[]> series) {
        double first = series.get(0)[1];
        double last = series.get(series.size() - 1)[1];
        double max = series.stream().mapToDouble(p -> p[1]).max().orElse(0);
        System.out.printf(
                Locale.ROOT,
                "summary: samples=%d first=%.1f MiB last=%.1f MiB max=%.1f MiB "
                        + "slope=%.2f MiB/h (all) slope=%.2f MiB/h (second half)%n",
                series.size(),
                first,
                last,
                max,
                slope(series),
                slope(series.subList(series.size() / 2, series.size())));
    }

    /** Least-squares slope of used heap over wall time, in MiB per hour. */
    private static double slope(List<double[]> points) {
        int n = points.size();
        if (n < 2) {
            return 0;
        }
        double mx = 0;
        double my = 0;
        for (double[] p : points) {
            mx += p[0] / n;
            my += p[1] / n;
        }
        double num = 0;
        double den = 0;
        for (double[] p : points) {
            num += (p[0] - mx) * (p[1] - my);
            den += (p[0] - mx) * (p[0] - mx);
        }
        return den == 0 ? 0 : num / den * 3600;
    }
}
