package io.lifeline.domain.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.JobData.Outcome;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One test per legal transition of {@link JobState}, each driven by the event that causes it; then the refusals. */
class JobStateTransitionTest {

    private final JobDriver d = new JobDriver("ml/llm");

    /** Submitted, admitted, first round on two nodes: PENDING (starting). */
    private JobDriver pending() {
        return d.submit("10:00:00", 1, 3, 8, 1800L).admit("10:00:10").rendezvous("10:00:20", 1, 8, "n1", "n2");
    }

    private JobDriver running() {
        return pending().progress("10:01:00", 100);
    }

    private JobDriver recovering() {
        return running().workerFailed("10:10:00", 3, "n1");
    }

    private JobDriver rescaling() {
        return running().rendezvous("10:10:00", 2, 8, "n1", "n2", "n3");
    }

    private JobDriver preempted() {
        return running().preempted("10:10:00");
    }

    private JobDriver suspended() {
        return running().evicted("10:10:00", "InactiveWorkload");
    }

    // ---- to RUNNING

    @Test
    void pendingToRunningOnFirstProgress() {
        pending();
        assertThat(d.state()).isEqualTo(JobState.PENDING);
        d.progress("10:01:00", 100);
        assertThat(d.state()).isEqualTo(JobState.RUNNING);
    }

    @Test
    void recoveringToRunningOnFirstProgressAfterRestore() {
        recovering()
                .restarted("10:10:10", 1)
                .rendezvous("10:10:30", 2, 8, "n1", "n2")
                .restored("10:10:40", "", 0);
        assertThat(d.state()).isEqualTo(JobState.RECOVERING);
        d.progress("10:11:00", 10);
        assertThat(d.state()).isEqualTo(JobState.RUNNING);
        assertThat(d.lastIncident().closedAt()).isEqualTo(JobDriver.at("10:11:00"));
    }

    @Test
    void rescalingToRunningOnFirstProgressAfterRescale() {
        rescaling().progress("10:10:30", 1000);
        assertThat(d.state()).isEqualTo(JobState.RUNNING);
        assertThat(d.goodput().rescaleMillis()).isEqualTo(30_000);
    }

    // ---- to RECOVERING

    @Test
    void pendingToRecoveringWhenWorkerFailsDuringStartup() {
        pending().workerFailed("10:00:40", 0, "n1");
        assertThat(d.state()).isEqualTo(JobState.RECOVERING);
    }

    @Test
    void runningToRecoveringWhenWorkerFails() {
        recovering();
        assertThat(d.state()).isEqualTo(JobState.RECOVERING);
        assertThat(d.detail().summary().restarts()).isEqualTo(1);
    }

    @Test
    void rescalingToRecoveringWhenWorkerFailsDuringRescale() {
        rescaling().workerFailed("10:10:20", 17, "n3");
        assertThat(d.state()).isEqualTo(JobState.RECOVERING);
    }

    @Test
    void preemptedToRecoveringWhenAdmittedAgain() {
        preempted().admit("10:30:00");
        assertThat(d.state()).isEqualTo(JobState.RECOVERING);
    }

    @Test
    void suspendedToRecoveringWhenAdmittedAgain() {
        suspended().admit("10:30:00");
        assertThat(d.state()).isEqualTo(JobState.RECOVERING);
    }

    // ---- to RESCALING

    @Test
    void runningToRescalingOnRendezvousAtNewWorldSize() {
        rescaling();
        assertThat(d.state()).isEqualTo(JobState.RESCALING);
        assertThat(d.detail().summary().worldSize()).isEqualTo(24);
    }

    // ---- to PREEMPTED

    @Test
    void pendingToPreemptedWhenPreemptedBeforeTraining() {
        pending().preempted("10:00:30");
        assertThat(d.state()).isEqualTo(JobState.PREEMPTED);
    }

    @Test
    void runningToPreemptedWhenSchedulerPreempts() {
        preempted();
        assertThat(d.state()).isEqualTo(JobState.PREEMPTED);
        assertThat(d.detail().summary().gpusHeld()).isZero();
    }

    @Test
    void recoveringToPreemptedWhenPreemptedDuringRecovery() {
        recovering().preempted("10:10:05");
        assertThat(d.state()).isEqualTo(JobState.PREEMPTED);
    }

    @Test
    void rescalingToPreemptedWhenPreemptedDuringRescale() {
        rescaling().preempted("10:10:05");
        assertThat(d.state()).isEqualTo(JobState.PREEMPTED);
    }

    // ---- to SUSPENDED

    @Test
    void pendingToSuspendedWhenEvictedBeforeTraining() {
        pending().evicted("10:00:30", "PodsReadyTimeout");
        assertThat(d.state()).isEqualTo(JobState.SUSPENDED);
    }

    @Test
    void runningToSuspendedWhenEvicted() {
        suspended();
        assertThat(d.state()).isEqualTo(JobState.SUSPENDED);
    }

