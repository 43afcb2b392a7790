package io.lifeline.it;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;

/**
 * A drill script's own record ({@code --record} of examples/elastic_train.py and examples/crash_drill.py): one JSON
 * object a line, {@code t} the wall clock in seconds since the epoch when the script did it. The ground truth an
 * incident's figures are held against: it owes nothing to Lifeline.
 */
final class ScriptRecord {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path file;

    ScriptRecord(Path file) {
        this.file = file;
    }

    Path file() {
        return file;
    }

    /** Every line, in the order of its time (ranks append as they go: a line may come a little out of order). */
    List<JsonNode> all() throws IOException {
        List<JsonNode> out = new ArrayList<>();
        if (!Files.exists(file)) {
            return out;
        }
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (line.isBlank()) {
                continue;
            }
            try {
                out.add(JSON.readTree(line));
            } catch (JsonProcessingException partial) {
                // a line being written
            }
        }
        out.sort(Comparator.comparingDouble(ScriptRecord::t));
        return out;
    }

    List<JsonNode> events(String event) throws IOException {
        return all().stream()
                .filter(e -> event.equals(e.path("event").asText()))
                .toList();
    }

    /** The first line of that event matching {@code p}, or null. */
    JsonNode first(String event, Predicate<JsonNode> p) throws IOException {
        return events(event).stream().filter(p).findFirst().orElse(null);
    }

    /** The last line of that event matching {@code p}, or null. */
    JsonNode last(String event, Predicate<JsonNode> p) throws IOException {
        JsonNode found = null;
        for (JsonNode e : events(event)) {
            if (p.test(e)) {
                found = e;
            }
        }
        return found;
    }

    static double t(JsonNode e) {
        return e.path("t").asDouble();
    }

    static double seconds(Instant i) {
        return i.toEpochMilli() / 1000.0;
    }

    /**
     * One interruption as the script lived it: training stopped at {@code stoppedAt} (its last step, or the start of
     * its hold), restored {@code restoredStep} and took its first step again at {@code movedAt}; the steps it threw
     * away ({@code lostSteps}, the last step before the restart minus the restored one) took {@code lostSeconds} to
     * make the first time.
     */
    record Interruption(
            double stoppedAt, double movedAt, long lastStep, long restoredStep, long lostSteps, double lostSeconds) {
        double downtime() {
            return movedAt - stoppedAt;
        }
    }

    /**
     * The interruption ended by the restore {@code resumed} (a {@code resumed} line of a restarted worker): training
     * stopped at the newest step, or hold, before it, and moved at the first step after it. The lost seconds are the
     * time between the restored step and the last step, as the attempt that threw them away took them.
     */
    Interruption interruption(JsonNode resumed) throws IOException {
        double at = t(resumed);
        JsonNode lastStep = last("step", e -> t(e) < at);
        JsonNode hold = last("holding", e -> t(e) < at);
        JsonNode moved = first("step", e -> t(e) > at);
        if (lastStep == null || moved == null) {
            throw new IllegalStateException("no step before or after " + resumed);
        }
        long restored = resumed.path("step").asLong();
        long last = lastStep.path("step").asLong();
        double stopped = hold != null && t(hold) >= t(lastStep) ? t(hold) : t(lastStep);
        double lostSeconds = 0;
        if (last > restored) {
            JsonNode from = last("step", e -> t(e) < at && e.path("step").asLong() == restored);
            lostSeconds = t(lastStep) - (from == null ? t(lastStep) : t(from));
        }
        return new Interruption(stopped, t(moved), last, restored, last - restored, lostSeconds);
    }
}
