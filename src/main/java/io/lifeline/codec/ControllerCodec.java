package io.lifeline.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.TrainerData;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The wire form of what job controllers report of a run besides its pods: {@code trainer.status} (Kubeflow Trainer's
 * {@code trainerStatus}) and {@code job.restarted} (JobSet's restart counters).
 */
final class ControllerCodec {

    private static final Pattern KIND = Pattern.compile("recreate|in-place");
    private static final int MAX_METRIC_TEXT = 64;

    private ControllerCodec() {}

    static TrainerData.StatusReport status(DataReader d) {
        Instant at = d.optInstant("reportedAt");
        if (at == null) {
            throw new InvalidEventException(d.path("reportedAt") + ": required");
        }
        List<TrainerData.Metric> metrics = new ArrayList<>();
        JsonNode arr = d.optArray("metrics");
        if (arr != null) {
            if (arr.size() > TrainerData.StatusReport.MAX_METRICS) {
                throw new InvalidEventException(
                        d.path("metrics") + ": more than " + TrainerData.StatusReport.MAX_METRICS + " entries");
            }
            for (int i = 0; i < arr.size(); i++) {
                JsonNode n = arr.get(i);
                if (!n.isObject()) {
                    throw new InvalidEventException(
                            d.path("metrics") + "[" + i + "]: expected an object, got " + DataReader.describe(n));
                }
                DataReader r = new DataReader(n, d.path("metrics") + "[" + i + "].");
                metrics.add(new TrainerData.Metric(short_(r, "name"), short_(r, "value")));
            }
        }
        return new TrainerData.StatusReport(
                at,
                d.optInt("percent", 0, 100),
                d.optLong("remainingSeconds", 0, Long.MAX_VALUE),
                d.optLong("step", 0, Long.MAX_VALUE),
                d.optLong("totalSteps", 0, Long.MAX_VALUE),
                TrustCodec.loss(d),
                metrics);
    }

    private static String short_(DataReader r, String field) {
        String s = r.reqString(field);
        if (s.length() > MAX_METRIC_TEXT) {
            throw new InvalidEventException(r.path(field) + ": longer than " + MAX_METRIC_TEXT + " characters");
        }
        return s;
    }

    static void encodeStatus(TrainerData.StatusReport s, ObjectNode o) {
        o.put("reportedAt", s.reportedAt().toString());
        if (s.percent() != null) {
            o.put("percent", s.percent());
        }
        if (s.remainingSeconds() != null) {
            o.put("remainingSeconds", s.remainingSeconds());
        }
        if (s.step() != null) {
            o.put("step", s.step());
        }
        if (s.totalSteps() != null) {
            o.put("totalSteps", s.totalSteps());
        }
        TrustCodec.putLoss(o, s.loss());
        if (!s.metrics().isEmpty()) {
            ArrayNode ms = o.putArray("metrics");
            for (TrainerData.Metric m : s.metrics()) {
                ms.addObject().put("name", m.name()).put("value", m.value());
            }
        }
    }

    static JobData.Restarted restarted(DataReader d) {
        String kind = d.reqString("kind");
        if (!KIND.matcher(kind).matches()) {
            throw new InvalidEventException(
                    d.path("kind") + ": expected recreate or in-place, got " + DataReader.abbreviate(kind));
        }
        return new JobData.Restarted(
                d.reqString("by"),
                kind,
                d.reqInt("attempt", 0, Integer.MAX_VALUE),
                d.optInt("previous", 0, Integer.MAX_VALUE),
                d.optInt("countsTowardsMax", 0, Integer.MAX_VALUE),
                d.optInt("maxRestarts", 0, Integer.MAX_VALUE),
                d.optString("reason"));
    }

    static void encodeRestarted(JobData.Restarted r, ObjectNode o) {
        o.put("by", r.by()).put("kind", r.kind()).put("attempt", r.attempt());
        if (r.previous() != null) {
            o.put("previous", r.previous());
        }
        if (r.countsTowardsMax() != null) {
            o.put("countsTowardsMax", r.countsTowardsMax());
        }
        if (r.maxRestarts() != null) {
            o.put("maxRestarts", r.maxRestarts());
        }
        if (r.reason() != null) {
            o.put("reason", r.reason());
        }
    }
}
