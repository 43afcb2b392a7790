package io.lifeline.runtime;

import io.lifeline.demo.FleetSimulator;
import io.lifeline.demo.TestScenarios;
import io.lifeline.domain.SavedModel;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.job.JobFilter;
import io.lifeline.eventlog.ModelCheckpointCodec;
import io.lifeline.testing.MovableClock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One point of the cost curve: what one replica's model costs at a given fleet size. The simulator's large fleet
 * ({@code gpus / 8} nodes, one job per 32 GPUs, telemetry every 10 s: one {@code gpu.sample} per GPU) is warmed for
 * some simulated minutes, then every round applies one more simulated second of events on this thread (timed apart
 * from their generation) and times, on the same thread, each read the model's thread serves: the published snapshot,
 * the first page of {@code /api/v1/gpus} and of {@code /api/v1/jobs} (the calls the resources make on the model's
 * thread), and a
 * checkpoint's save. Then the retained heap of the model and its snapshot (used heap after GC with and without them),
 * and what a start from a checkpoint costs in the model (decode and restore). Prints and appends one JSON line per
 * run. Run by {@code bench/cost-curve.sh}:
 * <pre>
 * java -Xmx8g -cp ... io.lifeline.runtime.CostCurveBenchmark --gpus 65536 [--warm-seconds 180] [--rounds 60] [--out F]
 * </pre>
 */
public final class CostCurveBenchmark {

    private CostCurveBenchmark() {}

