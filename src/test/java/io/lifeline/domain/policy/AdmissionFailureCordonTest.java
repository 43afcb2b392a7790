package io.lifeline.domain.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.event.ApplyOutcome;
import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventData;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.fleet.Fleet;
import io.lifeline.domain.job.Jobs;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The admission-failure-cordon policy's decisions. */
class AdmissionFailureCordonTest {

    private static final Instant T0 = Instant.parse("2026-09-04T14:49:00Z");
    private static final String N = "ip-10-4-164-212";
    private final Fleet fleet = new Fleet(Clock.fixed(T0, ZoneOffset.UTC));
    private final Jobs jobs = new Jobs(fleet, Clock.fixed(T0, ZoneOffset.UTC));
    private long ids;

    private static Instant at(long seconds) {
        return T0.plusSeconds(seconds);
    }

    private Event event(EventType type, Instant t, EventData data) {
        return new Event("e-" + ++ids, "test://fleet", type, N, t, data);
    }

    private void node() {
        fleet.apply(event(
                EventType.NODE_REGISTERED,
                T0,
                new NodeData.Registered("g5-48xl", CapacityType.ON_DEMAND, "z", "g5.48xlarge", 8, null)));
        fleet.apply(event(EventType.NODE_READY, at(1), new NodeData.Ready()));
    }

    /** Applies one rejection and returns what the engine decides on it. */
    private List<PolicyDecision> reject(PolicyEngine e, long seconds, int pod) {
        Event ev = event(
                EventType.NODE_ADMISSION_FAILED,
                at(seconds),
                new NodeData.AdmissionFailed(
                        "arc-runners/workflow-" + pod, "UnexpectedAdmissionError", "Allocate failed due to ..."));
        ApplyOutcome outcome = fleet.change(ev).outcome();
        return e.onEvent(ev, outcome, jobs, fleet, at(seconds));
    }

    private static PolicyEngine engine(PolicyMode mode, Map<String, PolicyMode> overrides) {
        return new PolicyEngine(PolicySettings.allOff()
                .with(PolicyName.ADMISSION_FAILURE_CORDON, new PolicySettings.Entry(mode, overrides)));
    }

    @Test
    void theFifthRejectionInTenMinutesCordonsTheNodeWithTheEvidence() {
        node();
        PolicyEngine e = engine(PolicyMode.ON, Map.of());
        for (int i = 0; i < 4; i++) {
            assertThat(reject(e, 10 + i, i)).isEmpty();
        }
        assertThat(reject(e, 20, 4)).singleElement().satisfies(d -> {
            assertThat(d.policy()).isEqualTo(PolicyName.ADMISSION_FAILURE_CORDON);
            assertThat(d.mode()).isEqualTo(PolicyMode.ON);
            assertThat(d.request().kind()).isEqualTo(ActionKind.CORDON);
            assertThat(d.request().target()).isEqualTo(N);
            assertThat(d.request().reason())
                    .startsWith("node swallows pods: 5 pod(s) rejected at admission within 10 min (threshold 5)")
                    .contains("first " + at(10), "last " + at(20), "arc-runners/workflow-4");
            assertThat(d.idempotencyKey()).isEqualTo("admission:" + N + ":" + T0);
            assertThat(AutomationBrake.takesNode(d.request())).isTrue();
        });
        // Every further rejection asks for the same cordon: one key per node and cordon state.
        assertThat(reject(e, 21, 5))
                .singleElement()
                .satisfies(d -> assertThat(d.idempotencyKey()).isEqualTo("admission:" + N + ":" + T0));
    }

    @Test
    void dryRunDecidesTheSameAndOffNothing() {
        node();
        PolicyEngine dry = engine(PolicyMode.DRY_RUN, Map.of());
        for (int i = 0; i < 4; i++) {
            reject(dry, 10 + i, i);
        }
        assertThat(reject(dry, 20, 4))
                .singleElement()
                .satisfies(d -> assertThat(d.mode()).isEqualTo(PolicyMode.DRY_RUN));
        PolicyEngine offForPool = engine(PolicyMode.ON, Map.of("pool:g5-48xl", PolicyMode.OFF));
        assertThat(reject(offForPool, 21, 5)).isEmpty();
    }

    @Test
    void aCordonedNodeIsLeftAlone() {
        node();
        fleet.apply(event(EventType.NODE_CORDONED, at(5), new NodeData.Cordoned("kubectl")));
        PolicyEngine e = engine(PolicyMode.ON, Map.of());
        for (int i = 0; i < 6; i++) {
            assertThat(reject(e, 10 + i, i)).isEmpty();
        }
    }
}
