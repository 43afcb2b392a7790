package io.lifeline.testing;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventData;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.GpuData;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.NoticeKind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The seeded fleet whose reliability is counted by hand (see {@code ReliabilityHandCountTest}), as catalogue events
 * from a start {@code t0}, for the core's test and for the tests of the page and the API that feed it through the
 * running application. "Now" is ten days after {@code t0}; the figures below hold then (nodes still in service gain
 * the time after it).
 *
 * <pre>
 * pool a100-spot (spot, us-east-1a, p4d.24xlarge)
 *   s1  registered 0, spot notice at day 1, not ready +100 s and terminated +120 s (the announced outage: one
 *       interruption)                                                      86,520 s in service, 1 interruption
 *   s2  registered 0, not ready at day 2 (ready 10 min later), XID 79 at day 3     864,000 s, 2 interruptions
 *   s3  registered at day 5                                                          432,000 s, 0
 *   s4  registered 0, terminated unannounced at day 4                               345,600 s, 1
 *   total 1,728,120 s = 480.0333 node-hours, 4 interruptions: MTBF 120.0083 h
 * pool h100-od (on-demand, us-east-1b, p5.48xlarge)
 *   o1  registered 0                                                                864,000 s, 0
 *   o2  registered 0, not ready at days 1..5 (ready 10 min after each)             864,000 s, 5
 *   total 1,728,000 s = 480 node-hours, 5 interruptions: MTBF 96 h
 * </pre>
 *
 * Names carry a {@code tag} ({@code "s1" + tag}, {@code "a100-spot" + tag}), so a running application can hold the
 * fleet beside other tests' nodes.
 */
public final class HandCountedFleet {

    public static final long DAY = 86_400;
    public static final String SPOT_POOL = "a100-spot";
    public static final String ON_DEMAND_POOL = "h100-od";
    /** Node-seconds in service of the spot pool ten days after {@code t0}. */
    public static final long SPOT_NODE_SECONDS = 1_728_120;

    public static final int SPOT_INTERRUPTIONS = 4;
    public static final long ON_DEMAND_NODE_SECONDS = 1_728_000;
    public static final int ON_DEMAND_INTERRUPTIONS = 5;
    public static final double SPOT_MTBF_HOURS = SPOT_NODE_SECONDS / 3600.0 / SPOT_INTERRUPTIONS;
    public static final double ON_DEMAND_MTBF_HOURS = ON_DEMAND_NODE_SECONDS / 3600.0 / ON_DEMAND_INTERRUPTIONS;

    private static final AtomicLong IDS = new AtomicLong();

    private final Instant t0;
    private final String tag;
    private final List<Event> events = new ArrayList<>();

    private HandCountedFleet(Instant t0, String tag) {
        this.t0 = t0;
        this.tag = tag;
    }

    /** The two hand-counted pools, in the order the core's test applies them. */
    public static List<Event> events(Instant t0, String tag) {
        HandCountedFleet f = new HandCountedFleet(t0, tag);
        String s1 = "s1" + tag;
        String s2 = "s2" + tag;
        String spot = SPOT_POOL + tag;
        f.registered(s1, 0, spot)
                .add(s1, 10, EventType.NODE_READY, new NodeData.Ready())
                .add(
                        s1,
                        DAY,
                        EventType.NODE_INTERRUPTION_NOTICE,
                        new NodeData.InterruptionNotice(NoticeKind.SPOT_RECLAIM, "aws", f.at(DAY + 120)))
                .notReady(s1, DAY + 100)
                .terminated(s1, DAY + 120);
        f.registered(s2, 0, spot)
                .add(s2, 10, EventType.NODE_READY, new NodeData.Ready())
                .notReady(s2, 2 * DAY)
                .ready(s2, 2 * DAY + 600)
                .add(s2, 3 * DAY, EventType.GPU_XID, new GpuData.Xid(uuid(s2, 0), 0, 79, null));
        f.registered("s3" + tag, 5 * DAY, spot);
        f.registered("s4" + tag, 0, spot).terminated("s4" + tag, 4 * DAY);
        String o1 = "o1" + tag;
        String o2 = "o2" + tag;
        f.onDemand(o1).onDemand(o2);
        for (int d = 1; d <= 5; d++) {
            f.notReady(o2, d * DAY).ready(o2, d * DAY + 600);
        }
        return List.copyOf(f.events);
    }

    /**
     * Ten nodes of {@code pool} ({@code prefix + 0..9}) for ten days (240 h each): eight with one interruption, one
     * with three, one ({@code prefix + 9}) with eight, a lemon: the rest of the pool had 11 over 2,160 h, 1.222
     * expected, P(X ≥ 8) ≈ 4e-5.
     */
    public static List<Event> lemonPool(Instant t0, String pool, String prefix) {
        HandCountedFleet f = new HandCountedFleet(t0, "");
        for (int i = 0; i < 10; i++) {
            f.registered(prefix + i, 0, pool);
        }
        for (int i = 0; i < 8; i++) {
            f.notReady(prefix + i, DAY + i).ready(prefix + i, DAY + i + 60);
        }
        for (int d = 1; d <= 3; d++) {
            f.notReady(prefix + 8, d * DAY).ready(prefix + 8, d * DAY + 60);
        }
        for (int d = 1; d <= 8; d++) {
            f.notReady(prefix + 9, d * DAY).ready(prefix + 9, d * DAY + 60);
        }
        return List.copyOf(f.events);
    }

    private Instant at(long seconds) {
        return t0.plusSeconds(seconds);
    }

    private HandCountedFleet add(String node, long seconds, EventType type, EventData data) {
        events.add(new Event("hc-" + IDS.incrementAndGet() + tag, "test://fleet", type, node, at(seconds), data));
        return this;
    }

    private HandCountedFleet registered(String node, long seconds, String pool) {
        return add(
                node,
                seconds,
                EventType.NODE_REGISTERED,
                new NodeData.Registered(
                        pool, CapacityType.SPOT, "us-east-1a", "p4d.24xlarge", 8, "aws:///us-east-1a/i-0abc"));
    }

    private HandCountedFleet onDemand(String node) {
        return add(
                node,
                0,
                EventType.NODE_REGISTERED,
                new NodeData.Registered(
                        ON_DEMAND_POOL + tag,
                        CapacityType.ON_DEMAND,
                        "us-east-1b",
                        "p5.48xlarge",
                        8,
                        "aws:///us-east-1b/" + node));
    }

    private HandCountedFleet ready(String node, long seconds) {
        return add(node, seconds, EventType.NODE_READY, new NodeData.Ready());
    }

    private HandCountedFleet notReady(String node, long seconds) {
        return add(node, seconds, EventType.NODE_NOT_READY, new NodeData.NotReady("KubeletNotReady"));
    }

    private HandCountedFleet terminated(String node, long seconds) {
        return add(node, seconds, EventType.NODE_TERMINATED, new NodeData.Terminated("spot reclaimed"));
    }

    /** A well-formed GPU UUID per node and index. */
    private static String uuid(String node, int index) {
        String h = Long.toHexString(0x1_0000_0000L | ((node.hashCode() * 31L + index) & 0xffffffffL))
                .substring(1);
        String i = Long.toString(1_000_000_000_000L + index).substring(1);
        return "GPU-" + h + "-0000-0000-0000-" + i;
    }
}
