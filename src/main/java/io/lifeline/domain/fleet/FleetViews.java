package io.lifeline.domain.fleet;

import io.lifeline.domain.gpu.GpuHealthRules;
import io.lifeline.domain.gpu.GpuState;
import io.lifeline.domain.gpu.GpuView;
import io.lifeline.domain.gpu.XidOccurrence;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Builds immutable views of a node's state. */
final class FleetViews {

    /** The reason a terminated node's GPUs give instead of a verdict. */
    static final String GONE = "gone: the node is terminated";

    private final FleetSettings settings;
    private final GpuHealthRules rules;

    FleetViews(FleetSettings settings, GpuHealthRules rules) {
        this.settings = settings;
        this.rules = rules;
    }

    NodeSummary summary(NodeState n) {
        NodeInfo f = n.facts();
        long now = settings.clock().millis();
        boolean pending = n.noticePending();
        return new NodeSummary(
                n.name,
                f == null ? null : f.pool(),
                f == null ? null : f.capacityType(),
                f == null ? null : f.zone(),
                f == null ? null : f.instanceType(),
                n.gpuCount(),
                n.state,
                instant(n.stateSince),
                n.cordoned,
                pending && !n.noticeExpired(now),
                pending && n.noticeExpired(now),
                n.health(),
                lemon(n).interruptions());
    }

    /** The row of a node whose detail was just built: the same values as {@link #summary(NodeState)}, less work. */
    static NodeSummary summary(NodeDetail d) {
        NodeInfo f = d.facts();
        return new NodeSummary(
                d.name(),
                f == null ? null : f.pool(),
                f == null ? null : f.capacityType(),
                f == null ? null : f.zone(),
                f == null ? null : f.instanceType(),
                d.gpuCount(),
                d.state(),
                d.stateSince(),
                d.cordoned(),
                d.noticeActive(),
                d.noticeExpired(),
                d.health(),
                d.lemon().interruptions());
    }

    NodeDetail detail(NodeState n) {
        List<GpuView> gpus = new ArrayList<>();
        List<XidOccurrence> xids = new ArrayList<>();
        for (GpuState g : n.gpus) {
            if (g != null) {
                gpus.add(view(n, g));
                xids.addAll(g.xids(rules.policy()));
            }
        }
        xids.sort(Comparator.comparing(XidOccurrence::time));
        long now = settings.clock().millis();
        boolean pending = n.noticePending();
        return new NodeDetail(
                n.name,
                n.facts(),
                n.state,
                instant(n.stateSince),
                n.cordoned,
                instant(n.cordonSince),
                notice(n, now),
                pending && !n.noticeExpired(now),
                pending && n.noticeExpired(now),
                n.health(),
                n.gpuCount(),
                gpus,
                xids,
                lemon(n));
    }

    void addGpus(NodeState n, List<GpuView> out) {
        for (GpuState g : n.gpus) {
            if (g != null) {
                out.add(view(n, g));
            }
        }
    }

    /**
     * One GPU as every view shows it. A terminated node's GPUs are gone: no verdict (its last one would read as a live
     * "healthy"), no live values; what identifies them, their error counters and their pod stay, as history.
     */
    private GpuView view(NodeState n, GpuState g) {
        GpuView v = g.view(n.name, rules);
        if (n.state != NodeLifecycle.TERMINATED) {
            return v;
        }
        return new GpuView(
                v.node(),
                v.uuid(),
                v.index(),
                v.model(),
                v.sampledAt(),
                null,
                null,
                null,
                null,
                null,
                v.eccSbeVolatile(),
                v.eccDbeVolatile(),
                v.rowRemapFailures(),
                v.nvlinkErrors(),
                v.lastXid(),
                v.pod(),
                v.namespace(),
                null,
                GONE,
                null,
                v.device());
    }

    /** The node with its pending notice, as of {@code now}. */
    NodeNotice nodeNotice(NodeState n, long now) {
        NodeInfo f = n.facts();
        return new NodeNotice(
                n.name, f == null ? null : f.pool(), f == null ? null : f.capacityType(), n.state, notice(n, now));
    }

    /** The node's latest notice of its current life, or null; expired when its deadline has passed at {@code now}. */
    static Notice notice(NodeState n, long now) {
        if (n.noticeKind == null) {
            return null;
        }
        return new Notice(
                n.noticeKind,
                n.noticeProvider,
                instant(n.noticeDeadline),
                instant(n.noticeReceived),
                instant(n.noticeWindowEnd),
                n.noticeExpired(now));
    }

    LemonScore lemon(NodeState n) {
        if (n.lemon == null) {
            return new LemonScore(0, settings.lemonWindow(), null);
        }
        long from = settings.clock().instant().minus(settings.lemonWindow()).toEpochMilli();
        return new LemonScore(n.lemon.countSince(from), settings.lemonWindow(), instant(n.lemon.latest()));
    }

    static Instant instant(long millis) {
        return millis == NodeState.NEVER ? null : Instant.ofEpochMilli(millis);
    }
}
