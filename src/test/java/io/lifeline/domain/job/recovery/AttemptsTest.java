package io.lifeline.domain.job.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.NoticeKind;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.job.JobDriver;
import io.lifeline.domain.job.incident.IncidentCause;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A job's attempts, read from its incidents: how each started and ended, its progress and its checkpoint. */
class AttemptsTest {

    private final JobDriver d = new JobDriver("ml/llm");

    private List<Attempt> attempts() {
        return d.jobs.attempts("ml/llm").orElseThrow();
    }

    @Test
    void aJobThatNeverStoppedHasOneRunningAttemptFromItsLaunch() {
        d.runningOn(2, "10:00:00").progress("10:05:00", 300);
        assertThat(attempts()).singleElement().satisfies(a -> {
            assertThat(a.number()).isEqualTo(1);
            assertThat(a.running()).isTrue();
            assertThat(a.startedAfter()).isNull();
            assertThat(a.startStep()).isZero();
            assertThat(a.endStep()).isEqualTo(300);
            assertThat(a.stepsMade()).isEqualTo(300);
            assertThat(a.nodes()).containsExactly("n1", "n2");
            assertThat(a.checkpointAdvanced()).isFalse();
        });
    }

    @Test
    void aFailureEndsAnAttemptWithItsWorkersErrorsAndTheRecoveryStartsTheNextFromTheRestoredStep() {
        d.runningOn(2, "10:00:00");
        d.checkpointStarted("10:01:00", "c100", 100, false).checkpointCompleted("10:01:10", "c100", 100, 10, 10, false);
        d.progress("10:02:00", 150);
        d.apply(d.event(
                "10:02:01",
                EventType.TRAINER_WORKER_FAILED,
                new TrainerData.WorkerFailed("run-1", 9, "n2", 1, "ValueError: bad batch")));

        assertThat(attempts()).singleElement().satisfies(a -> {
            assertThat(a.running()).isFalse();
            assertThat(a.endCause()).isEqualTo(IncidentCause.SOFTWARE_ERROR);
            assertThat(a.endedBy()).isEqualTo("ml/llm#1");
            assertThat(a.endStep()).isEqualTo(150);
            assertThat(a.checkpointStepAtEnd()).isEqualTo(100);
            assertThat(a.checkpointAdvanced()).isTrue();
            assertThat(a.failures()).singleElement().satisfies(f -> {
                assertThat(f.rank()).isEqualTo(9);
                assertThat(f.node()).isEqualTo("n2");
                assertThat(f.errorType()).isEqualTo("ValueError");
                assertThat(f.step()).isEqualTo(150);
            });
        });

        d.restarted("10:03:00", 1).restored("10:03:10", "c100", 100).progress("10:03:20", 101);
        List<Attempt> after = attempts();
        assertThat(after).hasSize(2);
        Attempt second = after.get(1);
        assertThat(second.number()).isEqualTo(2);
        assertThat(second.startedAfter()).isEqualTo("ml/llm#1");
        assertThat(second.startCause()).isEqualTo(IncidentCause.SOFTWARE_ERROR);
        assertThat(second.startStep()).isEqualTo(100);
        assertThat(second.checkpointStepAtStart()).isEqualTo(100);
        assertThat(second.checkpointAdvanced()).isFalse();
        assertThat(second.running()).isTrue();
    }

    @Test
    void aReclaimEndsAnAttemptByPlan() {
        d.runningOn(2, "10:00:00").progress("10:01:00", 10);
        d.notice("10:02:00", "n2", NoticeKind.SPOT_RECLAIM, "10:04:00");
        d.terminated("10:04:00", "n2");
        Attempt a = attempts().get(0);
        assertThat(a.endCause()).isEqualTo(IncidentCause.SPOT_RECLAIM);
        assertThat(a.endedByPlan()).isTrue();
    }

    @Test
    void attemptsCountFromTheLaunchWhenOlderIncidentsFellAway() {
        // Twelve interruptions none of which the job still keeps: the running attempt is the thirteenth.
        List<Attempt> none = Attempts.of(List.of(), 12, JobDriver.at("10:00:00"), 5L, null, List.of("n1"));
        assertThat(none).singleElement().satisfies(a -> {
            assertThat(a.number()).isEqualTo(13);
            assertThat(a.startStep()).isNull();
        });
    }
}
