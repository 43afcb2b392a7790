package io.lifeline.domain.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.action.FleetFixture;
import io.lifeline.domain.event.ApplyOutcome;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.GpuData;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.NotAppliedReason;
import io.lifeline.domain.event.NoticeKind;
import io.lifeline.domain.objective.JobObjectives;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PolicyEngineTest {

    private FleetFixture f;

    @BeforeEach
    void fleet() {
        f = new FleetFixture();
        f.node("n1", "spot").node("n2", "spot").node("n3", "spot").node("n4", "reserved");
        f.job("team-a/llm", 1, 3, "n1", "n2");
    }

    private static PolicyEngine engine(PolicyName p, PolicyMode mode, Map<String, PolicyMode> overrides) {
        Map<PolicyName, PolicySettings.Entry> m = new EnumMap<>(PolicyName.class);
        m.put(p, new PolicySettings.Entry(mode, overrides));
        return new PolicyEngine(new PolicySettings(m));
    }

    private List<PolicyDecision> notice(PolicyEngine e, String node) {
        Event n = f.event(
                node,
                EventType.NODE_INTERRUPTION_NOTICE,
                new NodeData.InterruptionNotice(
                        NoticeKind.SPOT_RECLAIM, "aws", f.clock.instant().plusSeconds(120)));
        return e.onEvent(n, f.model.root().apply(n), f.model.jobs(), f.model.fleet(), f.clock.instant());
    }

    @Test
    void noticeAsksForADrainInsideTheNotice() {
        List<PolicyDecision> d = notice(engine(PolicyName.NOTICE_CHECKPOINT_DRAIN, PolicyMode.ON, Map.of()), "n1");
        assertThat(d).hasSize(1);
        assertThat(d.get(0).request().kind()).isEqualTo(ActionKind.DRAIN);
        assertThat(d.get(0).request().target()).isEqualTo("n1");
        assertThat(d.get(0).request().params())
                .containsEntry("deadlineSeconds", "110")
                .containsEntry("allowDelete", "true");
        assertThat(d.get(0).mode()).isEqualTo(PolicyMode.ON);
        assertThat(d.get(0).idempotencyKey()).startsWith("notice:n1:");
    }

    @Test
    void aNoticeOlderThanTheNodesRegistrationIsNotAppliedAndDecidesNothing() {
        PolicyEngine e = engine(PolicyName.NOTICE_CHECKPOINT_DRAIN, PolicyMode.ON, Map.of());
        Event stale = new Event(
                "stale-1",
                "cloud/aws",
                EventType.NODE_INTERRUPTION_NOTICE,
                "n1",
                FleetFixture.T0.minusSeconds(600),
                new NodeData.InterruptionNotice(
                        NoticeKind.SPOT_RECLAIM, "aws", f.clock.instant().plusSeconds(120)));

        ApplyOutcome outcome = f.model.root().apply(stale);

        assertThat(outcome.reason()).isEqualTo(NotAppliedReason.STALE);
        assertThat(e.onEvent(stale, outcome, f.model.jobs(), f.model.fleet(), f.clock.instant()))
                .isEmpty();
        assertThat(f.model.fleet().nodesWithActiveNotice()).isEmpty();
    }

    @Test
    void aNoticePastItsDeadlineIsExpiredAndDecidesNothing() {
        PolicyEngine e = engine(PolicyName.NOTICE_CHECKPOINT_DRAIN, PolicyMode.ON, Map.of());
        Event late = f.event(
                "n1",
                EventType.NODE_INTERRUPTION_NOTICE,
                new NodeData.InterruptionNotice(
                        NoticeKind.SPOT_RECLAIM, "aws", f.clock.instant().minusSeconds(1)));

        ApplyOutcome outcome = f.model.root().apply(late);

        assertThat(outcome.reason()).isEqualTo(NotAppliedReason.EXPIRED);
        assertThat(e.onEvent(late, outcome, f.model.jobs(), f.model.fleet(), f.clock.instant()))
                .isEmpty();
        assertThat(f.model.fleet().nodesWithActiveNotice()).isEmpty();
    }

    @Test
    void aRepeatedNoticeDecidesNothingMore() {
        PolicyEngine e = engine(PolicyName.NOTICE_CHECKPOINT_DRAIN, PolicyMode.ON, Map.of());
        assertThat(notice(e, "n1")).hasSize(1);
        assertThat(notice(e, "n1")).as("same kind and deadline, polled again").isEmpty();
    }

    @Test
    void offPolicyOrAPoolOverrideDecidesNothing() {
        assertThat(notice(engine(PolicyName.NOTICE_CHECKPOINT_DRAIN, PolicyMode.OFF, Map.of()), "n1"))
                .isEmpty();
        PolicyEngine offForSpot =
                engine(PolicyName.NOTICE_CHECKPOINT_DRAIN, PolicyMode.ON, Map.of("pool:spot", PolicyMode.OFF));
        assertThat(notice(offForSpot, "n2")).isEmpty();
        PolicyEngine dryForSpot =
                engine(PolicyName.NOTICE_CHECKPOINT_DRAIN, PolicyMode.OFF, Map.of("pool:spot", PolicyMode.DRY_RUN));
        assertThat(notice(dryForSpot, "n3")).extracting(PolicyDecision::mode).containsExactly(PolicyMode.DRY_RUN);
    }

    @Test
    void fatalXidDrainsButAnInformationalOneDoesNot() {
        PolicyEngine e = engine(PolicyName.FATAL_XID_DRAIN, PolicyMode.ON, Map.of());
        Event fatal = f.event("n1", EventType.GPU_XID, new GpuData.Xid("GPU-1", 0, 79, "fallen off the bus"));
        assertThat(e.onEvent(fatal, f.model.root().apply(fatal), f.model.jobs(), f.model.fleet(), f.clock.instant()))
                .extracting(d -> d.request().kind())
                .containsExactly(ActionKind.DRAIN);
        Event benign = f.event("n1", EventType.GPU_XID, new GpuData.Xid("GPU-1", 0, 13, "graphics engine exception"));
        assertThat(e.onEvent(benign, f.model.root().apply(benign), f.model.jobs(), f.model.fleet(), f.clock.instant()))
                .isEmpty();
    }

    @Test
    void freeCapacityGrowsAnElasticJobToWhatThePoolHas() {
        PolicyEngine e = engine(PolicyName.CAPACITY_GROW, PolicyMode.ON, Map.of());
        f.later(180).progress("team-a/llm", 200);
        List<PolicyDecision> d = e.periodic(f.model.jobs(), f.model.fleet(), f.clock.instant());
        assertThat(d).hasSize(1);
        assertThat(d.get(0).request().kind()).isEqualTo(ActionKind.RESCALE);
        assertThat(d.get(0).isSkipped()).isFalse();
        // n3 is the only free spot node; n4 is in another pool. The deadline: two default saves and the restart.
        assertThat(d.get(0).request().params()).containsEntry("workers", "3").containsEntry("deadlineSeconds", "420");
    }

    @Test
    void aNodeJustReadyIsNotCountedFreeYet() {
        PolicyEngine e = engine(PolicyName.CAPACITY_GROW, PolicyMode.ON, Map.of());
        f.later(180).progress("team-a/llm", 200).node("n5", "spot");
        List<PolicyDecision> d = e.periodic(f.model.jobs(), f.model.fleet(), f.clock.instant());
        assertThat(d).extracting(x -> x.request().params().get("workers")).containsExactly("3");
        f.later(120).progress("team-a/llm", 300);
        assertThat(e.periodic(f.model.jobs(), f.model.fleet(), f.clock.instant()))
                .extracting(x -> x.request().params().get("workers"))
                .containsExactly("3");
    }

    @Test
    void aJobInsideItsStartUpGraceIsSkippedWithTheReason() {
        PolicyEngine e = engine(PolicyName.CAPACITY_GROW, PolicyMode.ON, Map.of());
        f.node("m1", "other").node("m2", "other").later(180);
        f.job("team-b/fresh", 1, 2, "m1");
        List<PolicyDecision> d = e.periodic(f.model.jobs(), f.model.fleet(), f.clock.instant());
        assertThat(d)
                .filteredOn(x -> x.request().target().equals("team-b/fresh"))
                .singleElement()
                .satisfies(x -> {
                    assertThat(x.skipped()).isEqualTo("training for 0 s only, inside the start-up grace of 60 s");
                    assertThat(x.idempotencyKey()).endsWith("|skipped:start-up");
                });
    }

    @Test
    void aStaleCheckpointOfANodeLocalJobIsAskedOnDurableStorage() {
        PolicyEngine e = engine(PolicyName.STALE_CHECKPOINT, PolicyMode.ON, Map.of());
        f.apply(
                "team-a/llm",
                io.lifeline.domain.event.EventType.TRAINER_CHECKPOINT_COMPLETED,
                new io.lifeline.domain.event.TrainerData.CheckpointCompleted(
                        "local-1", 100, 1L, 5, 5, "file:///nvme/ckpt/local-1", null, 16, false, 16));
        f.later(7200).progress("team-a/llm", 900);
        List<PolicyDecision> d = e.periodic(f.model.jobs(), f.model.fleet(), f.clock.instant());
        assertThat(d).singleElement().satisfies(x -> {
            assertThat(x.request().kind()).isEqualTo(ActionKind.CHECKPOINT_NOW);
            assertThat(x.request().params()).containsEntry("storage", "durable");
        });
    }

    @Test
    void staleCheckpointAsksForOneCheckpointPerGeneration() {
        PolicyEngine e = engine(PolicyName.STALE_CHECKPOINT, PolicyMode.ON, Map.of());
        f.checkpoint("team-a/llm", "c1", 100, 20).later(7200).progress("team-a/llm", 900);
        List<PolicyDecision> d = e.periodic(f.model.jobs(), f.model.fleet(), f.clock.instant());
        assertThat(d).extracting(x -> x.request().kind()).containsExactly(ActionKind.CHECKPOINT_NOW);
        List<PolicyDecision> again = e.periodic(f.model.jobs(), f.model.fleet(), f.clock.instant());
        assertThat(again.get(0).idempotencyKey()).isEqualTo(d.get(0).idempotencyKey());
    }

    /** Objectives that hold every job to a target and say the jobs in {@code burning} burn their budget. */
    private static JobObjectives burning(String... burning) {
        Set<String> jobs = Set.of(burning);
        return new JobObjectives() {
            @Override
            public OptionalDouble ettrTarget(String job) {
                return OptionalDouble.of(0.95);
            }

            @Override
            public boolean burning(String job) {
                return jobs.contains(job);
            }
        };
    }

    @Test
    void onlyWhenBurningAStaleCheckpointOfAJobInsideItsBudgetAsksForNothing() {
        PolicyEngine e = engine(PolicyName.STALE_CHECKPOINT, PolicyMode.ON, Map.of());
        e.staleCheckpointOnlyWhenBurning(true);
        e.objectives(burning("team-b/other"));
        f.checkpoint("team-a/llm", "c1", 100, 20).later(7200).progress("team-a/llm", 900);
        assertThat(e.periodic(f.model.jobs(), f.model.fleet(), f.clock.instant()))
                .isEmpty();
    }

    @Test
    void onlyWhenBurningAStaleCheckpointOfAJobBurningItsBudgetIsAskedForAndTheReasonSaysWhy() {
        PolicyEngine e = engine(PolicyName.STALE_CHECKPOINT, PolicyMode.ON, Map.of());
        e.staleCheckpointOnlyWhenBurning(true);
        e.objectives(burning("team-a/llm"));
        f.checkpoint("team-a/llm", "c1", 100, 20).later(7200).progress("team-a/llm", 900);
        assertThat(e.periodic(f.model.jobs(), f.model.fleet(), f.clock.instant()))
                .singleElement()
                .satisfies(x -> {
                    assertThat(x.policy()).isEqualTo(PolicyName.STALE_CHECKPOINT);
                    assertThat(x.request().kind()).isEqualTo(ActionKind.CHECKPOINT_NOW);
                    assertThat(x.request().reason())
                            .isEqualTo("newest checkpoint older than the freshness objective, and the goodput budget"
                                    + " of the job's objective is burning");
                });
    }

    /** The default: objectives or not, burning or not, every stale checkpoint is asked for, with the reason of old. */
    @Test
    void byDefaultAStaleCheckpointIsAskedForWhetherTheBudgetBurnsOrNot() {
        PolicyEngine e = engine(PolicyName.STALE_CHECKPOINT, PolicyMode.ON, Map.of());
        e.objectives(burning());
        f.checkpoint("team-a/llm", "c1", 100, 20).later(7200).progress("team-a/llm", 900);
        assertThat(e.staleCheckpointOnlyWhenBurning()).isFalse();
        assertThat(e.periodic(f.model.jobs(), f.model.fleet(), f.clock.instant()))
                .singleElement()
                .satisfies(x -> assertThat(x.request().reason())
                        .isEqualTo("newest checkpoint older than the freshness objective"));
    }

    /** Without objectives no job burns a budget: only-when-burning then asks for nothing. */
    @Test
    void onlyWhenBurningWithoutObjectivesAsksForNothing() {
        PolicyEngine e = engine(PolicyName.STALE_CHECKPOINT, PolicyMode.ON, Map.of());
        e.staleCheckpointOnlyWhenBurning(true);
        assertThat(e.objectives()).isSameAs(JobObjectives.NONE);
        f.checkpoint("team-a/llm", "c1", 100, 20).later(7200).progress("team-a/llm", 900);
        assertThat(e.periodic(f.model.jobs(), f.model.fleet(), f.clock.instant()))
                .isEmpty();
    }
}
