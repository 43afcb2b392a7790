package io.lifeline.domain.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.codec.trace.TraceReaders;
import io.lifeline.domain.job.goodput.GoodputView;
import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.job.incident.IncidentOutcome;
import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.domain.job.membership.RendezvousRound;
import io.lifeline.domain.replay.Trace;
import io.lifeline.domain.replay.TraceFormat;
import io.lifeline.domain.replay.TracePlayer;
import io.lifeline.testing.Fixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Replays of real traces (see src/test/resources/fixtures/SOURCES.md) through the product's trace import
 * ({@code codec.trace.TraceReaders}, {@code domain.replay}): the incidents and interruption counts the model derives
 * are compared with a count made by hand from the files.
 */
class TraceReplayTest {

    private static final Path TRACES = Fixtures.path("traces");

    private static Jobs replay(TraceFormat format, String file) throws IOException {
        Trace trace = TraceReaders.read(format, Files.readString(TRACES.resolve(file)));
        assertThat(trace.rejected()).isEmpty();
        return TracePlayer.play(trace);
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
        Jobs jobs = replay(TraceFormat.PHILLY_CSV, "philly_multi_attempt_jobs_restarts.csv");

        Map<String, Integer> expected = new LinkedHashMap<>();
        for (String[] kv : new String[][] {
            {"14199", "1"},
            {"14164", "2"},
            {"14228", "2"},
            {"10241", "1"},
            {"13423", "1"},
            {"13174", "2"},
            {"14168", "1"},
            {"14321", "1"},
            {"14213", "3"},
            {"10240", "1"},
            {"14399", "1"},
            {"3358", "2"}
        }) {
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

    /**
     * The official Philly example entry: one job, attempt 1 on m47, attempt 2 on m412. One interruption,
     * a 7 s gap (01:13:23 → 01:13:30), and the membership history shows the move between machines.
     */
    @Test
    void phillyExampleEntryMovesTheJobBetweenMachines() throws IOException {
        Jobs jobs = replay(TraceFormat.PHILLY_JSON, "philly_cluster_job_log_example_entry.json");
        String job = "philly/application_1506638472019_14199";
        assertThat(jobs.detail(job).orElseThrow().summary().state()).isEqualTo(JobState.SUCCEEDED);
        IncidentView i = jobs.incidents(job).orElseThrow().get(0);
        assertThat(jobs.incidents(job).orElseThrow()).hasSize(1);
        assertThat(i.nodes()).containsExactly("m47");
        assertThat(i.downtimeMillis()).isEqualTo(7_000);
        assertThat(jobs.membership(job).orElseThrow().rounds())
                .extracting(r -> r.participants().get(0).node())
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
        Jobs jobs = replay(TraceFormat.OPT175B, "opt175b_chronicles_dated_events.csv");

        JobDetail r12 = jobs.detail(run12).orElseThrow();
        assertThat(r12.summary().state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(r12.summary().interruptions()).isEqualTo(50);
        assertThat(r12.interruptionsByCause())
                .isEqualTo(Map.of(IncidentCause.SOFTWARE_ERROR, 40, IncidentCause.NODE_FAILURE, 10));
        List<IncidentView> incidents = jobs.incidents(run12).orElseThrow();
        assertThat(incidents).hasSize(50).allMatch(i -> i.outcome() == IncidentOutcome.RECOVERED);
        IncidentView burst = incidents.stream()
                .filter(i -> "node_failure_burst".equals(i.causeDetail()))
                .findFirst()
                .orElseThrow();
        assertThat(burst.nodes()).hasSize(5);
        IncidentView deleted = incidents.stream()
                .filter(i -> "cluster_deleted".equals(i.causeDetail()))
                .findFirst()
                .orElseThrow();
        assertThat(deleted.nodes()).hasSize(64); // all 128 hosts went; an incident keeps at most 64 names
        assertThat(deleted.gpusAtStop()).isEqualTo(1024);
        // 50 interruptions, each recovered in 20 minutes
        assertThat(r12.goodput().recoveryMillis()).isEqualTo(50 * 20 * 60_000L);
        // wall: 2021-11-11T12:00Z → 2022-01-06T20:46Z = 56 d 8 h 46 min
        assertThat(r12.goodput().wallMillis()).isEqualTo(((56L * 24 + 8) * 60 + 46) * 60_000L);
        assertThat(r12.membership().rounds())
                .extracting(RendezvousRound::worldSize)
                .containsOnly(1024);

        JobDetail r11 = jobs.detail(run11).orElseThrow();
        assertThat(r11.summary().state()).isEqualTo(JobState.CANCELLED);
        assertThat(r11.summary().interruptions()).isZero();
    }
}
