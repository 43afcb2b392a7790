package io.lifeline.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lifeline.codec.EventCodec;
import io.lifeline.demo.FleetSimulator;
import io.lifeline.demo.TestScenarios;
import io.lifeline.domain.event.Event;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One point of the HTTP cost curve, from a JVM of its own against a running Lifeline: the simulator's large fleet
 * ({@code gpus / 8} nodes, one job per 32 GPUs, telemetry and progress every 10 s) is sent over
 * {@code POST /api/v1/events} in batches, first {@code fill} simulated seconds as fast as the server takes them, then
 * at the fleet's real rate (one simulated second per wall-clock second; when the server is slower the simulation falls
 * behind the clock, and the achieved rate says so). Once the simulation has caught up with the clock (or after
 * {@code catchup} seconds, default 300, behind it), {@code readers}
 * threads, each on its own keep-alive connection, alternate {@code GET /api/v1/jobs} and {@code GET /api/v1/gpus}
 * (first page, default size) back to back; the first {@code warm} seconds of reads are dropped, then reads are timed
 * (request sent to last byte received) until each endpoint has {@code requests} of them or {@code measure} seconds
 * have passed. Prints one JSON object (and appends it to {@code out}). Run by {@code bench/cost-curve-http.sh}:
 *
 * <pre>
 * java -cp target/test-classes:target/classes:... io.lifeline.bench.FleetHttpLoad url=http://127.0.0.1:8080 \
 *     token=... gpus=16384 [fill=60] [catchup=300] [warm=10] [measure=180] [requests=3000] [readers=4] [senders=2] [batch=1000]
 *     [out=F]
 * </pre>
 */
