package io.lifeline.demo;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.GpuData;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.NoticeKind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The nodes: they register and become ready, get spot interruption notices and are reclaimed at the
 * deadline, take XID errors, are repaired or replaced, and sample their GPUs. Losses are handed to the
 * {@link Trainer}; new capacity to the {@link Placement}.
 */
final class Fleet {

    /** How long a new node takes from registering to Ready (boot, GPU operator, device plugin). */
    private static final double READY_MIN_S = 30;

    private static final double READY_MAX_S = 75;
    /** When no spot node can be interrupted now, look again this much later. */
    private static final long RETRY_MS = 60_000;

    private final SimContext ctx;
    final List<PoolState> pools = new ArrayList<>();
    /** Every node not terminated, for uniform random picks without scans. */
    private final List<SimNode> live = new ArrayList<>();

    private final Map<String, SimNode> byName = new HashMap<>();
    private final GpuTelemetry telemetry;

    Fleet(SimContext ctx) {
        this.ctx = ctx;
        for (Scenario.Pool p : ctx.scenario.pools()) {
            pools.add(new PoolState(p));
        }
        this.telemetry = new GpuTelemetry(ctx);
    }

    /** A node that is not terminated, or null. */
    SimNode node(String name) {
        return byName.get(name);
    }

    PoolState pool(String name) {
        for (PoolState p : pools) {
            if (p.spec.name().equals(name)) {
                return p;
            }
        }
        throw new IllegalArgumentException("no pool " + name);
    }

    /** Brings up the initial fleet (already running when the demo starts) and arms the fault processes. */
    void start() {
        for (PoolState p : pools) {
            for (int i = 0; i < p.spec.nodeCount(); i++) {
                SimNode n = register(p);
                makeReady(n);
            }
        }
        scheduleNextXid();
        Long first = ctx.scenario.firstNoticeAfterSeconds();
        if (first != null) {
            // The scripted notice is the first: the random ones start with it.
            ctx.agenda.after(first * 1000, () -> {
                scriptedNotice();
                pools.forEach(this::scheduleNextNotice);
            });
        } else {
            pools.forEach(this::scheduleNextNotice);
        }
    }

    private SimNode register(PoolState p) {
        String name = p.nextNodeName();
        SimNode n = new SimNode(name, p, providerId(p, name), ctx.rng);
        p.live.add(n);
        live.add(n);
        byName.put(name, n);
        ctx.emit(
                Emitter.CLOUD,
                EventType.NODE_REGISTERED,
                name,
                new NodeData.Registered(
                        p.spec.poolLabel(),
                        p.spec.capacityType(),
                        p.spec.zone(),
                        p.spec.instanceType(),
                        p.spec.gpusPerNode(),
                        n.providerId));
        long interval = ctx.scenario.telemetryIntervalSeconds() * 1000;
        long firstSample = ctx.now() + (long) ctx.rng.uniform(0, interval);
        ctx.agenda.at(firstSample, () -> sampleLoop(n, interval));
        return n;
    }

    private String providerId(PoolState p, String name) {
        String provider = p.spec.provider();
        if ("aws".equals(provider)) {
            return "aws:///" + p.spec.zone() + "/i-0" + ctx.rng.hex(16);
        }
        if ("gcp".equals(provider)) {
            return "gce://lifeline-demo/" + p.spec.zone() + "/" + name;
        }
        return "azure:///subscriptions/" + ctx.rng.hex(8) + "/virtualMachines/" + name;
    }

    private void makeReady(SimNode n) {
        n.moveTo(NodePhase.READY);
        ctx.emit(Emitter.KUBELET, EventType.NODE_READY, n.name, new NodeData.Ready());
        n.pool.refresh(n);
        ctx.placement.capacityChanged();
    }

    private void sampleLoop(SimNode n, long interval) {
        if (n.phase == NodePhase.TERMINATED) {
            return;
        }
        if (n.phase != NodePhase.REGISTERED && n.phase != NodePhase.NOT_READY) {
            telemetry.sample(n);
        }
        ctx.agenda.after(interval, () -> sampleLoop(n, interval));
    }

    // ------------------------------------------------------------------ spot interruptions

    private void scheduleNextNotice(PoolState p) {
        double perNodeHour = p.spec.interruptionsPerNodeHour();
        if (p.spec.capacityType() != CapacityType.SPOT || perNodeHour <= 0) {
            return;
        }
        int candidates = p.live.size();
        if (candidates == 0) {
            ctx.agenda.after(RETRY_MS, () -> scheduleNextNotice(p));
            return;
        }
        ctx.agenda.after(ctx.rng.exponentialMillis(perNodeHour * candidates), () -> {
            List<SimNode> ready = new ArrayList<>();
            for (SimNode n : p.live) {
                if (n.phase == NodePhase.READY) {
                    ready.add(n);
                }
            }
            if (!ready.isEmpty()) {
                notice(ctx.rng.pick(ready));
            }
            scheduleNextNotice(p);
        });
    }

    /**
     * The demo's first interruption: a spot node of a job that trains (so its loss throws away steps and the notice
     * gives something to save), else of a job whose workers run, else any ready spot node.
     */
    private void scriptedNotice() {
        List<SimNode> training = new ArrayList<>();
        List<SimNode> busy = new ArrayList<>();
        List<SimNode> any = new ArrayList<>();
        for (PoolState p : pools) {
            if (p.spec.capacityType() != CapacityType.SPOT) {
                continue;
            }
            for (SimNode n : p.live) {
                if (n.phase == NodePhase.READY) {
                    any.add(n);
                    if (n.inWorld && n.job.phase.workersAlive()) {
                        busy.add(n);
                        if (n.job.phase == JobPhase.RUNNING) {
                            training.add(n);
                        }
                    }
                }
            }
        }
        List<SimNode> from = !training.isEmpty() ? training : !busy.isEmpty() ? busy : any;
        if (!from.isEmpty()) {
            notice(ctx.rng.pick(from));
        }
    }

