package io.lifeline.domain.fleet;

import io.lifeline.domain.gpu.GpuHealth;
import io.lifeline.domain.gpu.GpuView;
import io.lifeline.domain.gpu.XidOccurrence;
import java.time.Instant;
import java.util.List;

/**
 * Everything the fleet knows about one node.
 *
 * @param name          node name
 * @param facts         registered facts, null before registration
 * @param state         lifecycle state
 * @param stateSince    when it entered that state, null for UNKNOWN
 * @param cordoned      whether it is unschedulable
 * @param cordonSince   when the cordon flag last changed, null if never
 * @param notice        the latest interruption notice of its current life, null when none
 * @param noticeActive  whether that notice is still pending and its deadline has not passed: the node is at risk
 * @param noticeExpired whether that notice is pending by the events but its deadline has passed: not at risk
 * @param health        worst verdict of its GPUs (of a terminated node: the last one before it went)
 * @param gpuCount      GPUs on the node: as registered (also while no telemetry has arrived), or as many as its
 *                      telemetry shows when that is more
 * @param gpus          its GPUs by index, those telemetry has shown (of a terminated node: gone, without a verdict)
 * @param xidHistory    XIDs of all its GPUs, oldest first (the newest few per GPU)
 * @param lemon         its lemon score
 */
public record NodeDetail(
        String name,
        NodeInfo facts,
        NodeLifecycle state,
        Instant stateSince,
        boolean cordoned,
        Instant cordonSince,
        Notice notice,
        boolean noticeActive,
        boolean noticeExpired,
        GpuHealth health,
        int gpuCount,
        List<GpuView> gpus,
        List<XidOccurrence> xidHistory,
        LemonScore lemon) {

    public NodeDetail {
        gpus = List.copyOf(gpus);
        xidHistory = List.copyOf(xidHistory);
    }

    /** Whether the node is gone: its GPUs have no verdict, and no action (drain, uncordon) applies to it. */
    public boolean terminated() {
        return state == NodeLifecycle.TERMINATED;
    }
}
