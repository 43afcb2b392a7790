package io.lifeline.domain.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventData;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.GpuData;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.fleet.Fleet;
import io.lifeline.domain.fleet.NodeLifecycle;
import io.lifeline.domain.job.Jobs;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A node drained for a fatal XID comes back only once its validation passes, with the evidence in the reason. */
class BackToServiceTest {

    private static final Instant T0 = Instant.parse("2026-03-02T10:00:00Z");
    private static final String N = "gpu-7";
    private final Fleet fleet = new Fleet(Clock.fixed(T0, ZoneOffset.UTC));
    private final Jobs jobs = new Jobs(fleet, Clock.fixed(T0, ZoneOffset.UTC));
    private long ids;

    private static Instant at(long seconds) {
        return T0.plusSeconds(seconds);
    }

    private void apply(EventType type, Instant t, EventData data) {
        fleet.apply(new Event("e-" + ++ids, "test://fleet", type, N, t, data));
    }

    private void samples(Instant t, Long dbe) {
        for (int i = 0; i < 2; i++) {
            apply(
                    EventType.GPU_SAMPLE,
                    t,
                    new GpuData.Sample(
                            "GPU-" + i,
                            i,
                            "NVIDIA A100-SXM4-80GB",
                            0.0,
                            100.0,
                            80_000.0,
                            40.0,
                            60.0,
                            0L,
                            dbe,
                            0L,
                            0L,
                            null,
                            null,
                            null));
        }
    }

    private void xid(Instant t) {
        apply(EventType.GPU_XID, t, new GpuData.Xid("GPU-0", 0, 79, "GPU has fallen off the bus"));
    }

    private PolicyEngine engine(BackToService.Check check) {
        PolicyEngine e = new PolicyEngine(PolicySettings.allOff()
                .with(PolicyName.BACK_TO_SERVICE, new PolicySettings.Entry(PolicyMode.ON, Map.of()))
                .with(PolicyName.FATAL_XID_DRAIN, new PolicySettings.Entry(PolicyMode.ON, Map.of())));
        e.backToService(new BackToService.Settings(check, Duration.ofMinutes(10), Duration.ofMinutes(2)));
        return e;
    }

    private List<PolicyDecision> uncordons(PolicyEngine e, Instant now) {
        return e.periodic(jobs, fleet, now).stream()
                .filter(d -> d.policy() == PolicyName.BACK_TO_SERVICE)
                .toList();
    }

    /** Registered with two GPUs, a fatal XID at 60 s, drained by the policy's action at 61 s. */
    private PolicyEngine drainedForXid(BackToService.Check check) {
        PolicyEngine e = engine(check);
        apply(
                EventType.NODE_REGISTERED,
                T0,
                new NodeData.Registered("a100", CapacityType.ON_DEMAND, "z", "p4d", 2, null));
        apply(EventType.NODE_READY, at(1), new NodeData.Ready());
        samples(at(10), 0L);
        Event x = new Event(
                "e-" + ++ids,
                "test://fleet",
                EventType.GPU_XID,
                N,
                at(60),
                new GpuData.Xid("GPU-0", 0, 79, "GPU has fallen off the bus"));
        assertThat(e.onEvent(x, fleet.change(x).outcome(), jobs, fleet, at(60)))
                .singleElement()
                .satisfies(d -> assertThat(d.request().kind()).isEqualTo(ActionKind.DRAIN));
        fleet.markDraining(N, at(61));
        apply(EventType.NODE_CORDONED, at(61), new NodeData.Cordoned("lifeline"));
        return e;
    }

    @Test
    void noUncordonWhileXidsContinueThenTheHealthyWindowReturnsIt() {
        PolicyEngine e = drainedForXid(BackToService.Check.SAMPLES);
        samples(at(290), 0L);
        assertThat(uncordons(e, at(300))).as("4 minutes after the XID").isEmpty();
        xid(at(480));
        samples(at(890), 0L);
        assertThat(uncordons(e, at(900))).as("7 minutes after the second XID").isEmpty();
        assertThat(uncordons(e, at(1200))).as("the samples are 5 minutes old").isEmpty();
        samples(at(1190), 3L);
        assertThat(uncordons(e, at(1200)))
                .as("a double-bit ECC error in the samples")
                .isEmpty();
        samples(at(1195), 0L);
        assertThat(uncordons(e, at(1200))).singleElement().satisfies(d -> {
            assertThat(d.request().kind()).isEqualTo(ActionKind.UNCORDON);
            assertThat(d.request().target()).isEqualTo(N);
            assertThat(d.mode()).isEqualTo(PolicyMode.ON);
            assertThat(d.request().reason())
                    .contains("XID 79 on GPU 0", "no XID for 12 min", "2 GPU(s) sampled healthy since " + at(1195));
            assertThat(d.idempotencyKey()).isEqualTo("back-to-service:" + N + ":" + at(61));
        });
        // The uncordon took effect: the drain is over and nothing more is asked.
        apply(EventType.NODE_UNCORDONED, at(1201), new NodeData.Uncordoned());
        assertThat(fleet.lifecycle(N)).isEqualTo(NodeLifecycle.READY);
        assertThat(uncordons(e, at(1210))).isEmpty();
    }

    @Test
    void anExternalHealthCheckReturnsItWhenItPassesAfterTheLastXid() {
        PolicyEngine e = drainedForXid(BackToService.Check.HEALTH_CHECK);
        samples(at(3590), 0L);
        assertThat(uncordons(e, at(3600)))
                .as("healthy samples are not what this check asks for")
                .isEmpty();
        apply(EventType.NODE_HEALTH_CHECK, at(3600), new NodeData.HealthCheck(false, "dcgmi diag -r 3", "PCIe failed"));
        assertThat(uncordons(e, at(3610))).isEmpty();
        apply(EventType.NODE_HEALTH_CHECK, at(3700), new NodeData.HealthCheck(true, "dcgmi diag -r 3", "all passed"));
        xid(at(3750));
        assertThat(uncordons(e, at(3760))).as("an XID after the check").isEmpty();
        apply(EventType.NODE_HEALTH_CHECK, at(3800), new NodeData.HealthCheck(true, "dcgmi diag -r 3", "all passed"));
        assertThat(uncordons(e, at(3810)))
                .singleElement()
                .satisfies(d -> assertThat(d.request().reason())
                        .contains("health check passed at " + at(3800), "dcgmi diag -r 3: all passed"));
    }

    @Test
    void aNodeCordonedByHandOrWithoutAFaultStaysOut() {
        PolicyEngine e = engine(BackToService.Check.SAMPLES);
        apply(
                EventType.NODE_REGISTERED,
                T0,
                new NodeData.Registered("a100", CapacityType.ON_DEMAND, "z", "p4d", 2, null));
        xid(at(60));
        apply(EventType.NODE_CORDONED, at(61), new NodeData.Cordoned("kubectl"));
        samples(at(1790), 0L);
        assertThat(uncordons(e, at(1800))).as("cordoned by hand, not drained").isEmpty();
        PolicyEngine off = new PolicyEngine(PolicySettings.allOff());
        fleet.markDraining(N, at(1801));
        assertThat(uncordons(off, at(1802))).as("policy off").isEmpty();
    }
}
