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
import io.lifeline.domain.job.Jobs;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A DRA device taint's removal as the validation of back-to-service, when configured. */
class BackToServiceTaintTest {

    private static final Instant T0 = Instant.parse("2026-05-15T15:00:00Z");
    private static final String N = "gpu-node-7";
    private final Fleet fleet = new Fleet(Clock.fixed(T0, ZoneOffset.UTC));
    private final Jobs jobs = new Jobs(fleet, Clock.fixed(T0, ZoneOffset.UTC));
    private long ids;

    private static Instant at(long seconds) {
        return T0.plusSeconds(seconds);
    }

    private void apply(EventType type, Instant t, EventData data) {
        fleet.apply(new Event("e-" + ++ids, "test://fleet", type, N, t, data));
    }

    private void taint(Instant t, int gpu, String state, String detail) {
        apply(
                EventType.GPU_DEVICE_HEALTH,
                t,
                new GpuData.DeviceHealth(
                        "GPU-" + gpu,
                        -1,
                        GpuData.DeviceHealth.DRA_TAINT,
                        "gpu.nvidia.com/" + N + "/gpu-" + gpu,
                        state,
                        detail));
    }

    private PolicyEngine engine(boolean acceptTaintRemoval) {
        PolicyEngine e = new PolicyEngine(PolicySettings.allOff()
                .with(PolicyName.BACK_TO_SERVICE, new PolicySettings.Entry(PolicyMode.ON, Map.of())));
        e.backToService(new BackToService.Settings(
                BackToService.Check.HEALTH_CHECK, Duration.ofMinutes(10), Duration.ofMinutes(2), acceptTaintRemoval));
        return e;
    }

    private List<PolicyDecision> uncordons(PolicyEngine e, Instant now) {
        return e.periodic(jobs, fleet, now).stream()
                .filter(d -> d.policy() == PolicyName.BACK_TO_SERVICE)
                .toList();
    }

    /** Two GPUs, GPU 0 tainted by the DRA driver for XID 79 at 60 s, the node drained at 61 s. */
    private void drainedForTaint() {
        apply(
                EventType.NODE_REGISTERED,
                T0,
                new NodeData.Registered("h100", CapacityType.ON_DEMAND, "z", "p5", 2, null));
        apply(EventType.NODE_READY, at(1), new NodeData.Ready());
        for (int i = 0; i < 2; i++) {
            apply(
                    EventType.GPU_SAMPLE,
                    at(10),
                    new GpuData.Sample(
                            "GPU-" + i, i, "H100", 0.0, 1.0, 1.0, 40.0, 60.0, 0L, 0L, 0L, 0L, null, null, null));
        }
        taint(at(60), 0, "NoSchedule", "gpu.nvidia.com/xid=79:NoSchedule");
        fleet.markDraining(N, at(61));
        apply(EventType.NODE_CORDONED, at(61), new NodeData.Cordoned("lifeline"));
    }

    @Test
    void theTaintsRemovalReturnsTheNodeWhenAccepted() {
        PolicyEngine e = engine(true);
        drainedForTaint();
        assertThat(uncordons(e, at(100))).as("still tainted").isEmpty();
        taint(at(200), 1, "NoSchedule", "gpu.nvidia.com/gpu-lost:NoSchedule");
        taint(at(300), 0, "Healthy", null);
        assertThat(uncordons(e, at(310))).as("GPU 1 is still tainted").isEmpty();
        taint(at(400), 1, "Healthy", null);
        assertThat(uncordons(e, at(410))).singleElement().satisfies(d -> {
            assertThat(d.request().kind()).isEqualTo(ActionKind.UNCORDON);
            assertThat(d.request().reason())
                    .contains(
                            "drained " + at(61) + " for DRA device taint on GPU 0 since " + at(60),
                            "DRA device taint removed from GPU 1 (gpu.nvidia.com/" + N + "/gpu-1) at " + at(400));
        });
    }

    @Test
    void aKubeletUnhealthyGpuKeepsTheNodeOut() {
        PolicyEngine e = engine(true);
        drainedForTaint();
        apply(
                EventType.GPU_DEVICE_HEALTH,
                at(250),
                new GpuData.DeviceHealth("GPU-1", -1, GpuData.DeviceHealth.KUBELET, "GPU-1", "Unhealthy", null));
        taint(at(300), 0, "Healthy", null);
        assertThat(uncordons(e, at(310))).isEmpty();
    }

    @Test
    void withoutTheSettingTheRemovalValidatesNothing() {
        PolicyEngine e = engine(false);
        drainedForTaint();
        taint(at(300), 0, "Healthy", null);
        assertThat(uncordons(e, at(310))).isEmpty();
    }

    @Test
    void aRemovalBeforeTheDrainDoesNotCount() {
        PolicyEngine e = engine(true);
        apply(
                EventType.NODE_REGISTERED,
                T0,
                new NodeData.Registered("h100", CapacityType.ON_DEMAND, "z", "p5", 2, null));
        apply(EventType.NODE_READY, at(1), new NodeData.Ready());
        taint(at(60), 0, "NoSchedule", "gpu.nvidia.com/xid=79:NoSchedule");
        taint(at(70), 0, "Healthy", null);
        fleet.markDraining(N, at(80));
        apply(EventType.NODE_CORDONED, at(80), new NodeData.Cordoned("lifeline"));
        assertThat(uncordons(e, at(100))).isEmpty();
    }
}
