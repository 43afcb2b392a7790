package io.lifeline.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.SchedulerData;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.event.TrainerData.AckStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Lifeline's cluster actions on the simulated fleet: cordon and uncordon, eviction (elastic shrink, waiting below
 * min), worker count, suspension, and the restore and interval commands the trainers obey.
 */
class ClusterOpsTest {

    private static final String BIG = "team/big";
    private static final String SMALL = "team/small";

    /** Drives a quiet fleet (8 spot nodes for big 4..6, 4 on-demand for small 2..3) and keeps its events. */
    private static final class Run {
        final FleetSimulator sim = new FleetSimulator(TestScenarios.quiet(), TestScenarios.START);
        final List<Event> events = new ArrayList<>();

        Run advance(Duration d) {
            events.addAll(sim.advanceTo(sim.now().plus(d)));
            return this;
        }

        List<Event> of(EventType type, String subject, Instant from) {
            return events.stream()
                    .filter(e -> e.type() == type
                            && e.subject().equals(subject)
                            && !e.time().isBefore(from))
                    .toList();
        }

        List<String> nodesOf(String job, String pool) {
            List<String> out = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                String node = String.format("%s-%04d", pool, i);
                if (sim.podsOn(node).stream().anyMatch(p -> p.job().equals(job))) {
                    out.add(node);
                }
            }
            return out;
        }