    public static void main(String[] args) throws Exception {
        int gpus = 16_384;
        int warmSeconds = 180;
        int rounds = 60;
        Path out = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--gpus" -> gpus = Integer.parseInt(args[++i]);
                case "--warm-seconds" -> warmSeconds = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        String line = new CostCurveBenchmark.Point(gpus).run(warmSeconds, rounds);
        System.out.println("[cost] " + line);
        if (out != null) {
            Files.writeString(
                    out, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }
    }

    /** One fleet size and its measurements. */
    private static final class Point {
        final int gpus;
        final int nodes;
        final int jobs;
        final MovableClock clock = new MovableClock(TestScenarios.START);
        FleetSimulator sim;
        LiveModel model;
        ModelSnapshot snapshot = ModelSnapshot.EMPTY;
        Instant now = TestScenarios.START;
        long applied;

        Point(int gpus) {
            this.gpus = gpus;
            this.nodes = gpus / 8;
            this.jobs = Math.max(1, gpus / 32);
        }

        String run(int warmSeconds, int rounds) throws IOException {
            long genNanos = System.nanoTime();
            sim = new FleetSimulator(TestScenarios.large(nodes, jobs), now);
            model = LiveModel.create(clock);
            genNanos = System.nanoTime() - genNanos;
            for (int s = 0; s < warmSeconds; s++) {
                applyNanos(events(1));
                snapshot = ModelSnapshot.take(model, snapshot, now, applied);
            }
            long events = 0;
            long nanos = 0;
            long[] snap = new long[rounds];
            long[] gpuPage = new long[rounds];
            long[] jobPage = new long[rounds];
            long[] save = new long[rounds];
            long[] saveFleet = new long[rounds];
            long[] saveJobs = new long[rounds];
            for (int r = 0; r < rounds; r++) {
                List<Event> batch = events(1);
                events += batch.size();
                nanos += applyNanos(batch);
                snap[r] = time(() -> snapshot = ModelSnapshot.take(model, snapshot, now, applied));
                gpuPage[r] = time(() -> model.fleet().gpuPage(name -> true, null, 0, 1000));
                jobPage[r] = time(() -> model.jobs().page(JobFilter.all(), ns -> true, 0, 100));
                save[r] = r % 10 == 0 ? time(model::save) : -1;
                // Its two halves apart, in other rounds: where a save's hold goes.
                saveFleet[r] = r % 10 == 5 ? time(() -> model.fleet().save()) : -1;
                saveJobs[r] = r % 10 == 5 ? time(() -> model.jobs().save()) : -1;
            }
            if (model.fleet().gpus().size() < gpus * 9 / 10) {
                throw new IllegalStateException("expected about " + gpus + " GPUs, the model has "
                        + model.fleet().gpus().size());
            }
            int modelGpus = model.fleet().gpus().size();
            int modelJobs = model.jobs().list(JobFilter.all()).size();

            SavedModel saved = model.save();
            ModelCheckpointCodec codec = new ModelCheckpointCodec();
            long t0 = System.nanoTime();
            byte[] body = codec.encode(saved);
            long encode = System.nanoTime() - t0;
            long[] restore = new long[3];
            for (int i = 0; i < restore.length; i++) {
                t0 = System.nanoTime();
                SavedModel decoded = codec.decode(body);
                LiveModel fresh = LiveModel.create(clock);
                fresh.restore(decoded);
                restore[i] = System.nanoTime() - t0;
            }
            saved = null;

            long with = usedAfterGc();
            model = null;
            snapshot = null;
            long without = usedAfterGc();

            Map<String, Object> o = new LinkedHashMap<>();
            o.put("gpus", gpus);
            o.put("nodes", nodes);
            o.put("jobs", jobs);
            o.put("model_gpus", modelGpus);
            o.put("model_jobs", modelJobs);
            o.put("simulator_setup_ms", genNanos / 1e6);
            o.put("offered_events_per_s", events / (double) rounds);
            o.put("applied_events_per_s", events / (nanos / 1e9));
            o.put("model_thread_busy_fraction", nanos / 1e9 / rounds);
            o.put("heap_bytes_per_gpu", (with - without) / (double) gpus);
            o.put("heap_mib_model_and_snapshot", (with - without) / 1048576.0);
            hold(o, "snapshot", snap);
            hold(o, "api_gpus_page", gpuPage);
            hold(o, "api_jobs_page", jobPage);
            hold(o, "checkpoint_save", Arrays.stream(save).filter(x -> x >= 0).toArray());
            hold(
                    o,
                    "checkpoint_save_fleet",
                    Arrays.stream(saveFleet).filter(x -> x >= 0).toArray());
            hold(
                    o,
                    "checkpoint_save_jobs",
                    Arrays.stream(saveJobs).filter(x -> x >= 0).toArray());
            o.put("checkpoint_bytes", body.length);
            o.put("checkpoint_encode_ms", encode / 1e6);
            o.put("checkpoint_restore_ms", median(restore) / 1e6);
            o.put(
                    "load_average",
                    Double.parseDouble(
                            Files.readString(Path.of("/proc/loadavg")).split(" ")[0]));
            o.put("measured_at", Instant.now().toString());
            return json(o);
        }

        private List<Event> events(int seconds) {
            now = now.plusSeconds(seconds);
            return sim.advanceTo(now);
        }

        private long applyNanos(List<Event> events) {
            long t0 = System.nanoTime();
            for (Event e : events) {
                if (e.time().isAfter(clock.instant())) {
                    clock.set(e.time());
                }
                model.root().apply(e);
            }
            clock.set(now);
            applied += events.size();
            return System.nanoTime() - t0;
        }
    }

    private static long time(Supplier<?> s) {
        long t0 = System.nanoTime();
        if (s.get() == null) {
            throw new IllegalStateException("a read returned nothing");
        }
        return System.nanoTime() - t0;
    }

    private static void hold(Map<String, Object> o, String name, long[] nanos) {
        long[] v = nanos.clone();
        Arrays.sort(v);
        // The first rounds run code the JIT has not compiled yet at small sizes; the p99 and max show them anyway.
        o.put(name + "_hold_median_ms", median(v) / 1e6);
        o.put(name + "_hold_p99_ms", v[(int) Math.ceil(v.length * 0.99) - 1] / 1e6);
        o.put(name + "_hold_max_ms", v[v.length - 1] / 1e6);
    }

    private static double median(long[] values) {
        long[] v = values.clone();
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2.0;
    }

    private static String json(Map<String, Object> o) {
        return io.lifeline.testing.FlatJson.of(o);
    }

    private static long usedAfterGc() {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 4; i++) {
            System.gc();
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return rt.totalMemory() - rt.freeMemory();
    }
}
