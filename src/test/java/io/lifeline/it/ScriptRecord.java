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
     * The interruption an incident that closed at {@code closedAt} (epoch seconds) was about: the one ended by the
     * newest restore before it (the incident closes at the first progress after the restore).
     */
    Interruption interruptionClosedAt(double closedAt) throws IOException {
        JsonNode resumed = last("resumed", e -> t(e) < closedAt + 0.5);
        if (resumed == null) {
            throw new IllegalStateException("no restore before " + closedAt + " in " + file);
        }
        return interruption(resumed);
    }

    /**
     * An incident's figures against the script's: when training stopped (the incident closed minus its downtime) and
     * moved again (it closed), the downtime between, and the lost work. Prints one line {@code DRILL-TRUTH {json}}
     * with both sides; returns what differs by more than a second, empty when nothing does.
     */
    static List<String> compare(String job, JsonNode incident, Interruption truth) throws IOException {
        return compare(job, incident, truth, 1.0);
    }

    /** As {@link #compare(String, JsonNode, Interruption)}, within {@code tolerance} seconds. */
    static List<String> compare(String job, JsonNode incident, Interruption truth, double tolerance)
            throws IOException {
        double closed = seconds(Instant.parse(incident.path("closedAt").asText()));
        double downtime = incident.path("downtimeMillis").asLong() / 1000.0;
        double stopped = closed - downtime;
        double lost = incident.path("lostReworkMillis").asLong() / 1000.0;
        java.util.Map<String, Object> line = new java.util.LinkedHashMap<>();
        line.put("job", job);
        line.put("incident", incident.path("id").asText());
        line.put("cause", incident.path("cause").asText());
        line.put("lifelineDowntimeSeconds", downtime);
        line.put("scriptDowntimeSeconds", round(truth.downtime()));
        line.put("lifelineLostSeconds", lost);
        line.put("scriptLostSeconds", round(truth.lostSeconds()));
        line.put("scriptLostSteps", truth.lostSteps());
        line.put("trainingStoppedDelta", round(stopped - truth.stoppedAt()));
        line.put("trainingMovedDelta", round(closed - truth.movedAt()));
        line.put("incidentJson", incident);
        String json = JSON.writeValueAsString(line);
        System.out.println("DRILL-TRUTH " + json);
        List<String> off = new ArrayList<>();
        if (Math.abs(stopped - truth.stoppedAt()) > tolerance) {
            off.add("training stopped " + round(stopped - truth.stoppedAt()) + " s off the script's");
        }
        if (Math.abs(closed - truth.movedAt()) > tolerance) {
            off.add("training moved " + round(closed - truth.movedAt()) + " s off the script's first step");
        }
        if (Math.abs(downtime - truth.downtime()) > tolerance) {
            off.add("downtime " + downtime + " s, the script's " + round(truth.downtime()) + " s");
        }
        if (Math.abs(lost - truth.lostSeconds()) > tolerance) {
            off.add("lost work " + lost + " s, the script's " + round(truth.lostSeconds()) + " s");
        }
        return off.isEmpty() ? off : List.of(json + ": " + off);
    }

    private static double round(double seconds) {
        return Math.round(seconds * 1000) / 1000.0;
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
            // From the restored step's own making, or, when the attempt began by restoring it, from the restore.
            double lastAt = t(lastStep);
            JsonNode made = last("step", e -> t(e) < lastAt && e.path("step").asLong() == restored);
            JsonNode back = last("resumed", e -> t(e) < lastAt && e.path("step").asLong() == restored);
            double from = Math.max(made == null ? lastAt : t(made), back == null ? Double.NEGATIVE_INFINITY : t(back));
            lostSeconds = lastAt - from;
        }
        return new Interruption(stopped, t(moved), last, restored, last - restored, lostSeconds);
    }
}
