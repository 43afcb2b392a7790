package io.lifeline.domain.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.testing.MovableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Jobs known only from stray events (never submitted) are forgotten once silent; submitted jobs are not, and ended
 * ones, with their node index entries, leave as the ended-jobs bound says.
 */
class StrayJobsTest {

    private static final Instant T0 = Instant.parse("2024-05-01T00:00:00Z");
    private final MovableClock clock = new MovableClock(T0);
    private final Jobs jobs = new Jobs(
            new TestNodes(),
            clock,
            JobsConfig.defaults().withMaxFinishedJobs(10).withStrayJobsForgetAfter(Duration.ofHours(1)));
    private int ids;

    private Event event(String job, long seconds, EventType type, Object data) {
        return new Event(
                "e" + ids++, "test://jobs", type, job, T0.plusSeconds(seconds), (io.lifeline.domain.event.EventData)
                        data);
    }

    private void progress(String job, long seconds) {
        jobs.apply(event(job, seconds, EventType.TRAINER_PROGRESS, new TrainerData.Progress(seconds, 1.0, 1.0)));
    }

    private void submit(String job, long seconds) {
        jobs.apply(event(
                job,
                seconds,
                EventType.JOB_SUBMITTED,
                new JobData.Submitted("ns", "alice", "high", new ElasticPolicy(1, 2, 8, 3), 8, 600L)));
    }

    private void rendezvous(String job, long seconds, String... nodes) {
        List<TrainerData.Participant> ps = new java.util.ArrayList<>();
        for (int i = 0; i < nodes.length; i++) {
            ps.add(new TrainerData.Participant(nodes[i], i * 8, 8));
        }
        jobs.apply(event(
                job,
                seconds,
                EventType.TRAINER_RENDEZVOUS,
                new TrainerData.Rendezvous("run", 1, 8 * nodes.length, ps)));
    }

    @Test
    void aJobKnownOnlyFromTrainerEventsIsForgottenOnceSilentWithItsNodeIndexEntries() {
        rendezvous("ns/stray", 0, "node-a");
        progress("ns/stray", 10);
        submit("ns/real", 0);
        assertThat(jobs.jobsOn("node-a")).containsExactly("ns/stray");
        for (int minute = 1; minute <= 150; minute++) {
            progress("ns/real", minute * 60L);
        }
        assertThat(jobs.detail("ns/stray")).isEmpty();
        assertThat(jobs.jobsOn("node-a")).isEmpty();
        assertThat(jobs.jobsByNode()).isEmpty();
        assertThat(jobs.detail("ns/real")).isPresent();
        assertThat(jobs.size()).isEqualTo(1);
    }

    @Test
    void aStrayThatKeepsTalkingOrIsSubmittedLaterIsKept() {
        progress("ns/talking", 0);
        progress("ns/submitted-late", 0);
        submit("ns/submitted-late", 30);
        for (int minute = 1; minute <= 300; minute++) {
            progress("ns/talking", minute * 60L);
        }
        assertThat(jobs.detail("ns/talking")).isPresent();
        assertThat(jobs.detail("ns/submitted-late")).isPresent();
    }

    @Test
    void jobChurnKeepsTheModelBoundedByLiveJobsAndTheEndedHistory() {
        for (int i = 0; i < 2_000; i++) {
            String job = "ns/job-" + i;
            long t = i * 60L;
            submit(job, t);
            rendezvous(job, t + 1, "node-" + i, "node-" + (i + 1));
            progress(job, t + 2);
            jobs.apply(event(
                    job, t + 30, EventType.JOB_FINISHED, new JobData.Finished(JobData.Outcome.SUCCEEDED, "done")));
            // A late progress of a job ended long ago: a stray under a forgotten name.
            if (i >= 100) {
                progress("ns/job-" + (i - 100), t + 31);
            }
        }
        // Ten ended jobs kept, plus the strays of the last hour or two (one a minute).
        assertThat(jobs.size()).isBetween(10, 10 + 121);
        assertThat(jobs.jobsByNode().size()).isLessThanOrEqualTo(2 * (10 + 121));
    }
}
