package io.lifeline.domain.fleet;

import static io.lifeline.domain.fleet.FleetEvents.T0;
import static io.lifeline.domain.fleet.FleetEvents.at;
import static io.lifeline.domain.fleet.FleetEvents.event;
import static io.lifeline.domain.fleet.FleetEvents.healthy;
import static io.lifeline.domain.fleet.FleetEvents.ready;
import static io.lifeline.domain.fleet.FleetEvents.registered;
import static io.lifeline.domain.fleet.FleetEvents.uuid;
import static io.lifeline.domain.fleet.FleetEvents.xid;
import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.ApplyOutcome;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.GpuData;
import io.lifeline.domain.event.NotAppliedReason;
import io.lifeline.domain.gpu.GpuHealth;
import io.lifeline.domain.gpu.GpuView;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What Kubernetes says of a GPU as a device becomes its verdict, beside dcgm and XIDs, naming its source. */
class DeviceHealthVerdictTest {

    private static final String NODE = "gpu-node-7";
    private Fleet fleet;

    @BeforeEach
    void fleet() {
        fleet = new Fleet(Clock.fixed(T0.plusSeconds(3600), ZoneOffset.UTC));
        fleet.apply(registered(NODE, T0));
        fleet.apply(ready(NODE, at(1)));
        fleet.apply(healthy(NODE, 0).at(at(2)));
        fleet.apply(healthy(NODE, 1).at(at(2)));
    }

    private NodeChange report(Instant t, String uuid, int index, String source, String state, String detail) {
        return fleet.change(event(
                EventType.GPU_DEVICE_HEALTH,
                NODE,
                t,
                new GpuData.DeviceHealth(uuid, index, source, "dev", state, detail)));
    }

    private GpuView gpu(int index) {
        return fleet.node(NODE).orElseThrow().gpus().get(index);
    }

    @Test
    void theKubeletsUnhealthyFailsTheGpuAndSaysSoUntilItIsHealthyAgain() {
        NodeChange c = report(at(10), uuid(NODE, 0), -1, GpuData.DeviceHealth.KUBELET, "Unhealthy", "ECC");
        assertThat(c.outcome()).isEqualTo(ApplyOutcome.CHANGED);
        assertThat(c.signals()).singleElement().satisfies(s -> {
            assertThat(s.kind()).isEqualTo(NodeSignal.Kind.GPU_FAILED);
            assertThat(s.detail()).contains("kubelet reports device dev Unhealthy (ECC)");
        });
        assertThat(gpu(0).health()).isEqualTo(GpuHealth.FAILED);
        assertThat(gpu(0).source()).isEqualTo("kubelet");
        assertThat(gpu(0).device().kubelet()).isEqualTo("Unhealthy");
        assertThat(gpu(1).health()).isEqualTo(GpuHealth.HEALTHY);
        assertThat(gpu(1).source()).isNull();

        assertThat(report(at(11), uuid(NODE, 0), -1, GpuData.DeviceHealth.KUBELET, "Unhealthy", "ECC")
                        .outcome())
                .isEqualTo(ApplyOutcome.UNCHANGED);
        assertThat(report(at(5), uuid(NODE, 0), -1, GpuData.DeviceHealth.KUBELET, "Healthy", null)
                        .outcome()
                        .reason())
                .isEqualTo(NotAppliedReason.STALE);
        report(at(20), uuid(NODE, 0), -1, GpuData.DeviceHealth.KUBELET, "Healthy", null);
        assertThat(gpu(0).health()).isEqualTo(GpuHealth.HEALTHY);
    }

    @Test
    void unknownIsNoFinding() {
        report(at(10), uuid(NODE, 1), -1, GpuData.DeviceHealth.KUBELET, "Unknown", "plugin unregistered");
        assertThat(gpu(1).health()).isEqualTo(GpuHealth.HEALTHY);
        assertThat(gpu(1).device().kubelet()).isEqualTo("Unknown");
    }

