package io.lifeline.demo.runtime;

import io.lifeline.action.port.ClusterActions;
import io.lifeline.action.port.ClusterBackend;
import io.lifeline.action.port.ClusterOutcome;
import io.lifeline.demo.SimOutcome;
import io.lifeline.demo.SimPod;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Typed;
import java.util.List;

/**
 * The cluster of the quick start: Lifeline's actions act on the demo fleet as they would on Kubernetes. Each
 * call runs on the demo's tick thread (see {@link DemoRunner#act}), journaled, and answers at once. The simulated
 * Eviction API never refuses (there are no PodDisruptionBudgets in the demo). Not injectable as
 * {@link ClusterActions}: the application's one {@code ClusterActions} bean chooses between the implementations.
 */
@ApplicationScoped
@Typed({DemoClusterActions.class, ClusterBackend.class})
public class DemoClusterActions implements ClusterBackend {

    @Override
    public int precedence() {
        return 100;
    }

    private final DemoRunner runner;

    DemoClusterActions(DemoRunner runner) {
        this.runner = runner;
    }

    @Override
    public boolean available() {
        return runner.running();
    }

    @Override
    public ClusterOutcome cordon(String node) {
        return call(SimCall.cordon(node));
    }

    @Override
    public ClusterOutcome uncordon(String node) {
        return call(SimCall.uncordon(node));
    }

    @Override
    public List<PodRef> trainingPodsOn(String node) {
        try {
            List<SimPod> pods = runner.onCluster(s -> s.podsOn(node));
            return pods.stream()
                    .map(p -> new PodRef(p.namespace(), p.name(), p.job()))
                    .toList();
        } catch (IllegalStateException e) {
            return List.of();
        }
    }

    @Override
    public java.util.Optional<java.util.Set<String>> nodesOfJob(String job) {
        try {
            return java.util.Optional.of(runner.onCluster(s -> s.nodesOfJob(job)));
        } catch (IllegalStateException e) {
            return java.util.Optional.empty();
        }
    }

    @Override
    public String jobOfPod(String namespace, String pod) {
        try {
            return runner.onCluster(s -> s.jobOfPod(namespace, pod));
        } catch (IllegalStateException e) {
            return null;
        }
    }

    @Override
    public ClusterOutcome evict(PodRef pod, boolean deleteIfRefused) {
        return call(SimCall.evict(pod.namespace(), pod.name()));
    }

    @Override
    public List<PodRef> jobPodsOn(String job, String node) {
        return trainingPodsOn(node).stream().filter(p -> job.equals(p.job())).toList();
    }

    /** The simulated cluster has no pod controller of its own: a deleted pod goes as an evicted one does. */
    @Override
    public ClusterOutcome deletePod(PodRef pod) {
        return call(SimCall.evict(pod.namespace(), pod.name()));
    }

    @Override
    public ClusterOutcome scaleWorkers(String job, int workers) {
        return call(SimCall.scaleWorkers(job, workers));
    }

    @Override
    public ClusterOutcome suspend(String job, boolean suspended) {
        return call(SimCall.setSuspended(job, suspended));
    }

    @Override
    public ClusterOutcome annotateRestore(String job, String checkpointId, String uri) {
        return call(SimCall.restoreFrom(job, checkpointId));
    }

    private ClusterOutcome call(SimCall op) {
        try {
            return map((SimOutcome) runner.act(op));
        } catch (IllegalStateException e) {
            return ClusterOutcome.of(ClusterOutcome.Result.FAILED, "demo fleet: " + e.getMessage());
        } catch (IllegalArgumentException e) {
            return ClusterOutcome.of(ClusterOutcome.Result.FAILED, e.getMessage());
        }
    }

    static ClusterOutcome map(SimOutcome o) {
        ClusterOutcome.Result r = switch (o.kind()) {
            case NOOP -> ClusterOutcome.Result.NOOP;
            case PATCHED -> ClusterOutcome.Result.PATCHED;
            case EVICTED -> ClusterOutcome.Result.EVICTED;
            case NOT_FOUND -> ClusterOutcome.Result.NOT_FOUND;
            case FAILED -> ClusterOutcome.Result.FAILED;
        };
        return ClusterOutcome.of(r, o.detail());
    }
}