public final class FleetHttpLoad {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] STOP = new byte[0];

    private final String url;
    private final String token;
    private final int gpus;
    private final int batch;
    private final BlockingQueue<byte[]> batches;
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong generated = new AtomicLong();
    private final AtomicLong retries = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong rejected = new AtomicLong();
    private volatile Instant simulated;
    private volatile boolean stopping;

    private FleetHttpLoad(String url, String token, int gpus, int batch) {
        this.url = url;
        this.token = token;
        this.gpus = gpus;
        this.batch = batch;
        // A few seconds of fleet queued at most: past that the simulation waits for the server, so it falls behind.
        this.batches = new ArrayBlockingQueue<>(Math.max(8, 4 * gpus / 10 / batch + 4));
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> a = new HashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("expected key=value, got " + arg);
            }
            a.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        FleetHttpLoad load = new FleetHttpLoad(
                a.getOrDefault("url", "http://127.0.0.1:8080"),
                a.get("token"),
                Integer.parseInt(a.getOrDefault("gpus", "16384")),
                Integer.parseInt(a.getOrDefault("batch", "1000")));
        String line = load.run(
                Integer.parseInt(a.getOrDefault("fill", "60")),
                Integer.parseInt(a.getOrDefault("catchup", "300")),
                Integer.parseInt(a.getOrDefault("warm", "10")),
                Integer.parseInt(a.getOrDefault("measure", "180")),
                Integer.parseInt(a.getOrDefault("requests", "3000")),
                Integer.parseInt(a.getOrDefault("readers", "4")),
                Integer.parseInt(a.getOrDefault("senders", "2")));
        System.out.println(line);
        if (a.containsKey("out")) {
            Files.writeString(
                    Path.of(a.get("out")),
                    line + "\n",
                    StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND);
        }
        System.exit(load.failures.get() == 0 ? 0 : 1);
    }

    private String run(int fill, int catchUp, int warm, int measure, int requests, int readers, int senders)
            throws Exception {
        int nodes = gpus / 8;
        int jobs = Math.max(1, gpus / 32);
        Instant start = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(fill);
        long setup = System.nanoTime();
        FleetSimulator sim = new FleetSimulator(TestScenarios.large(nodes, jobs), start);
        simulated = start;
        log("simulator of %,d nodes and %,d jobs ready in %.1f s", nodes, jobs, (System.nanoTime() - setup) / 1e9);

        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < senders; i++) {
            threads.add(started("sender-" + i, this::send));
        }
        Thread producer = started("simulator", () -> produce(sim));

        long fillStart = System.nanoTime();
        long said = fillStart;
        while (Duration.between(simulated, Instant.now()).toMillis() > 1500 || !batches.isEmpty()) {
            if (System.nanoTime() - fillStart > TimeUnit.SECONDS.toNanos(catchUp)) {
                // A server slower than the fleet never catches up: measure it behind, the lag and rate say how far.
                log(
                        "the simulation is still %d s behind the clock after %d s; measuring anyway",
                        Duration.between(simulated, Instant.now()).toSeconds(), catchUp);
                break;
            }
            if (System.nanoTime() - said > TimeUnit.SECONDS.toNanos(30)) {
                said = System.nanoTime();
                log(
                        "filling: %,d events accepted, the simulation %d s behind the clock",
                        accepted.get(),
                        Duration.between(simulated, Instant.now()).toSeconds());
            }
            Thread.sleep(200);
        }
        double fillSeconds = (System.nanoTime() - fillStart) / 1e9;
        log("caught up with the clock after %.1f s (%,d events accepted)", fillSeconds, accepted.get());

        Reads reads = new Reads(readers);
        reads.start();
        Thread.sleep(warm * 1000L);
        long acceptedAt = accepted.get();
        long generatedAt = generated.get();
        Instant simulatedAt = simulated;
        long t0 = System.nanoTime();
        reads.record(true);
        long deadline = t0 + TimeUnit.SECONDS.toNanos(measure);
        while (System.nanoTime() < deadline && (reads.count(0) < requests || reads.count(1) < requests)) {
            Thread.sleep(100);
        }
        reads.record(false);
        double seconds = (System.nanoTime() - t0) / 1e9;
        long acceptedIn = accepted.get() - acceptedAt;
        long generatedIn = generated.get() - generatedAt;
        double simulatedSeconds = Duration.between(simulatedAt, simulated).toMillis() / 1e3;
        long lag = Duration.between(simulated, Instant.now()).toSeconds();
        reads.stop();
        stopping = true;
        producer.join();
        for (int i = 0; i < threads.size(); i++) {
            batches.put(STOP);
        }
        for (Thread t : threads) {
            t.join();
        }

        Map<String, Object> o = new LinkedHashMap<>();
        o.put("gpus", gpus);
        o.put("nodes", nodes);
        o.put("jobs", jobs);
        o.put("app_gpus", total("/api/v1/gpus?limit=1"));
        o.put("app_jobs", total("/api/v1/jobs?limit=1"));
        o.put("fill_simulated_seconds", fill);
        o.put("fill_wall_seconds", fillSeconds);
        o.put("measure_seconds", seconds);
        o.put("readers", readers);
        // What the fleet emits per simulated second, and what the server took per wall-clock second meanwhile.
        o.put("offered_events_per_s", simulatedSeconds > 0 ? generatedIn / simulatedSeconds : 0.0);
        o.put("achieved_events_per_s", acceptedIn / seconds);
        o.put("simulation_lag_seconds", lag);
        o.put("ingest_retries", retries.get());
        o.put("ingest_failures", failures.get());
        o.put("ingest_rejected_events", rejected.get());
        reads.summarise(o, 0, "jobs");
        reads.summarise(o, 1, "gpus");
        o.put("measured_at", Instant.now().toString());
        return json(o);
    }

    /** One simulated second at a time, never ahead of the clock; blocks while the queue is full. */
    private void produce(FleetSimulator sim) {
        EventCodec codec = new EventCodec();
        try {
            Instant t = simulated;
            while (!stopping) {
                Instant next = t.plusSeconds(1);
                long ahead = Duration.between(Instant.now(), next).toMillis();
                if (ahead > 0) {
                    Thread.sleep(ahead);
                }
                List<Event> events = sim.advanceTo(next);
                for (int from = 0; from < events.size(); from += batch) {
                    ByteArrayOutputStream body = new ByteArrayOutputStream(batch * 400);
                    body.write('[');
                    int to = Math.min(events.size(), from + batch);
                    for (int i = from; i < to; i++) {
                        if (i > from) {
                            body.write(',');
                        }
                        body.write(codec.toBytes(codec.encodeEvent(events.get(i))));
                    }
                    body.write(']');
                    batches.put(body.toByteArray());
                }
                generated.addAndGet(events.size());
                t = next;
                simulated = t;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private void send() {
        HttpClient client = client();
        try {
            while (true) {
                byte[] body = batches.take();
                if (body == STOP) {
                    return;
                }
                HttpRequest request = HttpRequest.newBuilder(URI.create(url + "/api/v1/events"))
                        .timeout(Duration.ofSeconds(120))
                        .header("Authorization", "Bearer " + token)
                        .header("Content-Type", "application/cloudevents-batch+json")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                        .build();
                while (true) {
                    HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() == 503 || r.statusCode() == 429) {
                        // Pushed back: the same batch again after a moment, as a well-behaved sender does.
                        retries.incrementAndGet();
                        Thread.sleep(50);
                        continue;
                    }
                    if (r.statusCode() != 200) {
                        failures.incrementAndGet();
                        System.err.println("HTTP " + r.statusCode() + ": " + r.body());
                    } else {
                        JsonNode receipt = JSON.readTree(r.body());
                        accepted.addAndGet(receipt.path("accepted").asLong()
                                + receipt.path("duplicates").asLong());
                        if (receipt.path("rejected").asLong() > 0
                                && rejected.getAndAdd(receipt.path("rejected").asLong()) == 0) {
                            System.err.println(
                                    "refused: " + receipt.path("errors").path(0));
                        }
                    }
                    break;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            failures.incrementAndGet();
            throw new IllegalStateException(e);
        }
    }

    /** The readers: each alternates the two endpoints on its own connection; latencies kept while recording. */
    private final class Reads {
        private static final String[] PATHS = {"/api/v1/jobs", "/api/v1/gpus"};
        private final List<Thread> threads = new ArrayList<>();
        private final int readers;

        @SuppressWarnings("unchecked")
        private final List<Long>[] latencies = new List[] {new ArrayList<Long>(), new ArrayList<Long>()};

        private final AtomicLong errors = new AtomicLong();
        private volatile boolean recording;
        private volatile boolean done;

        Reads(int readers) {
            this.readers = readers;
        }

        void start() {
            for (int i = 0; i < readers; i++) {
                int first = i % 2;
                threads.add(started("reader-" + i, () -> read(first)));
            }
        }

        private void read(int first) {
            HttpClient client = client();
            for (int n = first; !done; n++) {
                int which = n % 2;
                HttpRequest request = HttpRequest.newBuilder(URI.create(url + PATHS[which]))
                        .timeout(Duration.ofSeconds(120))
                        .header("Authorization", "Bearer " + token)
                        .GET()
                        .build();
                boolean timed = recording;
                long t0 = System.nanoTime();
                try {
                    HttpResponse<byte[]> r = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
                    long nanos = System.nanoTime() - t0;
                    if (r.statusCode() != 200) {
                        errors.incrementAndGet();
                        System.err.println("GET " + PATHS[which] + ": HTTP " + r.statusCode());
                    } else if (timed && recording) {
                        synchronized (latencies[which]) {
                            latencies[which].add(nanos);
                        }
                    }
                } catch (IOException e) {
                    errors.incrementAndGet();
                    System.err.println("GET " + PATHS[which] + ": " + e);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        void record(boolean on) {
            recording = on;
        }

        int count(int which) {
            synchronized (latencies[which]) {
                return latencies[which].size();
            }
        }

        void stop() throws InterruptedException {
            done = true;
            for (Thread t : threads) {
                t.join(TimeUnit.MINUTES.toMillis(3));
            }
        }

        void summarise(Map<String, Object> o, int which, String name) {
            long[] nanos;
            synchronized (latencies[which]) {
                nanos = latencies[which].stream().mapToLong(Long::longValue).toArray();
            }
            LatencySummary s = new LatencySummary(nanos);
            o.put("api_" + name + "_requests", s.count());
            o.put("api_" + name + "_p50_ms", s.percentileMs(0.50));
            o.put("api_" + name + "_p90_ms", s.percentileMs(0.90));
            o.put("api_" + name + "_p99_ms", s.percentileMs(0.99));
            o.put("api_" + name + "_max_ms", s.maxMs());
            if (which == 1) {
                o.put("api_errors", errors.get());
            }
        }
    }

    private long total(String path) throws IOException, InterruptedException {
        HttpResponse<String> r = client().send(
                        HttpRequest.newBuilder(URI.create(url + path))
                                .timeout(Duration.ofSeconds(120))
                                .header("Authorization", "Bearer " + token)
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        JsonNode body = JSON.readTree(r.body());
        return body.path("total").asLong(-1);
    }

    private static Thread started(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.start();
        return t;
    }

    private static HttpClient client() {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
    }

    private static void log(String format, Object... args) {
        System.err.printf(Locale.ROOT, "[load] " + format + "%n", args);
    }

    private static String json(Map<String, Object> o) {
        return io.lifeline.testing.FlatJson.of(o);
    }
}
