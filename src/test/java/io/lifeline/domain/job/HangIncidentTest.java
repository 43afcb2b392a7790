package io.lifeline.domain.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.job.goodput.GoodputView;
import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.job.incident.IncidentOutcome;
import io.lifeline.domain.job.incident.IncidentPhase;
import io.lifeline.domain.job.incident.IncidentView;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A suspected hang as an incident: the time since the last progress is hang badput (not productive), the work since
 * the newest checkpoint is lost when the workers restart and given back when training moves again by itself, and the
 * buckets still add up to wall time.
 */
class HangIncidentTest {

    private final JobDriver d = new JobDriver("ml/llm");

    /** 1 node × 8 GPUs training from 10:00; a 30 s save at 10:10; progress to step 1500 at 10:14:00, then nothing. */
    private void hungSince1014() {
        d.runningOn(1, "10:00:00");
        d.checkpointStarted("10:10:00", "ckpt-1", 1000, false)
                .checkpointCompleted("10:10:30", "ckpt-1", 1000, 30, 30, false);
        d.progress("10:14:00", 1500);
    }

    private void suspected(String hms, String sinceHms) {
        d.apply(d.event(
                hms,
                EventType.JOB_HANG_SUSPECTED,
                new JobData.HangSuspected(
                        "training",
                        JobDriver.at(sinceHms),
                        60,
                        30,
                        "4 x p99 step time 2 s = 8 s, raised to the floor 30 s",
                        "training",
                        List.of(new JobData.HangSuspect(
                                1, "n1", "1", 1500L, "stopped at step 1500 while others reached 1501")),
                        List.of())));
    }

    private static void bucketsAddUp(GoodputView g) {
        assertThat(g.productiveMillis()
                        + g.checkpointMillis()
                        + g.lostReworkMillis()
                        + g.hangMillis()
                        + g.recoveryMillis()
                        + g.rescaleMillis()
                        + g.startupMillis()
                        + g.waitingMillis())
                .isEqualTo(g.wallMillis());
    }

    @Test
    void aHangRestartedFromItsCheckpointIsHangBadputThenRecoveryWithTheWorkSinceTheCheckpointLost() {
        hungSince1014();
        suspected("10:15:00", "10:14:00");

        IncidentView open = d.lastIncident();
        assertThat(open.cause()).isEqualTo(IncidentCause.HANG);
        assertThat(open.causeDetail())
                .startsWith("training hang: no progress for 60 s (threshold 30 s), suspect rank 1 on n1");
        assertThat(open.phases()).extracting(p -> p.phase()).contains(IncidentPhase.HUNG);
        assertThat(d.detail().summary().state()).isEqualTo(JobState.RECOVERING);
        // 10:14:00-10:15:00 hung; productive 10:00-10:10 and 10:10:30-10:14 less the 3.5 min since ckpt-1 (lost).
        assertThat(d.goodput().hangMillis()).isEqualTo(60_000);
        assertThat(open.lostReworkMillis()).isEqualTo(210_000);

        d.restarted("10:16:00", 1).restored("10:16:30", "ckpt-1", 1000).progress("10:17:00", 1001);

        IncidentView done = d.lastIncident();
        assertThat(done.outcome()).isEqualTo(IncidentOutcome.RECOVERED);
        // Hung from the last progress until the restart: 10:14:00-10:16:00.
        assertThat(done.hangMillis()).isEqualTo(120_000);
        assertThat(done.recoveryRestartMillis()).isEqualTo(30_000);
        assertThat(done.recoveryLoadMillis()).isEqualTo(30_000);
        GoodputView g = d.goodput();
        assertThat(g.hangMillis()).isEqualTo(120_000);
        assertThat(g.lostReworkMillis()).isEqualTo(210_000);
        bucketsAddUp(g);
    }

