package io.lifeline.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * Reads a job's hang verdict ({@code GET /api/v1/jobs/{namespace}/{name}/hang}) every 100 ms in a thread of its own
 * and keeps every answer with when it was read: a verdict that says {@code suspected} only for the few seconds
 * before the workers are restarted is seen all the same, and a healthy run's verdicts can all be counted.
 */
final class HangVerdicts implements AutoCloseable {

    /** One verdict and the wall-clock time it was read. */
    record Seen(long atMillis, JsonNode verdict) {}

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long PERIOD_MILLIS = 100;

    private final LifelineProcess app;
    private final String path;
    private final List<Seen> seen = new CopyOnWriteArrayList<>();
    private final List<String> failures = new CopyOnWriteArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;

    HangVerdicts(LifelineProcess app, String job) {
        this.app = app;
        this.path = "/api/v1/jobs/" + job + "/hang";
        this.thread = new Thread(this::poll, "hang-watch-" + job);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    private void poll() {
        while (running) {
            try {
                HttpResponse<String> r = app.get(path);
                long at = System.currentTimeMillis();
                if (r.statusCode() == 200) {
                    seen.add(new Seen(at, JSON.readTree(r.body())));
                } else if (failures.size() < 20) {
                    failures.add(r.statusCode() + " " + r.body());
                }
                Thread.sleep(PERIOD_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception e) {
                if (failures.size() < 20) {
                    failures.add(e.toString());
                }
            }
        }
    }

    /** The first verdict read as {@code suspected}, or null. */
    Seen firstSuspected() {
        for (Seen s : seen) {
            if ("suspected".equals(s.verdict().path("state").asText())) {
                return s;
            }
        }
        return null;
    }

    /** The verdicts read that match. */
    long count(Predicate<Seen> p) {
        return seen.stream().filter(p).count();
    }

    /** Every verdict read as suspected. */
    List<JsonNode> suspectedVerdicts() {
        return seen.stream()
                .map(Seen::verdict)
                .filter(v -> "suspected".equals(v.path("state").asText()))
                .toList();
    }

    /** The suspects named by every suspected verdict, repeats included. */
    List<JsonNode> suspects() {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode v : suspectedVerdicts()) {
            v.path("suspects").forEach(out::add);
        }
        return out;
    }

    /** A summary for a failure message: verdicts by state, the last one, the failed reads. */
    String all() {
        Map<String, Integer> states = new TreeMap<>();
        seen.forEach(s -> states.merge(s.verdict().path("state").asText(), 1, Integer::sum));
        String last =
                seen.isEmpty() ? "none" : seen.get(seen.size() - 1).verdict().toString();
        return "states " + states + ", last " + last + ", failed reads " + failures;
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.interrupt();
        thread.join(5000);
    }
}
