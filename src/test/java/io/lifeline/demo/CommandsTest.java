package io.lifeline.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.event.TrainerData.AckStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The trainer's answers to Lifeline's commands: checkpoint-now, rescale, suspend and resume. */
class CommandsTest {

    private static final String BIG = "team/big";
    private static final String SMALL = "team/small";

    /** Drives a simulator and keeps what it emitted. */
    private static final class Run {
        final FleetSimulator sim;
        final List<Event> events = new ArrayList<>();

        Run(Scenario s) {
            sim = new FleetSimulator(s, TestScenarios.START);
        }

        Run advance(Duration d) {
            events.addAll(sim.advanceTo(sim.now().plus(d)));
            return this;
        }

        List<Event> of(EventType type, String job) {
            return events.stream()
                    .filter(e -> e.type() == type && e.subject().equals(job))
                    .toList();
        }

        List<Event> of(EventType type, String job, Instant from) {
            return of(type, job).stream().filter(e -> !e.time().isBefore(from)).toList();
        }

        List<TrainerData.CommandAck> acks(String commandId) {
            return events.stream()
                    .filter(e -> e.data() instanceof TrainerData.CommandAck a
                            && a.commandId().equals(commandId))
                    .map(e -> (TrainerData.CommandAck) e.data())
                    .toList();
        }

        Event ack(String commandId, AckStatus status) {
            return events.stream()
                    .filter(e -> e.data() instanceof TrainerData.CommandAck a
                            && a.commandId().equals(commandId)
                            && a.status() == status)
                    .findFirst()
                    .orElseThrow();
        }

        long lastStep(String job) {
            List<Event> p = of(EventType.TRAINER_PROGRESS, job);
            return ((TrainerData.Progress) p.get(p.size() - 1).data()).step();
        }
    }

    private static Run training() {
        return new Run(TestScenarios.quiet()).advance(Duration.ofMinutes(3));
    }

    private static List<AckStatus> statuses(List<TrainerData.CommandAck> acks) {
        return acks.stream().map(TrainerData.CommandAck::status).toList();
    }

    @Test
    void checkpointCommandIsAcceptedThenDoneWhenTheSaveCompletes() {
        Run run = training();
        Instant asked = run.sim.now();
        run.sim.requestCheckpoint("c1", BIG, asked.plus(Duration.ofMinutes(5)));
        run.advance(Duration.ofMinutes(2));
        assertThat(statuses(run.acks("c1"))).containsExactly(AckStatus.ACCEPTED, AckStatus.DONE);
        Event started = run.of(EventType.TRAINER_CHECKPOINT_STARTED, BIG, asked).get(0);
        Event completed =
                run.of(EventType.TRAINER_CHECKPOINT_COMPLETED, BIG, asked).get(0);
        Event done = run.ack("c1", AckStatus.DONE);
        assertThat(started.time()).isBefore(asked.plusSeconds(1));
        assertThat(done.time()).isEqualTo(completed.time());
        assertThat(((TrainerData.CommandAck) done.data()).message())
                .contains(((TrainerData.CheckpointCompleted) completed.data()).checkpointId());
    }

    @Test
    void checkpointCommandFailsWhenItsDeadlinePassesBeforeTheUploadCompletes() {
        Run run = training();
        run.sim.requestCheckpoint("c2", BIG, run.sim.now().plusSeconds(5));
        run.advance(Duration.ofMinutes(2));
        List<TrainerData.CommandAck> acks = run.acks("c2");
        assertThat(statuses(acks)).containsExactly(AckStatus.ACCEPTED, AckStatus.FAILED);
        assertThat(acks.get(1).message()).contains("deadline");
    }

    @Test
    void commandsForAnUnknownJobAreRejected() {
        Run run = training();
        run.sim.requestCheckpoint("c3", "team/nope", null);
        run.sim.requestRescale("c4", "team/nope", 2);
        run.advance(Duration.ofSeconds(5));
        assertThat(run.acks("c3")).singleElement().satisfies(a -> {
            assertThat(a.status()).isEqualTo(AckStatus.REJECTED);
            assertThat(a.message()).isEqualTo("no such job");
        });
        assertThat(statuses(run.acks("c4"))).containsExactly(AckStatus.REJECTED);
    }

