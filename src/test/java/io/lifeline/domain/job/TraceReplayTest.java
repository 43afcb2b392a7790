package io.lifeline.domain.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventData;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.SchedulerData;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.fleet.NodeSignal;
import io.lifeline.domain.job.goodput.GoodputView;
import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.job.incident.IncidentOutcome;
import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.domain.job.membership.RendezvousRound;
import io.lifeline.testing.Fixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Replays of real traces (see src/test/resources/fixtures/SOURCES.md): rows are turned into catalogue events and the
 * incidents and interruption counts the model derives are compared with a count made by hand from the files.
 */
class TraceReplayTest {

    private static final Path TRACES = Fixtures.path("traces");
    private static final DateTimeFormatter PHILLY = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private final MutableClock clock = new MutableClock(Instant.parse("2017-10-01T00:00:00Z"));
    private final Jobs jobs = new Jobs(new TestNodes(), clock);
    private int ids;

    private void apply(String job, Instant at, EventType type, EventData data) {
        jobs.apply(new Event("r" + (++ids), "replay://" + type.family().name().toLowerCase(), type, job, at, data));
    }

    private static Instant philly(String s) {
        return LocalDateTime.parse(s, PHILLY).toInstant(ZoneOffset.UTC);
    }

    /** Splits one CSV line, honouring double quotes. */
    private static List<String> csv(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '"') {
                if (quoted && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    cur.append('"');
                    i++;
                } else {
                    quoted = !quoted;
                }
            } else if (c == ',' && !quoted) {
                out.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        out.add(cur.toString());
        return out;
    }

