package io.lifeline.demo;

import io.lifeline.demo.SimOutcome.Kind;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.SchedulerData;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What Lifeline's cluster actions do to the simulated fleet, as the Kubernetes API would do it to a real one:
 * cordon and uncordon a node (no new placements on a cordoned node), evict a job's pod (the job loses the node's
 * ranks and recovers through the simulator's failure path: an elastic job still at or above min re-rendezvous
 * smaller, else it waits for capacity; the steps since its newest checkpoint are lost), set a job's worker count,
 * suspend or resume it, and name the checkpoint its next restore loads. Each call acts at the current simulated
 * time and answers at once.
 */
final class ClusterOps {

    static final String BY = "lifeline";

    private final SimContext ctx;
    private final Map<String, SimJob> jobs;

    ClusterOps(SimContext ctx, Map<String, SimJob> jobs) {
        this.ctx = ctx;
        this.jobs = jobs;
    }

    SimOutcome cordon(String name) {
        SimNode n = ctx.fleet.node(name);
        if (n == null) {
            return SimOutcome.of(Kind.NOT_FOUND, "no node " + name);
        }
        if (n.cordoned) {
            return SimOutcome.of(Kind.NOOP, "node " + name + " already cordoned");
        }
        n.cordoned = true;
        n.pool.refresh(n);
        ctx.emit(Emitter.API_SERVER, EventType.NODE_CORDONED, name, new NodeData.Cordoned(BY));
        return SimOutcome.of(Kind.PATCHED, "node " + name + " cordoned");
    }

    SimOutcome uncordon(String name) {
        SimNode n = ctx.fleet.node(name);
        if (n == null) {
            return SimOutcome.of(Kind.NOT_FOUND, "no node " + name);
        }
        if (!n.cordoned) {
            return SimOutcome.of(Kind.NOOP, "node " + name + " already schedulable");
        }
        n.cordoned = false;
        n.pool.refresh(n);
        ctx.emit(Emitter.API_SERVER, EventType.NODE_UNCORDONED, name, new NodeData.Uncordoned());
        ctx.placement.capacityChanged();
        return SimOutcome.of(Kind.PATCHED, "node " + name + " uncordoned");
    }

    List<SimPod> podsOn(String name) {
        SimNode n = ctx.fleet.node(name);
        if (n == null || n.job == null) {
            return List.of();
        }
        SimJob job = n.job;
        List<SimPod> out = new ArrayList<>(1);
        out.add(new SimPod(job.spec.namespace(), job.podOn(n), job.key, n.name));
        return out;
    }

    SimOutcome evict(String namespace, String pod) {
        for (SimJob job : jobs.values()) {
            if (!job.spec.namespace().equals(namespace)) {
                continue;
            }
            SimNode n = nodeOfPod(job, pod);
            if (n != null) {
                evict(job, n, pod);
                return SimOutcome.of(Kind.EVICTED, "pod " + namespace + "/" + pod + " evicted from " + n.name);
            }
        }
        return SimOutcome.of(Kind.NOT_FOUND, "no pod " + namespace + "/" + pod);
    }

    java.util.Set<String> nodesOfJob(String key) {
        SimJob job = jobs.get(key);
        java.util.Set<String> out = new java.util.TreeSet<>();
        if (job != null) {
            job.world.forEach(n -> out.add(n.name));
            job.reserved.forEach(n -> out.add(n.name));
        }
        return out;
    }

    String jobOfPod(String namespace, String pod) {
        for (SimJob job : jobs.values()) {
            if (job.spec.namespace().equals(namespace) && nodeOfPod(job, pod) != null) {
                return job.key;
            }
        }
        return null;
    }

    private static SimNode nodeOfPod(SimJob job, String pod) {
        for (SimNode n : job.world) {
            if (job.podOn(n).equals(pod)) {
                return n;
            }
        }
        for (SimNode n : job.reserved) {
            if (job.podOn(n).equals(pod)) {
                return n;
            }
        }
        return null;
    }

    private void evict(SimJob job, SimNode n, String pod) {
        ctx.emit(
                Emitter.API_SERVER,
                EventType.POD_EVICTED,
                job.key,
                new SchedulerData.PodEvicted(pod, n.name, "Evicted through the Eviction API"));
        int pid = 1000 + ctx.rng.nextInt(60_000);
        ctx.trainer.nodeLost(
                job,
                n,
                -15,
                "Signal 15 (SIGTERM) received by PID " + pid,
                "pod " + pod + " evicted from node " + n.name);
        ctx.placement.capacityChanged();
    }