    @Test
    void rescaleDownSavesThenReRendezvousSmallerWithoutLosingWorkAndStaysThere() {
        Run run = training();
        Instant asked = run.sim.now();
        run.sim.requestRescale("r1", BIG, 4);
        run.advance(Duration.ofMinutes(3));
        assertThat(statuses(run.acks("r1"))).containsExactly(AckStatus.ACCEPTED, AckStatus.DONE);
        TrainerData.CheckpointCompleted saved =
                (TrainerData.CheckpointCompleted) run.of(EventType.TRAINER_CHECKPOINT_COMPLETED, BIG, asked)
                        .get(0)
                        .data();
        // A membership change is no restart for torchelastic: no trainer.restarted, the next round tells it.
        assertThat(run.of(EventType.TRAINER_RESTARTED, BIG, asked)).isEmpty();
        Event restarted = run.of(EventType.TRAINER_RENDEZVOUS, BIG, asked).get(0);
        TrainerData.Rendezvous r = (TrainerData.Rendezvous) restarted.data();
        assertThat(r.worldSize()).isEqualTo(32);
        TrainerData.Restored restored = (TrainerData.Restored)
                run.of(EventType.TRAINER_RESTORED, BIG, asked).get(0).data();
        assertThat(restored.checkpointId()).isEqualTo(saved.checkpointId());
        long progressBeforeRestart = run.of(EventType.TRAINER_PROGRESS, BIG).stream()
                .filter(e -> e.time().isBefore(restarted.time()))
                .mapToLong(e -> ((TrainerData.Progress) e.data()).step())
                .max()
                .orElseThrow();
        assertThat(restored.step()).isGreaterThanOrEqualTo(progressBeforeRestart);

        Instant after = run.sim.now();
        run.advance(Duration.ofMinutes(30));
        assertThat(run.of(EventType.TRAINER_RENDEZVOUS, BIG, after)).isEmpty();
    }

    @Test
    void rescaleUpUsesFreeNodesAndReachesTheRequestedSize() {
        Run run = training();
        run.sim.requestRescale("r1", BIG, 4);
        run.advance(Duration.ofMinutes(3));
        Instant asked = run.sim.now();
        run.sim.requestRescale("r2", BIG, 6);
        run.advance(Duration.ofMinutes(3));
        assertThat(statuses(run.acks("r2"))).containsExactly(AckStatus.ACCEPTED, AckStatus.DONE);
        assertThat(run.of(EventType.TRAINER_RENDEZVOUS, BIG, asked))
                .singleElement()
                .satisfies(e -> assertThat(((TrainerData.Rendezvous) e.data()).worldSize())
                        .isEqualTo(48));
    }

    @Test
    void rescaleToTheCurrentSizeIsDoneAtOnce() {
        Run run = training();
        run.sim.requestRescale("r3", BIG, 6);
        run.advance(Duration.ofSeconds(5));
        assertThat(run.acks("r3"))
                .extracting(TrainerData.CommandAck::status)
                .containsExactly(AckStatus.ACCEPTED, AckStatus.DONE);
        assertThat(run.acks("r3").get(1).message()).isEqualTo("already training on 6 nodes");
    }

    @Test
    void rescaleOutsideTheElasticBoundsIsRejected() {
        Run run = training();
        run.sim.requestRescale("r4", BIG, 7);
        run.sim.requestRescale("r5", BIG, 3);
        run.advance(Duration.ofSeconds(5));
        assertThat(run.acks("r4")).singleElement().satisfies(a -> {
            assertThat(a.status()).isEqualTo(AckStatus.REJECTED);
            assertThat(a.message()).contains("outside the elastic bounds 4..6");
        });
        assertThat(statuses(run.acks("r5"))).containsExactly(AckStatus.REJECTED);
    }

    @Test
    void rescaleUpBeyondTheFreeCapacityIsRejected() {
        Scenario q = TestScenarios.quiet();
        // Submitted after the big job has taken 6 of the 8 nodes: it gets the 2 left.
        Scenario.Job other = new Scenario.Job(
                "team",
                "other",
                null,
                null,
                null,
                List.of("spot-a"),
                2,
                4,
                8,
                100,
                30,
                0,
                2.0,
                256,
                0,
                TestScenarios.asyncCheckpoint(300));
        Scenario crowded = new Scenario(
                q.seed(),
                10,
                10,
                0,
                0,
                300,
                900,
                null,
                List.of(TestScenarios.spot(8, 0)),
                List.of(q.jobs().get(0), other));
        Run run = new Run(crowded).advance(Duration.ofMinutes(3));
        run.sim.requestRescale("r6", "team/other", 4);
        run.advance(Duration.ofSeconds(5));
        assertThat(run.acks("r6")).singleElement().satisfies(a -> {
            assertThat(a.status()).isEqualTo(AckStatus.REJECTED);
            assertThat(a.message()).contains("needs 2 more, only 0 free");
        });
    }

