package io.lifeline.domain.replay;

import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.SchedulerData;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.gpu.Csv;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads the OPT-175B chronicles' dated events CSV (metaseq {@code projects/OPT/chronicles}, header
 * {@code date,time_tz,event_type,cause_or_detail,count,...}) into the events of the runs 11.xx and 12.xx.
 *
 * <p>The chronicles give dates, not times, and say little of how each restart went, so the reader assumes (and
 * docs/whatif.md states): an event without a time happens at noon UTC; an aggregate of N events over a date range
 * is N events spread evenly from its first date; {@value #HOSTS} hosts of {@value #GPUS_PER_HOST} GPUs (the 1,024
 * A100s of the logbook); each interruption is recovered in 20 minutes (restart at +5, new group at +10, restore at
 * +15, progress at +20); a count written {@code 40+} is taken as its lower bound. A lost host is replaced by a
 * spare ({@code s001}...). Restarts of an aggregate without a lower-layer signal are worker failures (software
 * errors to the model); host losses are node terminations.
 */
public final class Opt175bReader {

    static final int HOSTS = 128;
    static final int GPUS_PER_HOST = 8;
    static final String RUN_11 = "metaseq/opt-175b-11";
    static final String RUN_12 = "metaseq/opt-175b-12";
    private static final List<String> REQUIRED = List.of("date", "event_type");
    private static final Map<String, ZoneOffset> ZONES = Map.of(
            "UTC",
            ZoneOffset.UTC,
            "GMT",
            ZoneOffset.UTC,
            "PST",
            ZoneOffset.ofHours(-8),
            "PDT",
            ZoneOffset.ofHours(-7),
            "EST",
            ZoneOffset.ofHours(-5),
            "EDT",
            ZoneOffset.ofHours(-4));

    private final TraceEvents out = new TraceEvents(TraceFormat.OPT175B);
    private final List<String> hosts = new ArrayList<>();
    private int spare;
    private boolean run11;
    private boolean run12;

    private Opt175bReader() {
        for (int i = 1; i <= HOSTS; i++) {
            hosts.add(String.format("h%03d", i));
        }
    }

    /** What the file is instead, when it is a chronicle itself; empty otherwise. */
    private static String hint(String text) {
        return text.stripLeading().startsWith("#")
                ? " (this is a chronicle's markdown, which is not read: give the dated events CSV made from the chronicles,"
                        + " see docs/whatif.md)"
                : "";
    }

    /** The trace in {@code text}. */
    public static Trace read(String text) {
        List<TraceRejection> rejected = new ArrayList<>();
        List<Csv.Row> rows;
        try {
            rows = Csv.rows(text);
        } catch (IllegalArgumentException e) {
            return new Trace(
                    TraceFormat.OPT175B, List.of(), List.of(new TraceRejection(1, e.getMessage() + hint(text))));
        }
        if (rows.isEmpty()) {
            return new Trace(TraceFormat.OPT175B, List.of(), List.of(new TraceRejection(1, "no header")));
        }
        Header header = Header.of(rows.get(0), REQUIRED);
        if (!header.missing().isEmpty()) {
            return new Trace(
                    TraceFormat.OPT175B,
                    List.of(),
                    List.of(new TraceRejection(1, "header lacks columns " + header.missing() + hint(text))));
        }
        Opt175bReader reader = new Opt175bReader();
        for (Csv.Row row : rows.subList(1, rows.size())) {
            try {
                reader.row(header.values(row));
            } catch (IllegalArgumentException e) {
                rejected.add(new TraceRejection(row.line(), e.getMessage()));
            }
        }
        return new Trace(TraceFormat.OPT175B, reader.out.events(), rejected);
    }

    private void row(Map<String, String> r) {
        String type = r.get("event_type").trim();
        String detail = r.getOrDefault("cause_or_detail", "");
        String[] dates = r.get("date").trim().split("/");
        Instant first = at(dates[0], r.getOrDefault("time_tz", ""));
        switch (type) {
            case "run_launch" -> launch(first, detail);
            case "restarts_aggregate", "automated_recovery_aggregate" -> {
                requireRun12(type);
                if (dates.length != 2) {
                    throw new IllegalArgumentException(
                            type + " needs a date range first/last, got '" + r.get("date") + "'");
                }
                int count = count(r.get("count"));
                Instant last = at(dates[1], "");
                if (last.isBefore(first)) {
                    throw new IllegalArgumentException("date range ends before it starts: '" + r.get("date") + "'");
                }
                long step = (last.getEpochSecond() - first.getEpochSecond()) / count;
                for (int k = 0; k < count; k++) {
                    Instant t = first.plusSeconds(k * step);
                    if (type.equals("restarts_aggregate")) {
                        out.add(
                                RUN_12,
                                t,
                                EventType.TRAINER_WORKER_FAILED,
                                new TrainerData.WorkerFailed(null, 0, null, null, detail));
                    } else {
                        lose(k % hosts.size(), t, "hardware failure");
                    }
                    recover(t);
                }
            }
            case "node_failure_burst", "cluster_deleted" -> {
                requireRun12(type);
                int down = type.equals("node_failure_burst")
                        ? Math.min(count(r.get("count")), hosts.size())
                        : hosts.size();
                for (int k = 0; k < down; k++) {
                    lose(k, first, type);
                }
                recover(first);
            }
            case "run_completed" -> {
                requireRun12(type);
                out.add(RUN_12, first, EventType.JOB_FINISHED, new JobData.Finished(JobData.Outcome.SUCCEEDED, null));
            }
            default -> throw new IllegalArgumentException("unknown event_type '" + type + "'");
        }
    }