    SimOutcome scaleWorkers(String jobKey, int nodes) {
        SimJob job = jobs.get(jobKey);
        if (job == null || job.phase == JobPhase.NEW) {
            return SimOutcome.of(Kind.NOT_FOUND, "no job " + jobKey);
        }
        Scenario.Job s = job.spec;
        if (nodes < s.minNodes() || nodes > s.maxNodes()) {
            return SimOutcome.of(
                    Kind.FAILED,
                    nodes + " workers is outside the elastic bounds " + s.minNodes() + ".." + s.maxNodes());
        }
        if (nodes == job.target) {
            return SimOutcome.of(Kind.NOOP, "job " + jobKey + " already has " + nodes + " workers");
        }
        int before = job.target;
        job.target = nodes;
        while (job.held() > nodes && !job.reserved.isEmpty()) {
            ctx.placement.release(job.reserved.remove(job.reserved.size() - 1));
        }
        if (job.world.size() > nodes) {
            ctx.trainer.workersReduced(job, "membership change: workers set from " + before + " to " + nodes);
        }
        ctx.placement.capacityChanged();
        return SimOutcome.of(Kind.PATCHED, "job " + jobKey + " workers " + before + " -> " + nodes);
    }

    SimOutcome suspend(String jobKey, boolean suspended) {
        SimJob job = jobs.get(jobKey);
        if (job == null || job.phase == JobPhase.NEW) {
            return SimOutcome.of(Kind.NOT_FOUND, "no job " + jobKey);
        }
        return suspended ? suspend(job) : resume(job);
    }

    private SimOutcome suspend(SimJob job) {
        switch (job.phase) {
            case SUSPENDED, SUSPENDING -> {
                return SimOutcome.of(Kind.NOOP, "job " + job.key + " already suspended");
            }
            case RUNNING -> ctx.trainer.beginSuspend(job);
            case PENDING, WAITING -> ctx.trainer.suspendNow(job);
            case FAILED -> {
                return SimOutcome.of(Kind.FAILED, "job " + job.key + " has failed");
            }
            default -> {
                if (job.suspendWanted) {
                    return SimOutcome.of(Kind.NOOP, "job " + job.key + " suspends once it trains or waits");
                }
                // Between phases (starting, restarting, restoring, rescaling): suspend once it trains or waits.
                job.suspendWanted = true;
            }
        }
        return SimOutcome.of(Kind.PATCHED, "job " + job.key + " suspended");
    }

    private SimOutcome resume(SimJob job) {
        if (job.suspendWanted) {
            job.suspendWanted = false;
            return SimOutcome.of(Kind.PATCHED, "job " + job.key + " no longer suspends");
        }
        if (job.phase == JobPhase.SUSPENDING) {
            return SimOutcome.of(
                    Kind.FAILED, "job " + job.key + " is saving before it stops; resume it once suspended");
        }
        if (job.phase != JobPhase.SUSPENDED) {
            return SimOutcome.of(Kind.NOOP, "job " + job.key + " is not suspended");
        }
        ctx.trainer.resume(job);
        return SimOutcome.of(Kind.PATCHED, "job " + job.key + " resumed");
    }

    SimOutcome restoreFrom(String jobKey, String checkpointId) {
        SimJob job = jobs.get(jobKey);
        if (job == null || job.phase == JobPhase.NEW) {
            return SimOutcome.of(Kind.NOT_FOUND, "no job " + jobKey);
        }
        SimJob.Checkpoint c = checkpointId == null ? null : job.checkpoint(checkpointId);
        if (c == null) {
            return SimOutcome.of(Kind.FAILED, "job " + jobKey + " has no complete checkpoint '" + checkpointId + "'");
        }
        if (c.equals(job.restoreFrom)) {
            return SimOutcome.of(Kind.NOOP, "job " + jobKey + " already restores from " + checkpointId);
        }
        job.restoreFrom = c;
        return SimOutcome.of(Kind.PATCHED, "job " + jobKey + " restores from " + checkpointId + " at its next start");
    }
}
