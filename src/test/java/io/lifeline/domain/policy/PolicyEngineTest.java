package io.lifeline.domain.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.action.FleetFixture;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.GpuData;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.NoticeKind;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
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
        Event n = f.event(node, EventType.NODE_INTERRUPTION_NOTICE, new NodeData.InterruptionNotice(
                NoticeKind.SPOT_RECLAIM, "aws", f.clock.instant().plusSeconds(120)));
        f.model.root().apply(n);
        return e.onEvent(n, f.model.jobs(), f.model.fleet(), f.clock.instant());
    }

    @Test
    void noticeAsksForADrainInsideTheNotice() {
        List<PolicyDecision> d = notice(engine(PolicyName.NOTICE_CHECKPOINT_DRAIN, PolicyMode.ON, Map.of()), "n1");
        assertThat(d).hasSize(1);
        assertThat(d.get(0).request().kind()).isEqualTo(ActionKind.DRAIN);
        assertThat(d.get(0).request().target()).isEqualTo("n1");
        assertThat(d.get(0).request().params()).containsEntry("deadlineSeconds", "110").containsEntry("allowDelete", "true");
        assertThat(d.get(0).mode()).isEqualTo(PolicyMode.ON);
        assertThat(d.get(0).idempotencyKey()).startsWith("notice:n1:");
    }

    @Test
    void offPolicyOrAPoolOverrideDecidesNothing() {
        assertThat(notice(engine(PolicyName.NOTICE_CHECKPOINT_DRAIN, PolicyMode.OFF, Map.of()), "n1")).isEmpty();
        PolicyEngine offForSpot = engine(PolicyName.NOTICE_CHECKPOINT_DRAIN, PolicyMode.ON,
                Map.of("pool:spot", PolicyMode.OFF));
        assertThat(notice(offForSpot, "n2")).isEmpty();
        PolicyEngine dryForSpot = engine(PolicyName.NOTICE_CHECKPOINT_DRAIN, PolicyMode.OFF,
                Map.of("pool:spot", PolicyMode.DRY_RUN));
        assertThat(notice(dryForSpot, "n3")).extracting(PolicyDecision::mode).containsExactly(PolicyMode.DRY_RUN);
    }

    @Test
    void fatalXidDrainsButAnInformationalOneDoesNot() {
        PolicyEngine e = engine(PolicyName.FATAL_XID_DRAIN, PolicyMode.ON, Map.of());
        Event fatal = f.event("n1", EventType.GPU_XID, new GpuData.Xid("GPU-1", 0, 79, "fallen off the bus"));
        assertThat(e.onEvent(fatal, f.model.jobs(), f.model.fleet(), f.clock.instant()))
                .extracting(d -> d.request().kind()).containsExactly(ActionKind.DRAIN);
        Event benign = f.event("n1", EventType.GPU_XID, new GpuData.Xid("GPU-1", 0, 13, "graphics engine exception"));
        assertThat(e.onEvent(benign, f.model.jobs(), f.model.fleet(), f.clock.instant())).isEmpty();
    }

    @Test
    void freeCapacityGrowsAnElasticJobToWhatThePoolHas() {
        PolicyEngine e = engine(PolicyName.CAPACITY_GROW, PolicyMode.ON, Map.of());
        List<PolicyDecision> d = e.periodic(f.model.jobs(), f.model.fleet(), f.clock.instant());
        assertThat(d).hasSize(1);
        assertThat(d.get(0).request().kind()).isEqualTo(ActionKind.RESCALE);
        // n3 is the only free spot node; n4 is in another pool.
        assertThat(d.get(0).request().params()).containsEntry("workers", "3");
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
}
