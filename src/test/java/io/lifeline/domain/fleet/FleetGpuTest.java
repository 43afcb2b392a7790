package io.lifeline.domain.fleet;

import static io.lifeline.domain.fleet.FleetEvents.at;
import static io.lifeline.domain.fleet.FleetEvents.healthy;
import static io.lifeline.domain.fleet.FleetEvents.ready;
import static io.lifeline.domain.fleet.FleetEvents.registered;
import static io.lifeline.domain.fleet.FleetEvents.sample;
import static io.lifeline.domain.fleet.FleetEvents.terminated;
import static io.lifeline.domain.fleet.FleetEvents.xid;
import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.GpuData;
import io.lifeline.domain.fleet.NodeSignal.Kind;
import io.lifeline.domain.gpu.GpuHealth;
import io.lifeline.domain.gpu.GpuView;
import io.lifeline.domain.gpu.XidAction;
import io.lifeline.domain.gpu.XidOccurrence;
import io.lifeline.testing.MovableClock;
import java.util.List;
import org.junit.jupiter.api.Test;

/** GPUs inside the fleet: creation, GPU_FAILED signals, views and per-pool counts. */
class FleetGpuTest {

    private static final String N = "ip-10-0-7-17";
    private final Fleet fleet = new Fleet(new MovableClock(at(3600)));

    @Test
    void gpuEventForAnUnknownNodeCreatesTheNodeWithUnknownFacts() {
        assertThat(fleet.apply(healthy(N, 0).at(at(0)))).isEmpty();
        fleet.apply(healthy(N, 1).at(at(0)));
        NodeDetail d = fleet.node(N).orElseThrow();
        assertThat(d.state()).isEqualTo(NodeLifecycle.UNKNOWN);
        assertThat(d.stateSince()).isNull();
        assertThat(d.facts()).isNull();
        assertThat(d.gpus()).extracting(GpuView::index).containsExactly(0, 1);
        assertThat(fleet.find(N)).as("facts unknown until registration").isNull();
        assertThat(fleet.nodes(NodeQuery.all())).singleElement().satisfies(s -> {
            assertThat(s.pool()).isNull();
            assertThat(s.gpuCount()).isEqualTo(2);
        });
    }

    @Test
    void failedGpuIsSignalledOncePerTransition() {
        fleet.apply(registered(N, at(0)));
        fleet.apply(ready(N, at(1)));
        fleet.apply(healthy(N, 3).at(at(10)));
        List<NodeSignal> first = fleet.apply(healthy(N, 3).dbe(2L).at(at(20)));
        assertThat(first).singleElement().satisfies(s -> {
            assertThat(s.kind()).isEqualTo(Kind.GPU_FAILED);
            assertThat(s.node()).isEqualTo(N);
            assertThat(s.time()).isEqualTo(at(20));
            assertThat(s.detail())
                    .isEqualTo("GPU 3 (" + FleetEvents.uuid(N, 3) + "): 2 volatile double-bit ECC error(s)");
        });
        for (int i = 3; i < 10; i++) {
            assertThat(fleet.apply(healthy(N, 3).dbe(2L).at(at(i * 10L)))).isEmpty();
        }
        assertThat(fleet.node(N).orElseThrow().lemon().interruptions()).isEqualTo(1);
    }

    @Test
    void fatalXidSignalsGpuFailedWithThePolicyReason() {
        fleet.apply(registered(N, at(0)));
        List<NodeSignal> s = fleet.apply(xid(N, at(30), 5, 79));
        assertThat(s).extracting(NodeSignal::kind).containsExactly(Kind.GPU_FAILED);
        assertThat(s.get(0).detail()).endsWith("XID 79 (GPU has fallen off the bus): REBOOT");
        assertThat(fleet.apply(xid(N, at(30), 5, 79))).as("duplicate").isEmpty();
        assertThat(fleet.apply(xid(N, at(31), 5, 13))).as("already failed").isEmpty();
    }

    @Test
    void gpuFailingOnATerminatedNodeIsNotSignalled() {
        fleet.apply(registered(N, at(0)));
        fleet.apply(terminated(N, at(10)));
        assertThat(fleet.apply(healthy(N, 0).dbe(1L).at(at(5)))).isEmpty();
        assertThat(fleet.node(N).orElseThrow().gpus().get(0).eccDbeVolatile())
                .as("the sample is kept")
                .isEqualTo(1L);
    }