    private static List<Map<String, String>> rows(String file) throws IOException {
        List<String> lines = Files.readAllLines(TRACES.resolve(file));
        List<String> header = csv(lines.get(0));
        List<Map<String, String>> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            if (line.isBlank()) {
                continue;
            }
            List<String> cells = csv(line);
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < header.size(); i++) {
                row.put(header.get(i), i < cells.size() ? cells.get(i) : "");
            }
            rows.add(row);
        }
        return rows;
    }

    /**
     * Philly: one row per attempt. Each attempt becomes admission (first attempt) or agent restart, a
     * rendezvous on one machine and a first progress at attempt_start; an attempt that ended and was
     * rescheduled becomes a worker failure at attempt_end; the final attempt ends the job.
     *
     * <p>Hand count from the CSV: attempts per job − 1 =
     * 14199: 1, 14164: 2, 14228: 2, 10241: 1, 13423: 1, 13174: 2, 14168: 1, 14321: 1, 14213: 3, 10240: 1,
     * 14399: 1, 3358: 2 → 18 interruptions over 12 jobs. Downtime = the restart gaps:
     * 7 + 14 + 1805 + 12 + 186 + 14 + 191 + 0 + 141 + 0 + 14 + 206 + 187 + 13 + 650 + 0 + 0 + 190 = 3630 s.
     * The trace records no checkpoints, so every rescheduled attempt's run time is lost work.
     */
    @Test
    void phillyMultiAttemptJobsReplayIntoOneIncidentPerReschedule() throws IOException {
        Map<String, List<Map<String, String>>> byJob = new LinkedHashMap<>();
        for (Map<String, String> row : rows("philly_multi_attempt_jobs_restarts.csv")) {
            byJob.computeIfAbsent(row.get("job_id"), k -> new ArrayList<>()).add(row);
        }
        for (Map.Entry<String, List<Map<String, String>>> e : byJob.entrySet()) {
            replayPhilly("philly/" + e.getKey(), e.getValue());
        }
        clock.set(Instant.parse("2017-10-10T00:00:00Z"));

        Map<String, Integer> expected = new LinkedHashMap<>();
        for (String[] kv : new String[][] {{"14199", "1"}, {"14164", "2"}, {"14228", "2"}, {"10241", "1"}, {"13423", "1"},
            {"13174", "2"}, {"14168", "1"}, {"14321", "1"}, {"14213", "3"}, {"10240", "1"}, {"14399", "1"}, {"3358", "2"}}) {
            expected.put("philly/application_1506638472019_" + kv[0], Integer.parseInt(kv[1]));
        }
        int interruptions = 0;
        long downtime = 0;
        for (JobSummary s : jobs.list(JobFilter.all())) {
            assertThat(s.interruptions()).as(s.name()).isEqualTo(expected.get(s.name()));
            assertThat(s.state()).isEqualTo(JobState.SUCCEEDED);
            interruptions += s.interruptions();
            for (IncidentView i : jobs.incidents(s.name()).orElseThrow()) {
                assertThat(i.outcome()).isEqualTo(IncidentOutcome.RECOVERED);
                assertThat(i.cause()).isEqualTo(IncidentCause.SOFTWARE_ERROR);
                downtime += i.downtimeMillis();
            }
        }
        assertThat(jobs.list(JobFilter.all())).hasSize(12);
        assertThat(interruptions).isEqualTo(18);
        assertThat(downtime).isEqualTo(3630_000L);

        // application_1506638472019_14199: submitted 01:11:39, attempt 0 01:12:09–01:13:23 (74 s, lost),
        // gap 7 s, attempt 1 01:13:30 – 10-09 06:53:12 (193182 s). Wall = 30 + 74 + 7 + 193182 = 193293 s.
        GoodputView g = jobs.goodput("philly/application_1506638472019_14199").orElseThrow();
        assertThat(g.wallMillis()).isEqualTo(193_293_000L);
        assertThat(g.waitingMillis()).isEqualTo(30_000);
        assertThat(g.lostReworkMillis()).isEqualTo(74_000);
        assertThat(g.recoveryMillis()).isEqualTo(7_000);
        assertThat(g.productiveMillis()).isEqualTo(193_182_000L);
        // 8 GPUs: (74 + 7) s × 8 = 648 GPU-s = 0.18 GPU-h
        assertThat(g.lostGpuHours()).isEqualTo(0.18);
    }

    private void replayPhilly(String job, List<Map<String, String>> attempts) {
        int gpus = Integer.parseInt(attempts.get(0).get("num_gpus"));
        apply(job, philly(attempts.get(0).get("submitted_time")), EventType.JOB_SUBMITTED,
                new JobData.Submitted("philly", null, null, new ElasticPolicy(1, 1, gpus, 10), gpus, null));
        for (Map<String, String> a : attempts) {
            int index = Integer.parseInt(a.get("attempt_index"));
            Instant start = philly(a.get("attempt_start"));
            if (index == 0) {
                apply(job, start, EventType.WORKLOAD_ADMITTED, new SchedulerData.Admitted(job, null));
            } else {
                apply(job, start, EventType.TRAINER_RESTARTED, new TrainerData.Restarted(null, index, "rescheduled"));
            }
            apply(job, start, EventType.TRAINER_RENDEZVOUS, new TrainerData.Rendezvous(null, index + 1, gpus,
                    List.of(new TrainerData.Participant(job + "-m" + index, 0, gpus))));
            apply(job, start, EventType.TRAINER_PROGRESS, new TrainerData.Progress(0, null, null));
            Instant end = philly(a.get("attempt_end"));
            if (a.get("event_type").equals("attempt_ended_then_rescheduled")) {
                apply(job, end, EventType.TRAINER_WORKER_FAILED,
                        new TrainerData.WorkerFailed(null, 0, null, null, "attempt ended (cause " + a.get("cause") + ")"));
            } else {
                apply(job, end, EventType.JOB_FINISHED, new JobData.Finished(JobData.Outcome.SUCCEEDED, "Pass"));
            }
        }
    }

    /**
     * The official Philly example entry: one job, attempt 1 on m47, attempt 2 on m412. One interruption,
     * a 7 s gap (01:13:23 → 01:13:30), and the membership history shows the move between machines.
     */
    @Test
    void phillyExampleEntryMovesTheJobBetweenMachines() throws IOException {
        String json = Files.readString(TRACES.resolve("philly_cluster_job_log_example_entry.json"));
        Matcher attempt = Pattern.compile("\"start_time\":\\s*\"([^\"]+)\",\\s*\"end_time\":\\s*\"([^\"]+)\",\\s*"
                + "\"detail\":\\s*\\[\\s*\\{\\s*\"ip\":\\s*\"([^\"]+)\"").matcher(json);
        Matcher submitted = Pattern.compile("\"submitted_time\":\\s*\"([^\"]+)\"").matcher(json);
        assertThat(submitted.find()).isTrue();
        String job = "philly/application_1506638472019_14199";
        apply(job, philly(submitted.group(1)), EventType.JOB_SUBMITTED,
                new JobData.Submitted("philly", "ce2f4c", null, new ElasticPolicy(1, 1, 8, 10), 8, null));
        List<String[]> attempts = new ArrayList<>();
        while (attempt.find()) {
            attempts.add(new String[] {attempt.group(1), attempt.group(2), attempt.group(3)});
        }
        assertThat(attempts).hasSize(2);
        for (int i = 0; i < attempts.size(); i++) {
            Instant start = philly(attempts.get(i)[0]);
            apply(job, start, i == 0 ? EventType.WORKLOAD_ADMITTED : EventType.TRAINER_RESTARTED,
                    i == 0 ? new SchedulerData.Admitted(job, "ee9e8c") : new TrainerData.Restarted(null, i, null));
            apply(job, start, EventType.TRAINER_RENDEZVOUS, new TrainerData.Rendezvous(null, i + 1, 8,
                    List.of(new TrainerData.Participant(attempts.get(i)[2], 0, 8))));
            apply(job, start, EventType.TRAINER_PROGRESS, new TrainerData.Progress(0, null, null));
            Instant end = philly(attempts.get(i)[1]);
            apply(job, end, i < attempts.size() - 1 ? EventType.TRAINER_WORKER_FAILED : EventType.JOB_FINISHED,
                    i < attempts.size() - 1 ? new TrainerData.WorkerFailed(null, 0, attempts.get(i)[2], null, null)
                            : new JobData.Finished(JobData.Outcome.SUCCEEDED, "Pass"));
        }
        IncidentView i = jobs.incidents(job).orElseThrow().get(0);
        assertThat(jobs.incidents(job).orElseThrow()).hasSize(1);
        assertThat(i.nodes()).containsExactly("m47");
        assertThat(i.downtimeMillis()).isEqualTo(7_000);
        assertThat(jobs.membership(job).orElseThrow().rounds()).extracting(r -> r.participants().get(0).node())
                .containsExactly("m47", "m412");
    }

    /**
     * OPT-175B chronicles (metaseq), dated rows. The times of day are not in the file; the test places each
     * event at noon UTC (aggregates spread evenly inside their date range) and recovers each interruption in
     * 20 minutes. 128 hosts × 8 GPUs (the 1,024 A100s of the design notes).
     *
     * <p>Hand count of interruptions of run 12.xx from the file: restarts_aggregate "40+" (taken as 40, the
     * stated lower bound) + node_failure_burst (5 hosts down together: 1 interruption) + cluster_deleted
     * (1 interruption) + automated_recovery_aggregate 8 = 50. Causes: 40 worker failures with no lower-layer
     * signal (software error), 10 node losses (node failure). Run 11.xx: launched 11-05, replaced by 12.00 on
     * 11-11 (cancelled, no interruption recorded).
     */
    @Test
    void opt175bChroniclesReplayIntoFiftyIncidents() throws IOException {
        String run11 = "metaseq/opt-175b-11";
        String run12 = "metaseq/opt-175b-12";
        List<String> hosts = new ArrayList<>();
        for (int i = 1; i <= 128; i++) {
            hosts.add(String.format("h%03d", i));
        }
        int spare = 0;
        for (Map<String, String> row : rows("opt175b_chronicles_dated_events.csv")) {
            String type = row.get("event_type");
            String[] dates = row.get("date").split("/");
            Instant first = LocalDate.parse(dates[0]).atTime(12, 0).toInstant(ZoneOffset.UTC);
            switch (type) {
                case "run_launch" -> {
                    boolean eleven = row.get("cause_or_detail").startsWith("experiment 11");
                    if (!eleven) {
                        apply(run11, first, EventType.JOB_FINISHED,
                                new JobData.Finished(JobData.Outcome.CANCELLED, "superseded by 12.00"));
                    }
                    String job = eleven ? run11 : run12;
                    apply(job, first, EventType.JOB_SUBMITTED,
                            new JobData.Submitted("metaseq", null, null, new ElasticPolicy(128, 128, 8, 1000), 8, null));
                    apply(job, first, EventType.WORKLOAD_ADMITTED, new SchedulerData.Admitted(job, null));
                    rendezvous(job, first, 1, hosts);
                    apply(job, first.plusSeconds(600), EventType.TRAINER_PROGRESS, new TrainerData.Progress(0, null, null));
                }
                case "restarts_aggregate", "automated_recovery_aggregate" -> {
                    int count = Integer.parseInt(row.get("count").replace("+", ""));
                    Instant last = LocalDate.parse(dates[1]).atTime(12, 0).toInstant(ZoneOffset.UTC);
                    long step = (last.getEpochSecond() - first.getEpochSecond()) / count;
                    for (int k = 0; k < count; k++) {
                        Instant t = first.plusSeconds(k * step);
                        if (type.equals("restarts_aggregate")) {
                            apply(run12, t, EventType.TRAINER_WORKER_FAILED,
                                    new TrainerData.WorkerFailed(null, 0, null, null, row.get("cause_or_detail")));
                        } else {
                            String h = hosts.get(k);
                            jobs.onNodeSignal(new NodeSignal(h, t, NodeSignal.Kind.TERMINATED, null, null, "hardware failure"));
                            hosts.set(k, String.format("s%03d", ++spare));
                        }
                        recover(run12, t, hosts);
                    }
                }
                case "node_failure_burst", "cluster_deleted" -> {
                    int down = type.equals("node_failure_burst") ? Integer.parseInt(row.get("count")) : hosts.size();
                    for (int k = 0; k < down; k++) {
                        jobs.onNodeSignal(new NodeSignal(hosts.get(k), first, NodeSignal.Kind.TERMINATED, null, null, type));
                        hosts.set(k, String.format("s%03d", ++spare));
                    }
                    recover(run12, first, hosts);
                }
                case "run_completed" -> {
                    // "2022-01-06", "12:46 PST" → 20:46 UTC
                    Instant done = LocalDate.parse(dates[0]).atTime(20, 46).toInstant(ZoneOffset.UTC);
                    apply(run12, done, EventType.JOB_FINISHED, new JobData.Finished(JobData.Outcome.SUCCEEDED, null));
                }
                default -> throw new AssertionError("unexpected row type " + type);
            }
        }
        clock.set(Instant.parse("2022-01-07T00:00:00Z"));

        JobDetail r12 = jobs.detail(run12).orElseThrow();
        assertThat(r12.summary().state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(r12.summary().interruptions()).isEqualTo(50);
        assertThat(r12.interruptionsByCause()).isEqualTo(Map.of(IncidentCause.SOFTWARE_ERROR, 40, IncidentCause.NODE_FAILURE, 10));
        List<IncidentView> incidents = jobs.incidents(run12).orElseThrow();
        assertThat(incidents).hasSize(50).allMatch(i -> i.outcome() == IncidentOutcome.RECOVERED);
        IncidentView burst = incidents.stream().filter(i -> "node_failure_burst".equals(i.causeDetail())).findFirst()
                .orElseThrow();
        assertThat(burst.nodes()).hasSize(5);
        IncidentView deleted = incidents.stream().filter(i -> "cluster_deleted".equals(i.causeDetail())).findFirst()
                .orElseThrow();
        assertThat(deleted.nodes()).hasSize(64); // all 128 hosts went; an incident keeps at most 64 names
        assertThat(deleted.gpusAtStop()).isEqualTo(1024);
        // 50 interruptions, each recovered in 20 minutes
        assertThat(r12.goodput().recoveryMillis()).isEqualTo(50 * 20 * 60_000L);
        // wall: 2021-11-11T12:00Z → 2022-01-06T20:46Z = 56 d 8 h 46 min
        assertThat(r12.goodput().wallMillis()).isEqualTo(((56L * 24 + 8) * 60 + 46) * 60_000L);
        assertThat(r12.membership().rounds()).extracting(RendezvousRound::worldSize).containsOnly(1024);

        JobDetail r11 = jobs.detail(run11).orElseThrow();
        assertThat(r11.summary().state()).isEqualTo(JobState.CANCELLED);
        assertThat(r11.summary().interruptions()).isZero();
    }

    private void rendezvous(String job, Instant at, int round, List<String> nodes) {
        List<TrainerData.Participant> ps = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            ps.add(new TrainerData.Participant(nodes.get(i), i * 8, 8));
        }
        apply(job, at, EventType.TRAINER_RENDEZVOUS, new TrainerData.Rendezvous(null, round, nodes.size() * 8, ps));
    }

    /** Restart at +5 min, new group at +10 min, restore at +15 min, first progress at +20 min. */
    private void recover(String job, Instant failedAt, List<String> hosts) {
        apply(job, failedAt.plusSeconds(300), EventType.TRAINER_RESTARTED, new TrainerData.Restarted(null, 1, null));
        rendezvous(job, failedAt.plusSeconds(600), 2, hosts);
        apply(job, failedAt.plusSeconds(900), EventType.TRAINER_RESTORED, new TrainerData.Restored("latest", 1, null));
        apply(job, failedAt.plusSeconds(1200), EventType.TRAINER_PROGRESS, new TrainerData.Progress(2, null, null));
    }
}