    @Test
    void recoveringToSuspendedWhenRequeuedDuringRecovery() {
        recovering().requeued("10:10:05");
        assertThat(d.state()).isEqualTo(JobState.SUSPENDED);
    }

    @Test
    void rescalingToSuspendedWhenEvictedDuringRescale() {
        rescaling().evicted("10:10:05", "Deactivated");
        assertThat(d.state()).isEqualTo(JobState.SUSPENDED);
    }

    // ---- to SUCCEEDED

    @Test
    void pendingToSucceededWhenFinishedBeforeAnyProgressWasSeen() {
        pending().finished("10:05:00", Outcome.SUCCEEDED);
        assertThat(d.state()).isEqualTo(JobState.SUCCEEDED);
    }

    @Test
    void runningToSucceededWhenFinished() {
        running().finished("11:00:00", Outcome.SUCCEEDED);
        assertThat(d.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(d.detail().summary().finishedAt()).isEqualTo(JobDriver.at("11:00:00"));
    }

    @Test
    void recoveringToSucceededWhenFinishedDuringRecovery() {
        recovering().finished("10:10:30", Outcome.SUCCEEDED);
        assertThat(d.state()).isEqualTo(JobState.SUCCEEDED);
    }

    @Test
    void rescalingToSucceededWhenFinishedDuringRescale() {
        rescaling().finished("10:10:30", Outcome.SUCCEEDED);
        assertThat(d.state()).isEqualTo(JobState.SUCCEEDED);
    }

    // ---- to FAILED

    @Test
    void pendingToFailedWhenFinishedFailed() {
        pending().finished("10:05:00", Outcome.FAILED);
        assertThat(d.state()).isEqualTo(JobState.FAILED);
    }

    @Test
    void runningToFailedWhenFinishedFailed() {
        running().finished("10:05:00", Outcome.FAILED);
        assertThat(d.state()).isEqualTo(JobState.FAILED);
    }

    @Test
    void recoveringToFailedWhenRestartsRunOut() {
        recovering().finished("10:10:30", Outcome.FAILED);
        assertThat(d.state()).isEqualTo(JobState.FAILED);
        assertThat(d.lastIncident().outcome()).isEqualTo(io.lifeline.domain.job.incident.IncidentOutcome.JOB_ENDED);
    }

    @Test
    void rescalingToFailedWhenFinishedFailed() {
        rescaling().finished("10:10:30", Outcome.FAILED);
        assertThat(d.state()).isEqualTo(JobState.FAILED);
    }

    @Test
    void preemptedToFailedWhenFinishedFailed() {
        preempted().finished("10:30:00", Outcome.FAILED);
        assertThat(d.state()).isEqualTo(JobState.FAILED);
    }

    @Test
    void suspendedToFailedWhenFinishedFailed() {
        suspended().finished("10:30:00", Outcome.FAILED);
        assertThat(d.state()).isEqualTo(JobState.FAILED);
    }

    // ---- to CANCELLED

    @Test
    void pendingToCancelledWhenCancelled() {
        pending().finished("10:05:00", Outcome.CANCELLED);
        assertThat(d.state()).isEqualTo(JobState.CANCELLED);
    }

    @Test
    void runningToCancelledWhenCancelled() {
        running().finished("10:05:00", Outcome.CANCELLED);
        assertThat(d.state()).isEqualTo(JobState.CANCELLED);
    }

    @Test
    void recoveringToCancelledWhenCancelled() {
        recovering().finished("10:10:30", Outcome.CANCELLED);
        assertThat(d.state()).isEqualTo(JobState.CANCELLED);
    }

    @Test
    void rescalingToCancelledWhenCancelled() {
        rescaling().finished("10:10:30", Outcome.CANCELLED);
        assertThat(d.state()).isEqualTo(JobState.CANCELLED);
    }

    @Test
    void preemptedToCancelledWhenCancelled() {
        preempted().finished("10:30:00", Outcome.CANCELLED);
        assertThat(d.state()).isEqualTo(JobState.CANCELLED);
    }

    @Test
    void suspendedToCancelledWhenCancelled() {
        suspended().finished("10:30:00", Outcome.CANCELLED);
        assertThat(d.state()).isEqualTo(JobState.CANCELLED);
    }

    /** The table above must cover every legal transition: adding a predecessor without a test fails here. */
    @Test
    void everyLegalTransitionHasATestAbove() {
        List<String> legal = new ArrayList<>();
        for (JobState to : JobState.values()) {
            for (JobState from : to.predecessors()) {
                legal.add(from + "->" + to);
            }
        }
        assertThat(legal)
                .containsExactlyInAnyOrder(
                        "PENDING->RUNNING",
                        "RECOVERING->RUNNING",
                        "RESCALING->RUNNING",
                        "PENDING->RECOVERING",
                        "RUNNING->RECOVERING",
                        "RESCALING->RECOVERING",
                        "PREEMPTED->RECOVERING",
                        "SUSPENDED->RECOVERING",
                        "RUNNING->RESCALING",
                        "PENDING->PREEMPTED",
                        "RUNNING->PREEMPTED",
                        "RECOVERING->PREEMPTED",
                        "RESCALING->PREEMPTED",
                        "PENDING->SUSPENDED",
                        "RUNNING->SUSPENDED",
                        "RECOVERING->SUSPENDED",
                        "RESCALING->SUSPENDED",
                        "PENDING->SUCCEEDED",
                        "RUNNING->SUCCEEDED",
                        "RECOVERING->SUCCEEDED",
                        "RESCALING->SUCCEEDED",
                        "PENDING->FAILED",
                        "RUNNING->FAILED",
                        "RECOVERING->FAILED",
                        "RESCALING->FAILED",
                        "PREEMPTED->FAILED",
                        "SUSPENDED->FAILED",
                        "PENDING->CANCELLED",
                        "RUNNING->CANCELLED",
                        "RECOVERING->CANCELLED",
                        "RESCALING->CANCELLED",
                        "PREEMPTED->CANCELLED",
                        "SUSPENDED->CANCELLED");
    }

    // ---- refused transitions

    @Test
    void progressAfterTheJobEndedIsRefusedWithAReason() {
        running().finished("11:00:00", Outcome.SUCCEEDED).progress("11:00:05", 9000);
        assertThat(d.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(d.refusals()).singleElement().satisfies(r -> {
            assertThat(r.from()).isEqualTo(JobState.SUCCEEDED);
            assertThat(r.to()).isEqualTo(JobState.RUNNING);
            assertThat(r.cause()).isEqualTo("trainer.progress");
            assertThat(r.reason()).isEqualTo("job already ended as SUCCEEDED");
        });
    }

    @Test
    void successWhilePreemptedIsRefusedBecauseAPreemptedJobIsNotTraining() {
        preempted().finished("10:30:00", Outcome.SUCCEEDED);
        assertThat(d.state()).isEqualTo(JobState.PREEMPTED);
        assertThat(d.refusals())
                .singleElement()
                .satisfies(
                        r -> assertThat(r.reason())
                                .isEqualTo(
                                        "SUCCEEDED cannot follow PREEMPTED (legal predecessors: [PENDING, RUNNING, RECOVERING, RESCALING])"));
    }

    @Test
    void preemptionOfAnEndedJobIsRefusedAndOpensNoIncident() {
        running().finished("11:00:00", Outcome.CANCELLED).preempted("11:00:10");
        assertThat(d.state()).isEqualTo(JobState.CANCELLED);
        assertThat(d.incidents()).isEmpty();
        assertThat(d.refusals()).extracting(RefusedTransition::to).containsExactly(JobState.PREEMPTED);
    }

    @Test
    void aSecondFinishWithAnotherOutcomeIsRefused() {
        running().finished("11:00:00", Outcome.SUCCEEDED).finished("11:00:01", Outcome.FAILED);
        assertThat(d.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(d.refusals()).extracting(RefusedTransition::to).containsExactly(JobState.FAILED);
    }

    @Test
    void pendingToRescalingIsRefusedByTheStateMachine() {
        Job job = new Job("ml/raw", Instant.parse("2024-05-01T10:00:00Z"), JobsConfig.defaults());
        boolean moved = JobStateMachine.move(job, JobState.RESCALING, Instant.parse("2024-05-01T10:00:01Z"), "test");
        assertThat(moved).isFalse();
        assertThat(job.state).isEqualTo(JobState.PENDING);
        assertThat(job.refusals.toList())
                .singleElement()
                .satisfies(r -> assertThat(r.reason())
                        .isEqualTo("RESCALING cannot follow PENDING (legal predecessors: [RUNNING])"));
    }

    @Test
    void noStateFollowsPendingBackAndTheTerminalStatesHaveNoSuccessor() {
        assertThat(JobState.PENDING.predecessors()).isEmpty();
        for (JobState to : JobState.values()) {
            for (JobState end : List.of(JobState.SUCCEEDED, JobState.FAILED, JobState.CANCELLED)) {
                assertThat(to.canFollow(end)).as(end + "->" + to).isFalse();
            }
        }
    }

    // ---- restart budget

    @Test
    void restartsAreCountedAgainstMaxRestarts() {
        running();
        String[] fail = {"10:10:00", "10:20:00", "10:30:00", "10:40:00"};
        for (int i = 0; i < fail.length; i++) {
            String t = fail[i];
            d.workerFailed(t, 0, "n1")
                    .restarted(t.substring(0, 6) + "10", i + 1)
                    .progress(t.substring(0, 6) + "30", 100);
            JobSummary s = d.detail().summary();
            assertThat(s.restarts()).isEqualTo(i + 1);
            assertThat(s.maxRestarts()).isEqualTo(3);
            assertThat(s.restartBudgetExhausted())
                    .as("after %d restarts", i + 1)
                    .isEqualTo(i + 1 > 3);
        }
    }
}