    @Test
    void aRegisteredNodeCountsItsGpusBeforeAnyTelemetry() {
        fleet.apply(registered(N, at(0), "a100-spot", CapacityType.SPOT, 8));

        assertThat(fleet.node(N).orElseThrow().gpuCount()).isEqualTo(8);
        assertThat(fleet.node(N).orElseThrow().gpus()).isEmpty();
        assertThat(fleet.nodes(NodeQuery.all()))
                .singleElement()
                .satisfies(s -> assertThat(s.gpuCount()).isEqualTo(8));
        assertThat(fleet.snapshot(FleetSnapshot.EMPTY).nodes())
                .singleElement()
                .satisfies(s -> assertThat(s.summary().gpuCount()).isEqualTo(8));

        fleet.apply(healthy(N, 0).at(at(10)));
        assertThat(fleet.node(N).orElseThrow().gpuCount())
                .as("one GPU reported, eight on the node")
                .isEqualTo(8);
        fleet.apply(registered("zero", at(0), "a100-spot", CapacityType.SPOT, 0));
        fleet.apply(healthy("zero", 0).at(at(10)));
        fleet.apply(healthy("zero", 1).at(at(10)));
        assertThat(fleet.node("zero").orElseThrow().gpuCount())
                .as("telemetry shows more than registered")
                .isEqualTo(2);
    }

    @Test
    void aTerminatedNodesGpusAreGoneWithoutAVerdictOrLiveValues() {
        fleet.apply(registered(N, at(0)));
        fleet.apply(ready(N, at(1)));
        fleet.apply(healthy(N, 0).at(at(10)));
        fleet.apply(healthy(N, 1).at(at(10)));
        assertThat(fleet.node(N).orElseThrow().gpus())
                .extracting(GpuView::health)
                .containsExactly(GpuHealth.HEALTHY, GpuHealth.HEALTHY);

        fleet.apply(terminated(N, at(20)));

        NodeDetail d = fleet.node(N).orElseThrow();
        assertThat(d.terminated()).isTrue();
        assertThat(d.gpus()).hasSize(2).allSatisfy(g -> {
            assertThat(g.health()).as("no verdict for a GPU that is gone").isNull();
            assertThat(g.reason()).isEqualTo(FleetViews.GONE);
            assertThat(g.utilizationPercent()).isNull();
            assertThat(g.temperatureCelsius()).isNull();
            assertThat(g.powerWatts()).isNull();
            assertThat(g.uuid()).startsWith("GPU-");
            assertThat(g.eccDbeVolatile()).as("history stays").isZero();
        });
        assertThat(fleet.gpus())
                .as("every view says the same")
                .allSatisfy(g -> assertThat(g.health()).isNull());
        assertThat(fleet.gpuPage(n -> true, GpuHealth.HEALTHY, 0, 10).items()).isEmpty();
        assertThat(fleet.snapshot(FleetSnapshot.EMPTY).nodes())
                .singleElement()
                .satisfies(s -> assertThat(s.detail().gpus())
                        .allSatisfy(g -> assertThat(g.health()).isNull()));

        fleet.apply(registered(N, at(100)));
        fleet.apply(healthy(N, 0).at(at(110)));
        NodeDetail back = fleet.node(N).orElseThrow();
        assertThat(back.terminated()).isFalse();
        assertThat(back.gpus().get(0).health())
                .as("a new life has live GPUs again")
                .isEqualTo(GpuHealth.HEALTHY);
    }

    @Test
    void reRegistrationClearsXidVerdictsButKeepsTheHistory() {
        fleet.apply(registered(N, at(0)));
        fleet.apply(xid(N, at(10), 0, 48));
        fleet.apply(terminated(N, at(20)));
        fleet.apply(registered(N, at(100)));
        NodeDetail d = fleet.node(N).orElseThrow();
        assertThat(d.health()).isEqualTo(GpuHealth.HEALTHY);
        assertThat(d.xidHistory()).extracting(XidOccurrence::xid).containsExactly(48);
        // an XID of the previous life that arrives late does not fail the new one
        assertThat(fleet.apply(xid(N, at(15), 0, 79))).isEmpty();
        assertThat(fleet.node(N).orElseThrow().health()).isEqualTo(GpuHealth.HEALTHY);
    }

