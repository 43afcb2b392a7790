package io.lifeline.domain.replay;

import io.lifeline.domain.gpu.Csv;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the Philly multi-attempt jobs CSV (one row per attempt, header {@code job_id,num_gpus,submitted_time,
 * attempt_index,attempt_start,attempt_end,event_type,cause,...}). A row that cannot be read is refused with its line
 * and reason; a job's attempts are taken in {@code attempt_index} order.
 */
public final class PhillyCsvReader {

    static final List<String> REQUIRED = List.of(
            "job_id", "num_gpus", "submitted_time", "attempt_index", "attempt_start", "attempt_end", "event_type");
    private static final String FINAL = "final_attempt_completed_status_";
    private static final String RESCHEDULED = "attempt_ended_then_rescheduled";

    private PhillyCsvReader() {}

    /** What the file is instead, when it is another shape of the Philly trace; empty otherwise. */
    private static String hint(String text) {
        String t = text.stripLeading();
        String first = t.lines().findFirst().orElse("").toLowerCase(java.util.Locale.ROOT);
        if (t.startsWith("[") || t.startsWith("{")) {
            return " (this is JSON: Philly's cluster_job_log is read as philly-json)";
        }
        if (first.contains("machineid") || first.contains("machine_id") || first.matches("^m\\d+,.*")) {
            return " (this is one of Philly's utilisation or machine files, which hold no jobs: give the multi-attempt jobs"
                    + " CSV, or cluster_job_log as philly-json)";
        }
        return "";
    }

    /** The trace in {@code text}. */
    public static Trace read(String text) {
        List<TraceRejection> rejected = new ArrayList<>();
        List<Csv.Row> rows;
        try {
            rows = Csv.rows(text);
        } catch (IllegalArgumentException e) {
            return new Trace(
                    TraceFormat.PHILLY_CSV, List.of(), List.of(new TraceRejection(1, e.getMessage() + hint(text))));
        }
        if (rows.isEmpty()) {
            return new Trace(TraceFormat.PHILLY_CSV, List.of(), List.of(new TraceRejection(1, "no header")));
        }
        Header header = Header.of(rows.get(0), REQUIRED);
        if (!header.missing().isEmpty()) {
            return new Trace(
                    TraceFormat.PHILLY_CSV,
                    List.of(),
                    List.of(new TraceRejection(1, "header lacks columns " + header.missing() + hint(text))));
        }
        Map<String, Job> jobs = new LinkedHashMap<>();
        for (Csv.Row row : rows.subList(1, rows.size())) {
            try {
                Map<String, String> r = header.values(row);
                String id = r.get("job_id").trim();
                if (id.isEmpty()) {
                    throw new IllegalArgumentException("job_id is empty");
                }
                int gpus = positive("num_gpus", r.get("num_gpus"));
                Instant submitted = PhillyJob.time("submitted_time", r.get("submitted_time"));
                int index = Header.integer("attempt_index", r.get("attempt_index"));
                Instant start = PhillyJob.time("attempt_start", r.get("attempt_start"));
                Instant end = PhillyJob.time("attempt_end", r.get("attempt_end"));
                String type = r.get("event_type").trim();
                String status;
                if (type.equals(RESCHEDULED)) {
                    status = null;
                } else if (type.startsWith(FINAL) && type.length() > FINAL.length()) {
                    status = type.substring(FINAL.length());
                } else {
                    throw new IllegalArgumentException(
                            "event_type '" + type + "' is neither " + RESCHEDULED + " nor " + FINAL + "<status>");
                }
                String cause = r.getOrDefault("cause", "");
                Job job = jobs.computeIfAbsent(id, k -> new Job(row.line(), submitted));
                if (job.attempts.containsKey(index)) {
                    throw new IllegalArgumentException("attempt " + index + " of " + id + " appears twice");
                }
                job.attempts.put(
                        index,
                        new PhillyJob.Attempt(
                                start,
                                end,
                                List.of(new PhillyJob.Machine(null, gpus)),
                                cause.isBlank() || cause.equals("n/a") ? null : cause));
                if (status != null) {
                    job.status = status;
                }
            } catch (IllegalArgumentException e) {
                rejected.add(new TraceRejection(row.line(), e.getMessage()));
            }
        }
        List<PhillyTranslation.Numbered> out = new ArrayList<>();
        jobs.forEach((id, j) -> {
            List<PhillyJob.Attempt> attempts = new ArrayList<>();
            j.attempts.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> attempts.add(e.getValue()));
            out.add(new PhillyTranslation.Numbered(
                    j.line, new PhillyJob(id, j.status, null, null, j.submitted, attempts)));
        });
        return PhillyTranslation.trace(TraceFormat.PHILLY_CSV, out, rejected);
    }

    private static int positive(String field, String s) {
        int v = Header.integer(field, s);
        if (v <= 0) {
            throw new IllegalArgumentException(field + " must be positive, got " + v);
        }
        return v;
    }

    private static final class Job {
        final int line;
        final Instant submitted;
        final Map<Integer, PhillyJob.Attempt> attempts = new LinkedHashMap<>();
        String status;

        Job(int line, Instant submitted) {
            this.line = line;
            this.submitted = submitted;
        }
    }
}