        List<String> freeNodes(String pool, int count) {
            List<String> out = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                String node = String.format("%s-%04d", pool, i);
                if (sim.podsOn(node).isEmpty()) {
                    out.add(node);
                }
            }
            return out;
        }

        int lastWorldSize(String job, Instant from) {
            List<Event> r = of(EventType.TRAINER_RENDEZVOUS, job, from);
            return r.isEmpty()
                    ? -1
                    : ((TrainerData.Rendezvous) r.get(r.size() - 1).data()).worldSize();
        }

        List<AckStatus> acks(String commandId) {
            return events.stream()
                    .filter(e -> e.data() instanceof TrainerData.CommandAck a
                            && a.commandId().equals(commandId))
                    .map(e -> ((TrainerData.CommandAck) e.data()).status())
                    .toList();
        }
    }

    private static Run training() {
        return new Run().advance(Duration.ofMinutes(4));
    }

    @Test
    void cordonIsIdempotentAndACordonedNodeGetsNoNewPods() {
        Run run = training();
        List<String> free = run.freeNodes("spot-a", 8);
        assertThat(free).hasSize(2);
        Instant t0 = run.sim.now();
        assertThat(run.sim.cordon(free.get(0)).kind()).isEqualTo(SimOutcome.Kind.PATCHED);
        assertThat(run.sim.cordon(free.get(0)).kind()).isEqualTo(SimOutcome.Kind.NOOP);
        assertThat(run.sim.cordon("no-such-node").kind()).isEqualTo(SimOutcome.Kind.NOT_FOUND);
        run.advance(Duration.ofSeconds(1));
        assertThat(run.of(EventType.NODE_CORDONED, free.get(0), t0))
                .hasSize(1)
                .allSatisfy(e -> assertThat(((NodeData.Cordoned) e.data()).by()).isEqualTo("lifeline"));

        // One of big's pods is evicted: its replacement goes to the one schedulable free node, not the cordoned one.
        String victim = run.nodesOf(BIG, "spot-a").get(0);
        SimPod pod = run.sim.podsOn(victim).get(0);
        assertThat(run.sim.evict(pod.namespace(), pod.name()).kind()).isEqualTo(SimOutcome.Kind.EVICTED);
        run.advance(Duration.ofMinutes(3));
        assertThat(run.sim.podsOn(free.get(0))).isEmpty();
        assertThat(run.sim.podsOn(free.get(1))).extracting(SimPod::job).containsExactly(BIG);

        assertThat(run.sim.uncordon(free.get(0)).kind()).isEqualTo(SimOutcome.Kind.PATCHED);
        assertThat(run.sim.uncordon(free.get(0)).kind()).isEqualTo(SimOutcome.Kind.NOOP);
        run.advance(Duration.ofSeconds(1));
        assertThat(run.of(EventType.NODE_UNCORDONED, free.get(0), t0)).hasSize(1);
    }

    @Test
    void evictingAPodOfAnElasticJobAboveMinShrinksItAndItTrainsOn() {
        Run run = training();
        for (String n : run.freeNodes("spot-a", 8)) {
            run.sim.cordon(n);
        }
        List<String> nodes = run.nodesOf(BIG, "spot-a");
        assertThat(nodes).hasSize(6);
        run.sim.cordon(nodes.get(2));
        SimPod pod = run.sim.podsOn(nodes.get(2)).get(0);
        Instant t0 = run.sim.now();
        assertThat(run.sim.evict(pod.namespace(), pod.name()).kind()).isEqualTo(SimOutcome.Kind.EVICTED);
        assertThat(run.sim.evict(pod.namespace(), pod.name()).kind()).isEqualTo(SimOutcome.Kind.NOT_FOUND);
        run.advance(Duration.ofMinutes(3));

        assertThat(run.of(EventType.POD_EVICTED, BIG, t0))
                .singleElement()
                .satisfies(e ->
                        assertThat(((SchedulerData.PodEvicted) e.data()).node()).isEqualTo(nodes.get(2)));
        assertThat(run.of(EventType.TRAINER_WORKER_FAILED, BIG, t0)).hasSize(8);
        assertThat(run.lastWorldSize(BIG, t0)).isEqualTo(5 * 8);
        assertThat(run.of(EventType.TRAINER_PROGRESS, BIG, run.sim.now().minusSeconds(30)))
                .isNotEmpty();
        assertThat(run.sim.podsOn(nodes.get(2))).isEmpty();
    }

    @Test
    void evictingBelowMinWaitsForCapacityUntilANodeIsUncordoned() {
        Run run = training();
        List<String> od = List.of("od-b-0000", "od-b-0001", "od-b-0002", "od-b-0003");
        od.forEach(run.sim::cordon);
        List<String> nodes = run.nodesOf(SMALL, "od-b");
        assertThat(nodes).hasSize(3);
        Instant t0 = run.sim.now();
        for (String n : nodes.subList(0, 2)) {
            SimPod pod = run.sim.podsOn(n).get(0);
            assertThat(run.sim.evict(pod.namespace(), pod.name()).kind()).isEqualTo(SimOutcome.Kind.EVICTED);
        }
        run.advance(Duration.ofMinutes(3));
        assertThat(run.of(EventType.TRAINER_RENDEZVOUS, SMALL, t0)).isEmpty();
        assertThat(run.of(EventType.TRAINER_PROGRESS, SMALL, run.sim.now().minusSeconds(60)))
                .isEmpty();

        Instant t1 = run.sim.now();
        run.sim.uncordon(nodes.get(0));
        run.advance(Duration.ofMinutes(3));
        assertThat(run.lastWorldSize(SMALL, t1)).isEqualTo(2 * 8);
        assertThat(run.of(EventType.TRAINER_PROGRESS, SMALL, run.sim.now().minusSeconds(30)))
                .isNotEmpty();
    }

    @Test
    void workersAreSetWithinTheElasticBoundsOnly() {
        Run run = training();
        assertThat(run.sim.scaleWorkers(BIG, 3).kind()).isEqualTo(SimOutcome.Kind.FAILED);
        assertThat(run.sim.scaleWorkers(BIG, 7).detail()).contains("4..6");
        assertThat(run.sim.scaleWorkers(BIG, 6).kind()).isEqualTo(SimOutcome.Kind.NOOP);
        assertThat(run.sim.scaleWorkers("team/none", 4).kind()).isEqualTo(SimOutcome.Kind.NOT_FOUND);
        Instant t0 = run.sim.now();
        assertThat(run.sim.scaleWorkers(BIG, 4).kind()).isEqualTo(SimOutcome.Kind.PATCHED);
        run.advance(Duration.ofMinutes(5));
        assertThat(run.lastWorldSize(BIG, t0)).isEqualTo(4 * 8);
        assertThat(run.nodesOf(BIG, "spot-a")).hasSize(4);
    }

    @Test
    void workersSetWhileTheJobLoadsItsCheckpointTakeEffectAtOnce() {
        // Up to big's first rendezvous: its trainers now load a checkpoint for several seconds before they train.
        Run run = new Run();
        while (run.of(EventType.TRAINER_RENDEZVOUS, BIG, TestScenarios.START).isEmpty()) {
            run.advance(Duration.ofSeconds(1));
        }
        assertThat(run.of(EventType.TRAINER_RESTORED, BIG, TestScenarios.START))
                .as("still restoring")
                .isEmpty();
        assertThat(run.lastWorldSize(BIG, TestScenarios.START)).isEqualTo(6 * 8);
        Instant t0 = run.sim.now();
        assertThat(run.sim.scaleWorkers(BIG, 4).kind()).isEqualTo(SimOutcome.Kind.PATCHED);
        run.advance(Duration.ofMinutes(3));
        // It restarts on 4 nodes and trains there; it does not go on with all 6 after the restore.
        assertThat(run.lastWorldSize(BIG, t0)).isEqualTo(4 * 8);
        assertThat(run.nodesOf(BIG, "spot-a")).hasSize(4);
        assertThat(run.of(EventType.TRAINER_PROGRESS, BIG, run.sim.now().minusSeconds(30)))
                .isNotEmpty();
        assertThat(run.of(EventType.TRAINER_RESTARTED, BIG, t0))
                .as("a membership change is no restart")
                .isEmpty();
    }

    @Test
    void suspendSavesAndStopsAndResumeStartsAgain() {
        Run run = training();
        Instant t0 = run.sim.now();
        assertThat(run.sim.setSuspended(SMALL, false).kind()).isEqualTo(SimOutcome.Kind.NOOP);
        assertThat(run.sim.setSuspended(SMALL, true).kind()).isEqualTo(SimOutcome.Kind.PATCHED);
        assertThat(run.sim.setSuspended(SMALL, true).kind()).isEqualTo(SimOutcome.Kind.NOOP);
        run.advance(Duration.ofMinutes(2));
        assertThat(run.of(EventType.WORKLOAD_EVICTED, SMALL, t0)).hasSize(1);
        assertThat(run.of(EventType.TRAINER_CHECKPOINT_COMPLETED, SMALL, t0)).isNotEmpty();
        assertThat(run.nodesOf(SMALL, "od-b")).isEmpty();

        Instant t1 = run.sim.now();
        assertThat(run.sim.setSuspended(SMALL, false).kind()).isEqualTo(SimOutcome.Kind.PATCHED);
        run.advance(Duration.ofMinutes(3));
        assertThat(run.of(EventType.WORKLOAD_ADMITTED, SMALL, t1)).hasSize(1);
        assertThat(run.of(EventType.TRAINER_RESTORED, SMALL, t1)).hasSize(1);
    }

    @Test
    void restoreCommandRestartsFromTheNamedCheckpointAndUnknownOnesAreRejected() {
        Run run = training().advance(Duration.ofMinutes(10));
        List<Event> saved = run.of(EventType.TRAINER_CHECKPOINT_COMPLETED, SMALL, TestScenarios.START);
        assertThat(saved.size()).isGreaterThanOrEqualTo(2);
        TrainerData.CheckpointCompleted first =
                (TrainerData.CheckpointCompleted) saved.get(0).data();
        Instant t0 = run.sim.now();
        run.sim.restore("r1", SMALL, first.checkpointId());
        run.sim.restore("r2", SMALL, "small-ckpt-99999");
        run.advance(Duration.ofMinutes(3));
        assertThat(run.acks("r1")).containsExactly(AckStatus.ACCEPTED, AckStatus.DONE);
        assertThat(run.acks("r2")).containsExactly(AckStatus.REJECTED);
        TrainerData.Restored restored = (TrainerData.Restored)
                run.of(EventType.TRAINER_RESTORED, SMALL, t0).get(0).data();
        assertThat(restored.checkpointId()).isEqualTo(first.checkpointId());
        assertThat(restored.step()).isEqualTo(first.step());
    }

    @Test
    void restoreAnnotationIsKeptForTheNextStart() {
        Run run = training().advance(Duration.ofMinutes(10));
        List<Event> saved = run.of(EventType.TRAINER_CHECKPOINT_COMPLETED, SMALL, TestScenarios.START);
        String first = ((TrainerData.CheckpointCompleted) saved.get(0).data()).checkpointId();
        assertThat(run.sim.restoreFrom(SMALL, "nope").kind()).isEqualTo(SimOutcome.Kind.FAILED);
        assertThat(run.sim.restoreFrom(SMALL, first).kind()).isEqualTo(SimOutcome.Kind.PATCHED);
        assertThat(run.sim.restoreFrom(SMALL, first).kind()).isEqualTo(SimOutcome.Kind.NOOP);
        run.sim.setSuspended(SMALL, true);
        run.advance(Duration.ofMinutes(2));
        Instant t0 = run.sim.now();
        run.sim.setSuspended(SMALL, false);
        run.advance(Duration.ofMinutes(3));
        assertThat(((TrainerData.Restored) run.of(EventType.TRAINER_RESTORED, SMALL, t0)
                                .get(0)
                                .data())
                        .checkpointId())
                .isEqualTo(first);
    }

    @Test
    void checkpointIntervalCommandChangesThePeriodicSaves() {
        Run run = training();
        run.sim.setCheckpointInterval("i1", SMALL, 60);
        run.sim.setCheckpointInterval("i2", SMALL, 5);
        run.advance(Duration.ofSeconds(5));
        assertThat(run.acks("i1")).containsExactly(AckStatus.ACCEPTED, AckStatus.DONE);
        assertThat(run.acks("i2")).containsExactly(AckStatus.REJECTED);
        Instant t0 = run.sim.now();
        run.advance(Duration.ofMinutes(10));
        // 200 s before: at most 3 saves in 10 minutes; every 60 s (plus 5 s blocking) now: about 9.
        assertThat(run.of(EventType.TRAINER_CHECKPOINT_COMPLETED, SMALL, t0).size())
                .isGreaterThanOrEqualTo(7);
    }

    @Test
    void prepareExitSavesThenPausesSoAnEvictionLosesNoSteps() {
        Run run = training().advance(Duration.ofMinutes(2));
        Instant t0 = run.sim.now();
        run.sim.requestCheckpoint("p1", "prepare_exit", SMALL, t0.plusSeconds(600));
        run.advance(Duration.ofMinutes(1));
        assertThat(run.acks("p1")).containsExactly(AckStatus.ACCEPTED, AckStatus.DONE);
        TrainerData.CheckpointCompleted saved = (TrainerData.CheckpointCompleted)
                run.of(EventType.TRAINER_CHECKPOINT_COMPLETED, SMALL, t0).get(0).data();
        run.advance(Duration.ofMinutes(1));
        // Paused after the save: no training, so no progress reports.
        assertThat(run.of(EventType.TRAINER_PROGRESS, SMALL, run.sim.now().minusSeconds(40)))
                .isEmpty();

        String node = run.nodesOf(SMALL, "od-b").get(0);
        SimPod pod = run.sim.podsOn(node).get(0);
        Instant t1 = run.sim.now();
        run.sim.evict(pod.namespace(), pod.name());
        run.advance(Duration.ofMinutes(3));
        TrainerData.Restored restored = (TrainerData.Restored)
                run.of(EventType.TRAINER_RESTORED, SMALL, t1).get(0).data();
        assertThat(restored.step()).isEqualTo(saved.step());
        assertThat(run.lastWorldSize(SMALL, t1)).isEqualTo(3 * 8);
        List<Event> after =
                run.of(EventType.TRAINER_PROGRESS, SMALL, run.sim.now().minusSeconds(20));
        assertThat(((TrainerData.Progress) after.get(after.size() - 1).data()).step())
                .isGreaterThan(saved.step());
    }

    @Test
    void prepareExitDuringAnAsyncUploadSavesTheStepItHoldsAtNotTheOneTheUploadStartedFrom() {
        Run run = training();
        // Into an upload of big's periodic save: its blocking part is over and training went on meanwhile.
        Instant from = run.sim.now();
        while (run.of(EventType.TRAINER_CHECKPOINT_STARTED, BIG, from).isEmpty()) {
            run.advance(Duration.ofSeconds(5));
        }
        run.advance(Duration.ofSeconds(25));
        Instant asked = run.sim.now();
        assertThat(run.of(EventType.TRAINER_CHECKPOINT_COMPLETED, BIG, from))
                .as("the upload is still in flight")
                .isEmpty();
        run.sim.requestCheckpoint("p2", "prepare_exit", BIG, asked.plusSeconds(600));
        run.advance(Duration.ofMinutes(3));
        assertThat(run.acks("p2")).containsExactly(AckStatus.ACCEPTED, AckStatus.DONE);
        Event done = run.events.stream()
                .filter(e -> e.data() instanceof TrainerData.CommandAck a
                        && a.commandId().equals("p2")
                        && a.status() == AckStatus.DONE)
                .findFirst()
                .orElseThrow();
        long trained = run.of(EventType.TRAINER_PROGRESS, BIG, from).stream()
                .filter(e -> !e.time().isAfter(done.time()))
                .mapToLong(e -> ((TrainerData.Progress) e.data()).step())
                .max()
                .orElseThrow();
        TrainerData.CheckpointCompleted saved = run.of(EventType.TRAINER_CHECKPOINT_COMPLETED, BIG, from).stream()
                .map(e -> (TrainerData.CheckpointCompleted) e.data())
                .filter(c -> ((TrainerData.CommandAck) done.data()).message().contains(c.checkpointId()))
                .findFirst()
                .orElseThrow();
        // Done means every step trained before the hold is saved: a restart now throws nothing away.
        assertThat(saved.step()).isGreaterThanOrEqualTo(trained);
    }

    @Test
    void noticeCommandsAreAcknowledgedAsNoted() {
        Run run = training();
        run.sim.note("n1", "rescale_notice", BIG);
        run.sim.requestCheckpoint("p1", "prepare_exit", BIG, run.sim.now().plusSeconds(600));
        run.advance(Duration.ofMinutes(3));
        assertThat(run.acks("n1")).containsExactly(AckStatus.ACCEPTED, AckStatus.DONE);
        assertThat(run.acks("p1")).containsExactly(AckStatus.ACCEPTED, AckStatus.DONE);
    }
}
