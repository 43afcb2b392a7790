package io.lifeline.domain.fleet;

import static io.lifeline.domain.fleet.FleetEvents.at;
import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.GpuData;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.NoticeKind;
import io.lifeline.domain.gpu.XidPolicy;
import io.lifeline.testing.MovableClock;
import java.lang.ref.Reference;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Hot state must stay compact: retained heap per GPU, measured with {@link Runtime} around building a fleet of
 * 16,000 GPUs on 2,000 nodes. The budget is 2 KB per GPU; the assertion allows 4 KB so GC noise cannot make it
 * flaky. Every string in the events is a fresh instance, as a JSON decoder would produce.
 */
class FleetMemoryFootprintTest {

    private static final int NODES = 2_000;
    private static final int GPUS_PER_NODE = 8;
    private static final int GPUS = NODES * GPUS_PER_NODE;
    private static final String[] POOLS = {"a100-spot", "a100-ondemand", "h100-reserved", "h100-spot"};

    @Test
    void retainedHeapPerGpuIsWellUnderTheBudget() {
        XidPolicy.loadDefault(); // shared by every fleet: not part of the per-GPU cost
        long realistic = measure(false);
        long worst = measure(true);
        System.out.printf(
                Locale.ROOT,
                "FleetMemoryFootprint: %d GPUs on %d nodes: %d bytes/GPU realistic, "
                        + "%d bytes/GPU with every GPU's XID history full%n",
                GPUS,
                NODES,
                realistic,
                worst);
        assertThat(realistic).isLessThan(4096);
        assertThat(worst).isLessThan(4096);
    }

    private static long measure(boolean fullXidHistory) {
        long before = usedAfterGc();
        Fleet fleet = new Fleet(new MovableClock(at(3600)));
        try {
            build(fleet, fullXidHistory);
            long after = usedAfterGc();
            assertThat(fleet.gpus()).hasSize(GPUS);
            return (after - before) / GPUS;
        } finally {
            // The fleet stays reachable through the measurement, or the collector could take it early.
            Reference.reachabilityFence(fleet);
        }
    }

    private static void build(Fleet fleet, boolean fullXidHistory) {
        for (int n = 0; n < NODES; n++) {
            String node = "ip-10-" + (n / 250) + "-" + (n % 250) + "-17.ec2.internal";
            String pool = POOLS[n % POOLS.length];
            fleet.apply(FleetEvents.event(
                    EventType.NODE_REGISTERED,
                    new String(node),
                    at(0),
                    new NodeData.Registered(
                            new String(pool),
                            pool.contains("spot") ? CapacityType.SPOT : CapacityType.RESERVED,
                            new String("us-east-1a"),
                            new String("p4d.24xlarge"),
                            GPUS_PER_NODE,
                            "aws:///us-east-1a/i-0" + Integer.toHexString(n))));
            fleet.apply(FleetEvents.ready(new String(node), at(30)));
            if (n % 10 == 0) {
                fleet.apply(FleetEvents.notice(new String(node), at(40), NoticeKind.REBALANCE, null));
            }
            for (int g = 0; g < GPUS_PER_NODE; g++) {
                for (int s = 0; s < 3; s++) {
                    fleet.apply(FleetEvents.sample(new String(node), at(60 + s * 10), sample(node, n, g, s)));
                }
                int xids = fullXidHistory ? 12 : (g == 0 && n % 10 == 0 ? 2 : 0);
                for (int x = 0; x < xids; x++) {
                    fleet.apply(FleetEvents.event(
                            EventType.GPU_XID,
                            new String(node),
                            at(100 + x),
                            new GpuData.Xid(
                                    FleetEvents.uuid(node, g), g, x % 2 == 0 ? 13 : 31, "Graphics Engine Exception")));
                }
            }
        }
    }

    /** Values in the ranges dcgm-exporter reports for a busy 80 GB A100 (utilization, frame buffer, heat, power). */
    private static GpuData.Sample sample(String node, int n, int g, int s) {
        int seed = n * 31 + g * 7 + s;
        return new GpuData.Sample(
                FleetEvents.uuid(node, g),
                g,
                new String("NVIDIA A100-SXM4-80GB"),
                90.0 + seed % 10,
                70_000.0 + seed % 5_000,
                81_920.0 - 70_000.0 - seed % 5_000,
                55.0 + seed % 20,
                280.0 + seed % 120,
                (long) (seed % 3),
                0L,
                0L,
                (long) (seed % 50),
                0,
                "llama-pretrain-worker-" + n,
                new String("research"));
    }

    private static long usedAfterGc() {
        Runtime rt = Runtime.getRuntime();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            used = Math.min(used, rt.totalMemory() - rt.freeMemory());
        }
        return used;
    }
}