    @Test
    void suspendSavesStopsAndGivesTheNodesBackThenResumeRestoresFromThatCheckpoint() {
        Run run = training();
        Instant asked = run.sim.now();
        run.sim.suspend("s1", SMALL);
        run.advance(Duration.ofMinutes(1));
        assertThat(statuses(run.acks("s1"))).containsExactly(AckStatus.ACCEPTED, AckStatus.DONE);
        TrainerData.CheckpointCompleted saved =
                (TrainerData.CheckpointCompleted) run.of(EventType.TRAINER_CHECKPOINT_COMPLETED, SMALL, asked)
                        .get(0)
                        .data();
        assertThat(run.of(EventType.WORKLOAD_EVICTED, SMALL, asked)).hasSize(1);

        Instant suspended = run.sim.now();
        run.advance(Duration.ofMinutes(10));
        assertThat(run.of(EventType.TRAINER_PROGRESS, SMALL, suspended)).isEmpty();
        assertThat(run.events.stream()
                        .filter(e -> e.time().isAfter(suspended)
                                && e.data() instanceof io.lifeline.domain.event.GpuData.Sample s
                                && "team".equals(s.namespace())
                                && e.subject().startsWith("od-b")))
                .isEmpty();

        Instant resumed = run.sim.now();
        run.sim.resume("s2", SMALL);
        run.advance(Duration.ofMinutes(3));
        assertThat(statuses(run.acks("s2"))).containsExactly(AckStatus.ACCEPTED, AckStatus.DONE);
        assertThat(run.of(EventType.WORKLOAD_ADMITTED, SMALL, resumed)).hasSize(1);
        TrainerData.Restored restored = (TrainerData.Restored)
                run.of(EventType.TRAINER_RESTORED, SMALL, resumed).get(0).data();
        assertThat(restored.step()).isEqualTo(saved.step());
        assertThat(run.lastStep(SMALL)).isGreaterThan(saved.step());
    }

    @Test
    void resumeOfARunningJobAndCheckpointOfASuspendedJobAreRejected() {
        Run run = training();
        run.sim.resume("x1", SMALL);
        run.sim.suspend("x2", SMALL);
        run.advance(Duration.ofMinutes(1));
        run.sim.requestCheckpoint("x3", SMALL, null);
        run.sim.suspend("x4", SMALL);
        run.advance(Duration.ofSeconds(5));
        assertThat(statuses(run.acks("x1"))).containsExactly(AckStatus.REJECTED);
        assertThat(run.acks("x3")).singleElement().satisfies(a -> {
            assertThat(a.status()).isEqualTo(AckStatus.REJECTED);
            assertThat(a.message()).isEqualTo("job is suspended, not training");
        });
        assertThat(run.acks("x4"))
                .singleElement()
                .satisfies(a -> assertThat(a.message()).isEqualTo("already suspended"));
    }

    @Test
    void aCheckpointInsideTheNoticeWindowSavesTheWorkTheTerminationWouldHaveLost() {
        long lostWithout = lostStepsAfterFirstNotice(false);
        long lostWith = lostStepsAfterFirstNotice(true);
        assertThat(lostWithout).isGreaterThan(30);
        assertThat(lostWith).isLessThan(lostWithout / 2);
    }

    /** Steps between the last progress before the first restore after the notice and the step restored. */
    private static long lostStepsAfterFirstNotice(boolean checkpointOnNotice) {
        Scenario q = TestScenarios.quiet();
        Scenario s = new Scenario(q.seed(), 10, 10, 0, 0, 300, 900, 240L, q.pools(), q.jobs());
        Run run = new Run(s).advance(Duration.ofSeconds(240));
        Event notice = run.events.stream()
                .filter(e -> e.type() == EventType.NODE_INTERRUPTION_NOTICE)
                .findFirst()
                .orElseThrow();
        assertThat(notice.subject()).startsWith("spot-a");
        if (checkpointOnNotice) {
            run.sim.requestCheckpoint("on-notice", BIG, notice.time().plusSeconds(110));
        }
        run.advance(Duration.ofMinutes(5));
        Event restored = run.of(EventType.TRAINER_RESTORED, BIG, notice.time()).get(0);
        long before = run.of(EventType.TRAINER_PROGRESS, BIG).stream()
                .filter(e -> e.time().isBefore(restored.time()))
                .mapToLong(e -> ((TrainerData.Progress) e.data()).step())
                .max()
                .orElseThrow();
        return before - ((TrainerData.Restored) restored.data()).step();
    }
}