    @Test
    void theVerdictStaysReadableWhileTheHangIsOpenAndTheStacksAttachToIt() {
        hungSince1014();
        for (int rank = 0; rank < 2; rank++) {
            // Steps of 2 s at most earn the 30 s floor.
            d.apply(d.event(
                    "10:14:00",
                    EventType.TRAINER_STEP_TIMES,
                    new TrainerData.StepTimes(rank, rank, "n1", 5, 1500, 1.5, 2.0, null, 0.1, "training", 600.0)));
            d.apply(d.event(
                    "10:14:50",
                    EventType.TRAINER_STEP_TIMES,
                    new TrainerData.StepTimes(rank, rank, "n1", 0, 1500, 0, null, null, 50.0, "training", 600.0)));
        }
        suspected("10:15:00", "10:14:00");
        d.clock.set(JobDriver.at("10:15:05"));

        assertThat(d.jobs.hang("ml/llm").orElseThrow().state()).isEqualTo("suspected");

        d.apply(d.event(
                "10:15:06",
                EventType.TRAINER_STACKS,
                new TrainerData.Stacks(
                        "stacks-1",
                        0,
                        0,
                        "n1",
                        42,
                        1500L,
                        "training",
                        56.0,
                        "frames",
                        List.of(new TrainerData.StackThread(
                                "MainThread",
                                true,
                                false,
                                List.of(new TrainerData.StackFrame("train.py", 80, "main")))),
                        null)));
        d.apply(d.event(
                "10:15:07",
                EventType.TRAINER_STACKS,
                new TrainerData.Stacks(
                        "stacks-1",
                        1,
                        1,
                        "n1",
                        43,
                        1500L,
                        "training",
                        57.0,
                        "frames",
                        List.of(new TrainerData.StackThread(
                                "MainThread",
                                true,
                                false,
                                List.of(new TrainerData.StackFrame("train.py", 55, "load_batch")))),
                        null)));

        assertThat(d.lastIncident().phases())
                .filteredOn(p -> p.phase() == IncidentPhase.CAPTURED)
                .singleElement()
                .satisfies(p -> assertThat(p.detail()).isEqualTo("stacks stacks-1"));
        assertThat(d.jobs.stacks("ml/llm", "stacks-1").orElseThrow().ranksReported())
                .isEqualTo(2);

        d.restarted("10:16:00", 1);
        d.clock.set(JobDriver.at("10:16:05"));
        assertThat(d.jobs.hang("ml/llm").orElseThrow().state()).isEqualTo("not-applicable");
    }

    @Test
    void aHangThatEndsByItselfGivesTheWorkBackAndKeepsOnlyTheHangTime() {
        hungSince1014();
        suspected("10:15:00", "10:14:00");

        d.progress("10:15:20", 1501);

        IncidentView done = d.lastIncident();
        assertThat(done.outcome()).isEqualTo(IncidentOutcome.RECOVERED);
        assertThat(done.lostReworkMillis()).isZero();
        assertThat(done.hangMillis()).isEqualTo(80_000);
        assertThat(d.detail().summary().state()).isEqualTo(JobState.RUNNING);
        GoodputView g = d.goodput();
        assertThat(g.lostReworkMillis()).isZero();
        assertThat(g.hangMillis()).isEqualTo(80_000);
        bucketsAddUp(g);
    }

    @Test
    void aSuspicionOfAJobThatIsNotTrainingChangesNothing() {
        hungSince1014();
        d.workerFailed("10:14:30", 0, "n1");
        String before = d.lastIncident().id();

        suspected("10:15:00", "10:14:00");

        assertThat(d.lastIncident().id()).isEqualTo(before);
        assertThat(d.lastIncident().cause()).isEqualTo(IncidentCause.SOFTWARE_ERROR);
        assertThat(d.goodput().hangMillis()).isZero();
    }

    @Test
    void heartbeatsWithoutStepsAreAppliedAsHeartbeatsNotAsStragglerSamples() {
        d.runningOn(1, "10:00:00");
        d.apply(d.event(
                "10:00:10",
                EventType.TRAINER_STEP_TIMES,
                new io.lifeline.domain.event.TrainerData.StepTimes(
                        0, 0, "n1", 0, 0, 0, null, null, 10.0, "startup", 10.0)));

        assertThat(d.jobs.hang("ml/llm").orElseThrow().state()).isEqualTo("ok");
        assertThat(d.jobs.stragglers("ml/llm").orElseThrow().ranksReporting()).isZero();
    }
}