    void notice(SimNode n) {
        n.moveTo(NodePhase.NOTICED);
        n.pool.refresh(n);
        long deadline = ctx.now() + n.pool.spec.noticeSeconds() * 1000;
        // The cloud reclaims spot capacity; an on-demand instance it takes away is retired for maintenance.
        NoticeKind kind =
                n.pool.spec.capacityType() == CapacityType.SPOT ? NoticeKind.SPOT_RECLAIM : NoticeKind.MAINTENANCE;
        ctx.emit(
                Emitter.CLOUD,
                EventType.NODE_INTERRUPTION_NOTICE,
                n.name,
                new NodeData.InterruptionNotice(
                        kind, n.pool.spec.provider(), Instant.ofEpochMilli(ctx.emitter.stamp(deadline))));
        ctx.agenda.after(ctx.rng.millisBetween(0.5, 3), () -> {
            n.cordoned = true;
            ctx.emit(
                    Emitter.TERMINATION_HANDLER,
                    EventType.NODE_CORDONED,
                    n.name,
                    new NodeData.Cordoned(terminationHandler(n.pool)));
        });
        ctx.agenda.at(deadline, () -> terminate(n));
    }

    private static String terminationHandler(PoolState p) {
        return switch (p.spec.provider()) {
            case "aws" -> "aws-node-termination-handler";
            case "gcp" -> "gke-node-termination-handler";
            default -> "azure-scheduled-events";
        };
    }

    private void terminate(SimNode n) {
        SimJob job = n.job;
        n.moveTo(NodePhase.TERMINATED);
        n.pool.refresh(n);
        n.pool.live.remove(n);
        live.remove(n);
        byName.remove(n.name);
        ctx.emit(Emitter.CLOUD, EventType.NODE_TERMINATED, n.name, new NodeData.Terminated("spot instance reclaimed"));
        if (job != null) {
            int pid = 1000 + ctx.rng.nextInt(60_000);
            ctx.trainer.nodeLost(
                    job,
                    n,
                    -15,
                    "Signal 15 (SIGTERM) received by PID " + pid,
                    "node " + n.name + " terminated (spot reclaim)");
        }
        PoolState p = n.pool;
        long delay = (long) (ctx.rng.jitter(ctx.scenario.replacementDelaySeconds(), 0.2) * 1000);
        ctx.agenda.after(delay, () -> {
            SimNode replacement = register(p);
            ctx.agenda.after(ctx.rng.millisBetween(READY_MIN_S, READY_MAX_S), () -> makeReady(replacement));
        });
    }

    // ------------------------------------------------------------------ XID errors

    private void scheduleNextXid() {
        double rate = ctx.scenario.xidRatePerNodeHour();
        if (rate <= 0) {
            return;
        }
        int nodes = Math.max(1, live.size());
        ctx.agenda.after(ctx.rng.exponentialMillis(rate * nodes), () -> {
            for (int attempt = 0; attempt < 8 && !live.isEmpty(); attempt++) {
                SimNode n = live.get(ctx.rng.nextInt(live.size()));
                if (n.phase == NodePhase.READY) {
                    xid(n);
                    break;
                }
            }
            scheduleNextXid();
        });
    }

    private void xid(SimNode n) {
        boolean fatal = ctx.rng.chance(ctx.scenario.fatalXidFraction());
        XidCatalog.Xid x = ctx.rng.pick(fatal ? XidCatalog.FATAL : XidCatalog.BENIGN);
        int gpu = ctx.rng.nextInt(n.uuids.length);
        injectXid(n, gpu, x);
    }

    /** Reports an XID on one GPU of a node and applies its effect to the node and the job on it. */
    void injectXid(SimNode n, int gpu, XidCatalog.Xid x) {
        n.lastXid[gpu] = x.code();
        if (XidCatalog.countsAsDbe(x.code())) {
            n.dbe[gpu]++;
        }
        ctx.emit(Emitter.DCGM, EventType.GPU_XID, n.name, new GpuData.Xid(n.uuids[gpu], gpu, x.code(), x.message()));
        SimJob job = n.job;
        switch (x.effect()) {
            case BENIGN -> {}
            case RESTART_APP -> {
                if (job != null && n.inWorld && gpu < job.spec.procsPerNode() && job.phase.workersAlive()) {
                    ctx.trainer.rankCrashed(job, n, gpu, x.error(), "XID " + x.code() + " on " + n.name);
                }
            }
            case NODE_DOWN -> {
                n.moveTo(NodePhase.NOT_READY);
                n.pool.refresh(n);
                ctx.emit(
                        Emitter.KUBELET,
                        EventType.NODE_NOT_READY,
                        n.name,
                        new NodeData.NotReady("XID " + x.code() + " on GPU " + gpu + ": " + x.message()));
                if (job != null) {
                    ctx.trainer.nodeLost(job, n, 1, x.error(), "XID " + x.code() + " on " + n.name);
                }
                long repair = (long) (ctx.rng.jitter(ctx.scenario.nodeRepairSeconds(), 0.2) * 1000);
                ctx.agenda.after(repair, () -> repaired(n));
            }
            default -> throw new IllegalStateException(x.effect().name());
        }
    }

    private void repaired(SimNode n) {
        // A GPU reset or reboot clears the volatile ECC counters; the exporter's last XID stays.
        Arrays.fill(n.dbe, 0);
        makeReady(n);
    }
}
