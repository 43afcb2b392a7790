package io.lifeline.domain.action;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.SchedulerData;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ActionPlannerTest {

    private FleetFixture f;

    @BeforeEach
    void fleet() {
        f = new FleetFixture();
        for (int i = 1; i <= 6; i++) {
            f.node("n" + i, "a100");
        }
        f.job("team-a/llm", 2, 4, "n1", "n2", "n3");
        f.job("team-b/vision", 0, 0, "n3");
        f.checkpoint("team-a/llm", "c1", 100, 30).later(600).progress("team-a/llm", 400);
    }

    private PlanResult plan(ActionKind kind, String target, Map<String, String> params) {
        return f.planner().plan(new ActionRequest(kind, target, params, "test"), f.clock.instant());
    }

    @Test
    void rescaleBelowMinimumIsRefusedNamingWorkers() {
        PlanResult r = plan(ActionKind.RESCALE, "team-a/llm", Map.of("workers", "1"));
        assertThat(r.ok()).isFalse();
        assertThat(r.field()).isEqualTo("params.workers");
        assertThat(r.reason()).contains("between 2 and 4");
    }

    @Test
    void rescaleAboveMaximumIsRefused() {
        PlanResult r = plan(ActionKind.RESCALE, "team-a/llm", Map.of("workers", "5"));
        assertThat(r.field()).isEqualTo("params.workers");
        assertThat(r.reason()).contains("between 2 and 4");
    }

    @Test
    void rescaleWithinBoundsAndFreeCapacityIsPlanned() {
        assertThat(plan(ActionKind.RESCALE, "team-a/llm", Map.of("workers", "4"))
                        .ok())
                .isTrue();
        assertThat(plan(ActionKind.RESCALE, "team-a/llm", Map.of("workers", "2"))
                        .ok())
                .isTrue();
    }

    @Test
    void rescaleOfANonElasticJobIsRefused() {
        PlanResult r = plan(ActionKind.RESCALE, "team-b/vision", Map.of("workers", "2"));
        assertThat(r.field()).isEqualTo("target");
        assertThat(r.reason()).contains("not elastic");
    }

    @Test
    void aRescaleToTheSizeAJobRunsAtIsRefusedUnlessItLostANodeSince() {
        PlanResult same = plan(ActionKind.RESCALE, "team-a/llm", Map.of("workers", "3"));
        assertThat(same.ok()).isFalse();
        assertThat(same.reason()).isEqualTo("the job already runs 3 workers");
        f.apply("n3", EventType.NODE_TERMINATED, new io.lifeline.domain.event.NodeData.Terminated("gone"));
        // Its group counts the 2 left; its replica for n3 is still declared: dropping it is what a shrink does.
        assertThat(plan(ActionKind.RESCALE, "team-a/llm", Map.of("workers", "2"))
                        .ok())
                .isTrue();
    }

    @Test
    void replacingPodsNeedsANodeWhereTheJobHasThem() {
        PlanResult ok = plan(ActionKind.REPLACE_PODS, "team-a/llm", Map.of("node", "n2"));
        assertThat(ok.ok()).isTrue();
        // One node's ranks, and no shrink warning: the job keeps its size.
        assertThat(ok.plan().impact().ranksAffected()).isEqualTo(8);
        assertThat(ok.plan().impact().nodes()).containsExactly("n2");
        assertThat(ok.plan().impact().warnings()).noneMatch(w -> w.contains("cannot shrink"));

        PlanResult elsewhere = plan(ActionKind.REPLACE_PODS, "team-a/llm", Map.of("node", "n5"));
        assertThat(elsewhere.ok()).isFalse();
        assertThat(elsewhere.field()).isEqualTo("params.node");
        assertThat(elsewhere.reason()).isEqualTo("job team-a/llm has no pods on node n5");

        PlanResult none = plan(ActionKind.REPLACE_PODS, "team-a/llm", Map.of());
        assertThat(none.field()).isEqualTo("params.node");
        assertThat(none.reason()).startsWith("required");
    }

    @Test
    void restoreFromAnIncompleteCheckpointIsRefused() {
        f.checkpointStarted("team-a/llm", "c2", 500);
        PlanResult r = plan(ActionKind.RESTORE, "team-a/llm", Map.of("checkpointId", "c2"));
        assertThat(r.field()).isEqualTo("params.checkpointId");
        assertThat(r.reason()).contains("STARTED");
        assertThat(plan(ActionKind.RESTORE, "team-a/llm", Map.of("checkpointId", "c1"))
                        .ok())
                .isTrue();
        assertThat(plan(ActionKind.RESTORE, "team-a/llm", Map.of("checkpointId", "nope"))
                        .field())
                .isEqualTo("params.checkpointId");
    }

    @Test
    void aTerminatedNodeIsNeitherDrainedNorUncordoned() {
        f.apply(
                "n6",
                io.lifeline.domain.event.EventType.NODE_TERMINATED,
                new io.lifeline.domain.event.NodeData.Terminated("spot instance reclaimed"));
        for (ActionKind kind : java.util.List.of(ActionKind.DRAIN, ActionKind.UNCORDON)) {
            PlanResult r = plan(kind, "n6", Map.of());
            assertThat(r.ok()).as(kind.wire()).isFalse();
            assertThat(r.field()).isEqualTo("target");
            assertThat(r.reason()).isEqualTo("node n6 is terminated");
        }
    }

    @Test
    void drainImpactCountsEveryJobOnTheNode() {
        PlanResult r = plan(ActionKind.DRAIN, "n3", Map.of("deadlineSeconds", "120"));
        assertThat(r.ok()).isTrue();
        Impact i = r.plan().impact();
        assertThat(i.jobs()).containsExactlyInAnyOrder("team-a/llm", "team-b/vision");
        assertThat(i.ranksAffected()).isEqualTo(16);
        assertThat(i.newestCheckpointAgeSeconds()).isNull();
        assertThat(i.warnings()).anyMatch(w -> w.contains("team-b/vision has no complete checkpoint"));
        assertThat(i.deadlineAllowsCheckpoint()).isTrue();
        assertThat(r.plan().deadline()).isEqualTo(f.clock.instant().plusSeconds(120));
    }

    @Test
    void aDrainOfTheNodeHoldingTheNewestCheckpointCountsOnlyWhatSurvivesIt() {
        // c1 (on s3, 600 s old, 30 s to save) survives; c2, newer and faster, is on the local disks of n1..n3.
        f.apply(
                "team-a/llm",
                io.lifeline.domain.event.EventType.TRAINER_CHECKPOINT_COMPLETED,
                new io.lifeline.domain.event.TrainerData.CheckpointCompleted(
                        "c2", 380, 1L, 4, 4, "file:///nvme/ckpt/c2", null, 24, false, 24));
        assertThat(f.model.jobs().checkpoints("team-a/llm").orElseThrow().checkpoints())
                .filteredOn(c -> c.id().equals("c2"))
                .singleElement()
                .satisfies(c -> {
                    assertThat(c.durability()).isEqualTo("node-local");
                    assertThat(c.nodes()).containsExactly("n1", "n2", "n3");
                });
        Impact i = plan(ActionKind.DRAIN, "n1", Map.of("deadlineSeconds", "20"))
                .plan()
                .impact();
        assertThat(i.noSafeCheckpoint()).containsExactly("team-a/llm");
        assertThat(i.checkpointsCounted()).isEqualTo("checkpoints that survive the loss of n1");
        assertThat(i.newestCheckpointAgeSeconds()).isEqualTo(600);
        assertThat(i.warnings())
                .anySatisfy(w -> assertThat(w)
                        .isEqualTo("team-a/llm: no safe checkpoint: its newest, c2,"
                                + " is node-local on n1 and would be lost with it; it saves to durable storage first (newest that"
                                + " survives: c1)"));
        // The deadline is measured against the 30 s save to s3, not the 4 s one to the local disk.
        assertThat(i.deadlineAllowsCheckpoint()).isFalse();
        assertThat(i.warnings())
                .anySatisfy(w -> assertThat(w).contains("a checkpoint that survives n1 takes about 30 s"));
        // The job's own freshness counts the same way and flags it.
        var fresh = f.model.jobs().freshness("team-a/llm").orElseThrow();
        assertThat(fresh.checkpointId()).isEqualTo("c1");
        assertThat(fresh.newestCheckpointId()).isEqualTo("c2");
        assertThat(fresh.newestNotSurviving()).isTrue();
        assertThat(f.model.jobs().detail("team-a/llm").orElseThrow().summary().nodeLocalCheckpoint())
                .isTrue();
        // A node the job never wrote on loses nothing.
        assertThat(f.model
                        .jobs()
                        .freshnessSurviving("team-a/llm", "n9")
                        .orElseThrow()
                        .checkpointId())
                .isEqualTo("c2");
    }

    @Test
    void checkpointNowTakesAStorageOfAnyOrDurable() {
        assertThat(plan(ActionKind.CHECKPOINT_NOW, "team-a/llm", Map.of("storage", "durable"))
                        .ok())
                .isTrue();
        PlanResult r = plan(ActionKind.CHECKPOINT_NOW, "team-a/llm", Map.of("storage", "tape"));
        assertThat(r.field()).isEqualTo("params.storage");
    }

    @Test
    void aDeadlineShorterThanACheckpointIsSaidSo() {
        f.checkpoint("team-a/llm", "c3", 500, 90);
        PlanResult r = plan(ActionKind.CHECKPOINT_NOW, "team-a/llm", Map.of("deadlineSeconds", "30"));
        assertThat(r.plan().impact().deadlineAllowsCheckpoint()).isFalse();
        assertThat(r.plan().impact().warnings()).anyMatch(w -> w.contains("about 90 s"));
        assertThat(r.plan().impact().gpuHoursAtRisk()).isZero();
    }

    @Test
    void checkpointOfASuspendedJobIsRefused() {
        f.apply("team-b/vision", EventType.WORKLOAD_EVICTED, new SchedulerData.Evicted("suspended by user"));
        PlanResult r = plan(ActionKind.CHECKPOINT_NOW, "team-b/vision", Map.of());
        assertThat(r.ok()).isFalse();
        assertThat(r.reason()).contains("SUSPENDED");
        assertThat(plan(ActionKind.RESUME, "team-b/vision", Map.of()).ok()).isTrue();
        assertThat(plan(ActionKind.RESUME, "team-a/llm", Map.of()).ok()).isFalse();
    }

    @Test
    void checkpointOfAJobWhoseTrainersHaveNotStartedIsRefusedButItMayBePreempted() {
        f.apply(
                "team-c/queued",
                EventType.JOB_SUBMITTED,
                new JobData.Submitted("team-c", "carol", "low", null, 8, 1800L));
        PlanResult r = plan(ActionKind.CHECKPOINT_NOW, "team-c/queued", Map.of());
        assertThat(r.ok()).isFalse();
        assertThat(r.field()).isEqualTo("target");
        assertThat(r.reason()).contains("PENDING").contains("not started");
        assertThat(plan(ActionKind.PREEMPT, "team-c/queued", Map.of()).ok()).isTrue();
    }

    @Test
    void unknownTargetsParametersAndBadDeadlinesNameTheirField() {
        assertThat(plan(ActionKind.DRAIN, "n99", Map.of()).field()).isEqualTo("target");
        assertThat(plan(ActionKind.DRAIN, "../etc/passwd", Map.of()).field()).isEqualTo("target");
        assertThat(plan(ActionKind.CHECKPOINT_NOW, "nobody/none", Map.of()).field())
                .isEqualTo("target");
        assertThat(plan(ActionKind.CHECKPOINT_NOW, "team-a/llm", Map.of("color", "red"))
                        .field())
                .isEqualTo("params.color");
        assertThat(plan(ActionKind.CHECKPOINT_NOW, "team-a/llm", Map.of("deadlineSeconds", "-1"))
                        .field())
                .isEqualTo("params.deadlineSeconds");
        assertThat(plan(ActionKind.DRAIN, "n1", Map.of("allowDelete", "maybe")).field())
                .isEqualTo("params.allowDelete");
    }
}