    @Test
    void anotherUuidAtTheSameIndexIsANewGpu() {
        fleet.apply(xid(N, at(10), 0, 48));
        GpuData.Sample replaced = new GpuData.Sample(
                "GPU-11111111-2222-3333-4444-555555555555",
                0,
                "NVIDIA H100 80GB HBM3",
                10.0,
                1.0,
                80_000.0,
                40.0,
                90.0,
                0L,
                0L,
                0L,
                0L,
                0,
                null,
                null);
        fleet.apply(sample(N, at(20), replaced));
        GpuView g = fleet.node(N).orElseThrow().gpus().get(0);
        assertThat(g.uuid()).isEqualTo("GPU-11111111-2222-3333-4444-555555555555");
        assertThat(g.health()).isEqualTo(GpuHealth.HEALTHY);
        // a late event about the old GPU does not bring it back
        assertThat(fleet.apply(xid(N, at(15), 0, 79))).isEmpty();
        assertThat(fleet.node(N).orElseThrow().gpus().get(0).uuid()).startsWith("GPU-1111");
    }

    @Test
    void outOfRangeGpuIndexIsIgnored() {
        assertThat(fleet.apply(healthy(N, 64).dbe(1L).at(at(10)))).isEmpty();
        assertThat(fleet.node(N).orElseThrow().gpus()).isEmpty();
    }

    @Test
    void nodeDetailMergesXidHistoryOfAllGpusOldestFirst() {
        fleet.apply(registered(N, at(0)));
        fleet.apply(xid(N, at(30), 1, 31));
        fleet.apply(xid(N, at(10), 0, 13));
        fleet.apply(healthy(N, 2).lastXid(94).at(at(20)));
        NodeDetail d = fleet.node(N).orElseThrow();
        assertThat(d.xidHistory()).extracting(XidOccurrence::xid).containsExactly(13, 94, 31);
        assertThat(d.xidHistory()).extracting(XidOccurrence::gpuIndex).containsExactly(0, 2, 1);
        assertThat(d.xidHistory().get(1).action()).isEqualTo(XidAction.RESTART_APP);
        assertThat(d.health()).isEqualTo(GpuHealth.DEGRADED);
        assertThat(d.gpus())
                .extracting(GpuView::health)
                .containsExactly(GpuHealth.HEALTHY, GpuHealth.HEALTHY, GpuHealth.DEGRADED);
    }

    @Test
    void gpusAreListedByNodeAndIndexWithTheirLatestValues() {
        fleet.apply(healthy("b", 1).at(at(10)));
        fleet.apply(healthy("a", 0).temp(86.0).at(at(10)));
        fleet.apply(healthy("b", 0).at(at(10)));
        fleet.apply(healthy("b", 0).noData().at(at(20)));
        List<GpuView> gpus = fleet.gpus();
        assertThat(gpus).extracting(g -> g.node() + "/" + g.index()).containsExactly("a/0", "b/0", "b/1");
        assertThat(gpus.get(0).health()).isEqualTo(GpuHealth.DEGRADED);
        assertThat(gpus.get(0).reason()).isEqualTo("temperature 86 °C");
        assertThat(gpus.get(1).temperatureCelsius()).as("no data, not zero").isNull();
        assertThat(gpus.get(1).eccDbeVolatile()).as("last known error count").isZero();
        assertThat(gpus.get(2).temperatureCelsius()).isEqualTo(64.0);
        assertThat(gpus.get(2).model()).isEqualTo("NVIDIA A100-SXM4-80GB");
    }

    @Test
    void gpuVerdictsAreCountedPerPool() {
        fleet.apply(registered("s1", at(0), "a100-spot", CapacityType.SPOT, 8));
        fleet.apply(registered("s2", at(0), "a100-spot", CapacityType.SPOT, 8));
        fleet.apply(registered("r1", at(0), "h100-reserved", CapacityType.RESERVED, 8));
        fleet.apply(registered("gone", at(0), "h100-reserved", CapacityType.RESERVED, 8));
        for (int i = 0; i < 4; i++) {
            fleet.apply(healthy("s1", i).at(at(10)));
            fleet.apply(healthy("s2", i).at(at(10)));
            fleet.apply(healthy("r1", i).at(at(10)));
            fleet.apply(healthy("gone", i).at(at(10)));
            fleet.apply(healthy("unregistered", i).at(at(10)));
        }
        fleet.apply(healthy("s1", 0).remapFailures(1L).at(at(20)));
        fleet.apply(healthy("s2", 3).temp(88.0).at(at(20)));
        fleet.apply(xid("r1", at(20), 1, 119));
        fleet.apply(terminated("gone", at(30)));
        assertThat(fleet.gpuHealthByPool())
                .containsExactly(
                        new PoolGpuHealth("a100-spot", 6, 1, 1),
                        new PoolGpuHealth("h100-reserved", 3, 0, 1),
                        new PoolGpuHealth(null, 4, 0, 0));
    }
}
