package io.lifeline.domain.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.ApplyOutcome;
import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventData;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.NotAppliedReason;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.testing.MovableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the jobs model takes of what senders make up: a submission speaks for its subject's namespace only, new jobs
 * stop at the limits (fleet-wide and per namespace) while the jobs held go on, and a submitted job that never ran is
 * forgotten once silent.
 */
class JobLimitsTest {

    private static final Instant T0 = Instant.parse("2026-05-01T00:00:00Z");
    private final MovableClock clock = new MovableClock(T0);
    private final Jobs jobs = new Jobs(new TestNodes(), clock, JobsConfig.defaults());
    private int ids;

    private Event event(String job, long seconds, EventType type, EventData data) {
        return new Event("e" + ids++, "test://jobs", type, job, T0.plusSeconds(seconds), data);
    }

    private ApplyOutcome submit(String job, String namespace, long seconds) {
        return jobs.apply(event(
                job,
                seconds,
                EventType.JOB_SUBMITTED,
                new JobData.Submitted(namespace, "alice", "high", new ElasticPolicy(1, 2, 8, 3), 8, 600L)));
    }

    private ApplyOutcome progress(String job, long seconds) {
        return jobs.apply(event(job, seconds, EventType.TRAINER_PROGRESS, new TrainerData.Progress(seconds, 1.0, 1.0)));
    }

    private ApplyOutcome finish(String job, long seconds) {
        return jobs.apply(
                event(job, seconds, EventType.JOB_FINISHED, new JobData.Finished(JobData.Outcome.SUCCEEDED, "done")));
    }

    @Test
    void aSubmissionNamingAnotherNamespaceIsNotAppliedAndTheJobStaysInItsOwn() {
        assertThat(submit("speech/whisper", "speech", 0).changed()).isTrue();
        ApplyOutcome moved = submit("speech/whisper", "research", 1);
        assertThat(moved.reason()).isEqualTo(NotAppliedReason.SCOPE_MISMATCH);
        assertThat(moved.detail()).contains("'research'").contains("speech/whisper");
        for (String bad : List.of("Research", "<!channel>", "a_b", "-x", "x".repeat(64))) {
            ApplyOutcome o = submit("speech/other", bad, 2);
            assertThat(o.reason()).as(bad).isEqualTo(NotAppliedReason.SCOPE_MISMATCH);
            assertThat(o.detail()).as(bad).contains("not a Kubernetes namespace name");
        }
        assertThat(jobs.detail("speech/other"))
                .as("a refused submission starts no job")
                .isEmpty();
        assertThat(jobs.list(new JobFilter("research", null, null))).isEmpty();
        assertThat(jobs.list(new JobFilter("speech", null, null)))
                .extracting(JobSummary::name)
                .containsExactly("speech/whisper");
        // Without a namespace, or with its own, a submission is taken.
        assertThat(jobs.apply(event(
                                "speech/plain",
                                3,
                                EventType.JOB_SUBMITTED,
                                new JobData.Submitted(null, "bob", null, new ElasticPolicy(1, 1, 8, 0), 8, null)))
                        .changed())
                .isTrue();
    }

    @Test
    void newJobsStopAtTheLimitsWhileHeldJobsGoOnAndAnEndedJobMakesRoom() {
        jobs.configureLimits(new JobLimits(5, 3, Duration.ofDays(7)));
        for (int i = 0; i < 3; i++) {
            assertThat(submit("team-a/j" + i, "team-a", i).changed()).isTrue();
        }
        ApplyOutcome fourth = submit("team-a/j3", "team-a", 3);
        assertThat(fourth.reason()).isEqualTo(NotAppliedReason.LIMIT_REACHED);
        assertThat(fourth.detail()).contains("namespace team-a has 3 jobs").contains("max-jobs-per-namespace");
        assertThat(progress("team-a/j4", 4).reason())
                .as("a stray is a new job too")
                .isEqualTo(NotAppliedReason.LIMIT_REACHED);
        assertThat(submit("team-b/j0", "team-b", 5).changed()).isTrue();
        assertThat(submit("team-c/j0", "team-c", 6).changed()).isTrue();
        ApplyOutcome sixth = submit("team-d/j0", "team-d", 7);
        assertThat(sixth.reason()).isEqualTo(NotAppliedReason.LIMIT_REACHED);
        assertThat(sixth.detail()).contains("holds 5 jobs").contains("lifeline.model.limits.max-jobs");
        // The jobs held take their events as before.
        assertThat(progress("team-a/j0", 8).changed()).isTrue();
        assertThat(jobs.liveJobs()).isEqualTo(5);
        // One ends: its namespace and the fleet have room again; the ended one is kept as history.
        assertThat(finish("team-a/j1", 9).changed()).isTrue();
        assertThat(jobs.liveJobs()).isEqualTo(4);
        assertThat(submit("team-a/j3", "team-a", 10).changed()).isTrue();
        assertThat(jobs.detail("team-a/j1")).isPresent();
        assertThat(jobs.size()).isEqualTo(6);
    }

    @Test
    void aSubmittedJobThatNeverRanIsForgottenOnceSilentAndOneThatRanIsKept() {
        jobs.configureLimits(new JobLimits(100, 100, Duration.ofHours(6)));
        submit("ns/never", "ns", 0);
        submit("ns/ran", "ns", 0);
        progress("ns/ran", 60);
        submit("ns/clock", "ns", 0);
        for (int hour = 1; hour <= 13; hour++) {
            progress("ns/clock", hour * 3600L);
        }
        assertThat(jobs.detail("ns/never")).isEmpty();
        assertThat(jobs.detail("ns/ran"))
                .as("ran once: silence is not the end of it")
                .isPresent();
        assertThat(jobs.liveJobs()).isEqualTo(2);
    }

    @Test
    void aRestoredModelCountsItsJobsAgainAndStillForgetsTheUnstarted() {
        jobs.configureLimits(new JobLimits(3, 3, Duration.ofHours(6)));
        submit("ns/a", "ns", 0);
        submit("ns/b", "ns", 0);
        progress("ns/b", 10);
        Jobs restored = new Jobs(new TestNodes(), clock, JobsConfig.defaults());
        restored.configureLimits(new JobLimits(3, 3, Duration.ofHours(6)));
        restored.restore(jobs.save());
        assertThat(restored.liveJobs()).isEqualTo(2);
        restored.apply(event(
                "ns/c",
                20,
                EventType.JOB_SUBMITTED,
                new JobData.Submitted("ns", null, null, new ElasticPolicy(1, 1, 8, 0), 8, null)));
        assertThat(restored.apply(event(
                                "ns/d",
                                30,
                                EventType.JOB_SUBMITTED,
                                new JobData.Submitted("ns", null, null, new ElasticPolicy(1, 1, 8, 0), 8, null)))
                        .reason())
                .isEqualTo(NotAppliedReason.LIMIT_REACHED);
        for (int hour = 1; hour <= 13; hour++) {
            restored.apply(
                    event("ns/b", hour * 3600L, EventType.TRAINER_PROGRESS, new TrainerData.Progress(hour, 1.0, 1.0)));
        }
        assertThat(restored.detail("ns/a")).isEmpty();
        assertThat(restored.detail("ns/c")).isEmpty();
        assertThat(restored.liveJobs()).isEqualTo(1);
    }
}