    private void launch(Instant at, String detail) {
        boolean eleven = detail.trim().startsWith("experiment 11");
        if (!eleven && run11) {
            out.add(
                    RUN_11,
                    at,
                    EventType.JOB_FINISHED,
                    new JobData.Finished(JobData.Outcome.CANCELLED, "superseded by 12.00"));
        }
        String job = eleven ? RUN_11 : RUN_12;
        if (eleven) {
            run11 = true;
        } else {
            run12 = true;
        }
        out.add(
                job,
                at,
                EventType.JOB_SUBMITTED,
                new JobData.Submitted(
                        "metaseq",
                        null,
                        null,
                        new ElasticPolicy(HOSTS, HOSTS, GPUS_PER_HOST, 1000),
                        GPUS_PER_HOST,
                        null));
        out.add(job, at, EventType.WORKLOAD_ADMITTED, new SchedulerData.Admitted(job, null));
        rendezvous(job, at, 1);
        out.add(job, at.plusSeconds(600), EventType.TRAINER_PROGRESS, new TrainerData.Progress(0, null, null));
    }

    private void requireRun12(String type) {
        if (!run12) {
            throw new IllegalArgumentException(type + " before the launch of run 12.xx");
        }
    }

    private void lose(int index, Instant at, String reason) {
        out.add(hosts.get(index), at, EventType.NODE_TERMINATED, new NodeData.Terminated(reason));
        hosts.set(index, String.format("s%03d", ++spare));
    }

    private void rendezvous(String job, Instant at, int round) {
        List<TrainerData.Participant> ps = new ArrayList<>();
        for (int i = 0; i < hosts.size(); i++) {
            ps.add(new TrainerData.Participant(hosts.get(i), i * GPUS_PER_HOST, GPUS_PER_HOST));
        }
        out.add(
                job,
                at,
                EventType.TRAINER_RENDEZVOUS,
                new TrainerData.Rendezvous(null, round, hosts.size() * GPUS_PER_HOST, ps));
    }

    /** Restart at +5 min, new group at +10 min, restore at +15 min, first progress at +20 min. */
    private void recover(Instant failedAt) {
        out.add(
                RUN_12,
                failedAt.plusSeconds(300),
                EventType.TRAINER_RESTARTED,
                new TrainerData.Restarted(null, 1, null));
        rendezvous(RUN_12, failedAt.plusSeconds(600), 2);
        out.add(
                RUN_12,
                failedAt.plusSeconds(900),
                EventType.TRAINER_RESTORED,
                new TrainerData.Restored("latest", 1, null));
        out.add(
                RUN_12,
                failedAt.plusSeconds(1200),
                EventType.TRAINER_PROGRESS,
                new TrainerData.Progress(2, null, null));
    }

    private static int count(String s) {
        String v = s == null ? "" : s.trim();
        if (v.endsWith("+")) {
            v = v.substring(0, v.length() - 1);
        }
        int n = Header.integer("count", v);
        if (n <= 0) {
            throw new IllegalArgumentException("count must be positive, got " + n);
        }
        return n;
    }

    /** A date with an optional {@code HH:mm ZONE}; without a time, noon UTC. */
    private static Instant at(String date, String timeTz) {
        LocalDate d;
        try {
            d = LocalDate.parse(date.trim());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("date is not of the form yyyy-MM-dd: '" + date + "'");
        }
        String t = timeTz == null ? "" : timeTz.trim();
        if (t.isEmpty()) {
            return d.atTime(12, 0).toInstant(ZoneOffset.UTC);
        }
        String[] parts = t.split("\\s+");
        ZoneOffset zone = parts.length > 1 ? ZONES.get(parts[1].toUpperCase(Locale.ROOT)) : ZoneOffset.UTC;
        if (zone == null) {
            throw new IllegalArgumentException("unknown time zone '" + parts[1] + "' (known: " + ZONES.keySet() + ")");
        }
        try {
            return d.atTime(LocalTime.parse(parts[0])).toInstant(zone);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("time_tz is not of the form HH:mm ZONE: '" + timeTz + "'");
        }
    }
}