    @Test
    void aBlockingTaintFailsTheGpuANoneTaintDegradesItAndItsRemovalIsRemembered() {
        report(at(10), uuid(NODE, 1), -1, GpuData.DeviceHealth.DRA_TAINT, "None", "gpu.nvidia.com/unmonitored:None");
        assertThat(gpu(1).health()).isEqualTo(GpuHealth.DEGRADED);
        assertThat(gpu(1).source()).isEqualTo("dra-taint");

        NodeChange c = report(
                at(20),
                uuid(NODE, 1),
                -1,
                GpuData.DeviceHealth.DRA_TAINT,
                "NoSchedule",
                "gpu.nvidia.com/xid=79:NoSchedule");
        assertThat(c.signals()).singleElement().extracting(NodeSignal::kind).isEqualTo(NodeSignal.Kind.GPU_FAILED);
        assertThat(gpu(1).health()).isEqualTo(GpuHealth.FAILED);
        assertThat(gpu(1).reason()).contains("gpu.nvidia.com/xid=79:NoSchedule");
        assertThat(gpu(1).device().taintedSince()).isEqualTo(at(10));

        report(at(30), uuid(NODE, 1), -1, GpuData.DeviceHealth.DRA_TAINT, "Healthy", null);
        assertThat(gpu(1).health()).isEqualTo(GpuHealth.HEALTHY);
        assertThat(gpu(1).device().taint()).isNull();
        assertThat(gpu(1).device().untaintedAt()).isEqualTo(at(30));
    }

    @Test
    void anXidComesFirstAndNamesItsOwnSource() {
        fleet.apply(xid(NODE, at(5), 0, 79));
        report(
                at(10),
                uuid(NODE, 0),
                -1,
                GpuData.DeviceHealth.DRA_TAINT,
                "NoSchedule",
                "gpu.nvidia.com/xid=79:NoSchedule");
        assertThat(gpu(0).health()).isEqualTo(GpuHealth.FAILED);
        assertThat(gpu(0).source()).isEqualTo("xid");
    }

    @Test
    void aGpuIsFoundByIndexWhenTheSourceGivesNoUuidAndADeviceNoGpuMatchesIsNotApplied() {
        report(at(10), null, 1, GpuData.DeviceHealth.KUBELET, "Unhealthy", null);
        assertThat(gpu(1).health()).isEqualTo(GpuHealth.FAILED);

        NodeChange unknown =
                report(at(10), "GPU-not-on-this-node", -1, GpuData.DeviceHealth.KUBELET, "Unhealthy", null);
        assertThat(unknown.outcome().reason()).isEqualTo(NotAppliedReason.UNKNOWN_GPU);
        NodeChange beyond = report(at(10), null, 5, GpuData.DeviceHealth.KUBELET, "Unhealthy", null);
        assertThat(beyond.outcome().reason()).isEqualTo(NotAppliedReason.UNKNOWN_GPU);
    }

    @Test
    void aGpuFirstNamedByKubernetesWithAnIndexWithinTheRegisteredCountIsTaken() {
        report(at(10), "GPU-new", 3, GpuData.DeviceHealth.DRA_TAINT, "NoExecute", "k=v:NoExecute");
        GpuView g = fleet.node(NODE).orElseThrow().gpus().stream()
                .filter(v -> v.index() == 3)
                .findFirst()
                .orElseThrow();
        assertThat(g.uuid()).isEqualTo("GPU-new");
        assertThat(g.health()).isEqualTo(GpuHealth.FAILED);
    }

    @Test
    void deviceReportsSurviveACheckpointOfTheModel() {
        report(
                at(10),
                uuid(NODE, 1),
                -1,
                GpuData.DeviceHealth.DRA_TAINT,
                "NoSchedule",
                "gpu.nvidia.com/gpu-lost:NoSchedule");
        report(at(11), uuid(NODE, 0), -1, GpuData.DeviceHealth.KUBELET, "Unknown", null);
        Fleet copy = new Fleet(Clock.fixed(T0.plusSeconds(3600), ZoneOffset.UTC));
        copy.restore(fleet.save());
        assertThat(copy.node(NODE).orElseThrow().gpus())
                .isEqualTo(fleet.node(NODE).orElseThrow().gpus());
        // The restored registers go on deciding: a stale report is still stale, a removal still clears.
        assertThat(copy.change(event(
                                EventType.GPU_DEVICE_HEALTH,
                                NODE,
                                at(9),
                                new GpuData.DeviceHealth(
                                        uuid(NODE, 1), -1, GpuData.DeviceHealth.DRA_TAINT, "d", "Healthy", null)))
                        .outcome()
                        .reason())
                .isEqualTo(NotAppliedReason.STALE);
    }
}
