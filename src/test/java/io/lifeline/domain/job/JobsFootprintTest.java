package io.lifeline.domain.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventData;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.testing.FigureFile;
import io.lifeline.testing.MovableClock;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Heap per job, what {@link JobLimits#defaults()} rests on: used heap after GC before and after the jobs model takes
 * N jobs, divided by N. Two kinds: a job as a flood makes it (one {@code job.submitted}), and a busy job whose every
 * bounded history is full (timeline, checkpoints, remembered event ids, rounds), the most one job can hold.
 * Written to {@code target/benchmarks/jobs-footprint.json}.
 */
class JobsFootprintTest {

    private static final Instant T0 = Instant.parse("2026-05-01T00:00:00Z");
    private int ids;

    private Event event(String job, long seconds, EventType type, EventData data) {
        return new Event("e" + ids++, "test://footprint/" + (ids % 7), type, job, T0.plusSeconds(seconds), data);
    }

    private void submitted(Jobs jobs, String job) {
        jobs.apply(event(
                job,
                0,
                EventType.JOB_SUBMITTED,
                new JobData.Submitted("team-" + (ids % 50), "alice", "high", new ElasticPolicy(1, 4, 8, 3), 8, 600L)));
    }

    private void busy(Jobs jobs, String job) {
        submitted(jobs, job);
        for (int round = 1; round <= 70; round++) {
            List<TrainerData.Participant> ps = new ArrayList<>();
            for (int n = 0; n < 4; n++) {
                ps.add(new TrainerData.Participant("node-" + (round + n) % 97, n * 8, 8));
            }
            jobs.apply(event(
                    job, round * 10L, EventType.TRAINER_RENDEZVOUS, new TrainerData.Rendezvous("run", round, 32, ps)));
        }
        for (int c = 0; c < 300; c++) {
            long t = 1_000 + c * 60L;
            jobs.apply(event(job, t, EventType.TRAINER_PROGRESS, new TrainerData.Progress(c * 100L, 120.0, 250_000.0)));
            jobs.apply(event(
                    job,
                    t + 1,
                    EventType.TRAINER_CHECKPOINT_STARTED,
                    new TrainerData.CheckpointStarted("ck-" + c, c * 100L, false)));
            jobs.apply(event(
                    job,
                    t + 30,
                    EventType.TRAINER_CHECKPOINT_COMPLETED,
                    new TrainerData.CheckpointCompleted(
                            "ck-" + c,
                            c * 100L,
                            1_000_000L,
                            29.0,
                            29.0,
                            "s3://ckpt/" + job + "/ck-" + c,
                            "sha256:" + c,
                            32,
                            false,
                            32)));
        }
    }

    private static long usedAfterGc() throws InterruptedException {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            System.gc();
            Thread.sleep(100);
            used = Math.min(
                    used,
                    ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return used;
    }

    private double bytesPerJob(int n, boolean full) throws InterruptedException {
        Jobs jobs = new Jobs(new TestNodes(), new MovableClock(T0), JobsConfig.defaults());
        jobs.configureLimits(new JobLimits(1_000_000, 1_000_000, java.time.Duration.ofDays(7)));
        long before = usedAfterGc();
        for (int i = 0; i < n; i++) {
            String job = "team-" + (i % 50) + "/job-" + i;
            if (full) {
                busy(jobs, job);
            } else {
                submitted(jobs, job);
            }
        }
        long after = usedAfterGc();
        assertThat(jobs.size()).isEqualTo(n);
        return (after - before) / (double) n;
    }

    @Test
    void heapPerJobSubmittedAndPerBusyJob() throws Exception {
        FigureFile figures = new FigureFile("jobs-footprint", "./mvnw -o test -Dtest=JobsFootprintTest");
        List<Double> submitted = new ArrayList<>();
        List<Double> busy = new ArrayList<>();
        for (int run = 0; run < 3; run++) {
            figures.sampleLoad();
            submitted.add(bytesPerJob(10_000, false));
            busy.add(bytesPerJob(300, true));
        }
        figures.add("heap_bytes_per_submitted_job", "bytes", submitted, null);
        figures.add("heap_bytes_per_busy_job", "bytes", busy, null);
        figures.write();
        // Generous bounds; the figures are what the defaults are chosen from (docs/configuration.md).
        assertThat(submitted.stream().mapToDouble(d -> d).min().orElseThrow()).isBetween(1_000.0, 40_000.0);
        assertThat(busy.stream().mapToDouble(d -> d).min().orElseThrow()).isBetween(10_000.0, 1_000_000.0);
    }
}
