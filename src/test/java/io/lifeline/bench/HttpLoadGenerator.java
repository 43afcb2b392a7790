package io.lifeline.bench;

import io.lifeline.testing.MixedEventStream;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * HTTP ingest load from a JVM of its own (so that it does not share the server's heap, JIT and GC): posts the ingest
 * benchmark's mixed stream to {@code POST /api/v1/events} in batches, as JSON arrays or NDJSON, over keep-alive
 * HTTP/1.1 connections, one request in flight per connection. Needs only the JDK and {@link MixedEventStream}.
 *
 * <pre>
 * java -cp target/test-classes io.lifeline.bench.HttpLoadGenerator url=http://localhost:8081 token=... \
 *     events=200000 batch=1000 connections=8 format=json|ndjson [prefix=run-1] [wait=true]
 * </pre>
 *
 * Encodes every body first, then (with {@code wait=true}) prints {@code {"ready":true}} and waits for a line on
 * standard input, so that the caller's clock starts with the first request; prints one JSON object at the end.
 */
public final class HttpLoadGenerator {

    private HttpLoadGenerator() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> a = new HashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            a.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        String url = a.getOrDefault("url", "http://localhost:8080") + "/api/v1/events";
        String token = a.get("token");
        int events = Integer.parseInt(a.getOrDefault("events", "200000"));
        int batch = Integer.parseInt(a.getOrDefault("batch", "1000"));
        int connections = Integer.parseInt(a.getOrDefault("connections", "8"));
        boolean ndjson = "ndjson".equals(a.getOrDefault("format", "json"));
        String prefix = a.getOrDefault("prefix", "http-load-" + System.nanoTime());

        List<byte[]> bodies = bodies(new MixedEventStream(prefix), events, batch, ndjson);
        HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
        String contentType = ndjson ? "application/x-ndjson" : "application/json";
        if (Boolean.parseBoolean(a.getOrDefault("wait", "false"))) {
            System.out.println("{\"ready\":true}");
            System.out.flush();
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        }
        AtomicInteger next = new AtomicInteger();
        AtomicLong failures = new AtomicLong();
        AtomicLong retries = new AtomicLong();
        List<Long> latencies = java.util.Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(connections);
        long start = System.nanoTime();
        List<Future<?>> done = new ArrayList<>();
        for (int c = 0; c < connections; c++) {
            done.add(pool.submit(() -> {
                int i;
                while ((i = next.getAndIncrement()) < bodies.size()) {
                    HttpRequest request = HttpRequest.newBuilder(URI.create(url))
                            .timeout(Duration.ofSeconds(60))
                            .header("Content-Type", contentType)
                            .header("Authorization", "Bearer " + token)
                            .POST(HttpRequest.BodyPublishers.ofByteArray(bodies.get(i)))
                            .build();
                    while (true) {
                        long t0 = System.nanoTime();
                        HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());
                        latencies.add(System.nanoTime() - t0);
                        if (r.statusCode() == 503 || r.statusCode() == 429) {
                            // Pushed back: the same batch again after a moment, as a well-behaved sender does.
                            retries.incrementAndGet();
                            Thread.sleep(20);
                            continue;
                        }
                        if (r.statusCode() != 200) {
                            failures.incrementAndGet();
                            System.err.println("HTTP " + r.statusCode() + ": " + r.body());
                        }
                        break;
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        pool.shutdown();
        List<Long> sorted = new ArrayList<>(latencies);
        sorted.sort(Long::compare);
        System.out.printf(
                java.util.Locale.ROOT,
                "{\"events\":%d,\"batch\":%d,\"connections\":%d,\"format\":\"%s\","
                        + "\"seconds\":%.3f,\"events_per_s\":%.0f,\"requests\":%d,\"retries\":%d,\"failures\":%d,"
                        + "\"request_p50_ms\":%.1f,\"request_p99_ms\":%.1f}%n",
                bodies.size() * (long) batch,
                batch,
                connections,
                ndjson ? "ndjson" : "json",
                seconds,
                bodies.size() * (double) batch / seconds,
                sorted.size(),
                retries.get(),
                failures.get(),
                percentile(sorted, 0.50) / 1e6,
                percentile(sorted, 0.99) / 1e6);
        System.exit(failures.get() == 0 ? 0 : 1);
    }

    private static double percentile(List<Long> sorted, double p) {
        return sorted.isEmpty() ? 0 : sorted.get(Math.min(sorted.size() - 1, (int) (p * sorted.size())));
    }

    private static List<byte[]> bodies(MixedEventStream stream, int events, int batch, boolean ndjson) {
        List<byte[]> bodies = new ArrayList<>();
        for (int b = 0; b < events / batch; b++) {
            StringBuilder sb = new StringBuilder(batch * 300);
            if (!ndjson) {
                sb.append('[');
            }
            for (int i = 0; i < batch; i++) {
                if (i > 0) {
                    sb.append(ndjson ? "\n" : ",");
                }
                sb.append(new String(stream.next().json(), StandardCharsets.UTF_8));
            }
            sb.append(ndjson ? "\n" : "]");
            bodies.add(sb.toString().getBytes(StandardCharsets.UTF_8));
        }
        return bodies;
    }
}
