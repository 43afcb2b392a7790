package io.lifeline.connector.outbound.kube;

import io.lifeline.action.port.ClusterActions;
import io.lifeline.action.port.ClusterOutcome;
import io.lifeline.action.port.ClusterOutcome.Result;
import java.util.List;

/** No cluster: neither the Kubernetes connector nor the demo fleet is on. Every call fails with that reason. */
final class NoClusterActions implements ClusterActions {

    static final String REASON = "no cluster configured (lifeline.connectors.kubernetes.enabled=false and the demo "
            + "fleet is not running)";

    @Override
    public boolean available() {
        return false;
    }

    @Override
    public ClusterOutcome cordon(String node) {
        return no();
    }

    @Override
    public ClusterOutcome uncordon(String node) {
        return no();
    }

    @Override
    public List<PodRef> trainingPodsOn(String node) {
        return List.of();
    }

    @Override
    public ClusterOutcome evict(PodRef pod, boolean deleteIfRefused) {
        return no();
    }

    @Override
    public List<PodRef> jobPodsOn(String job, String node) {
        return List.of();
    }

    @Override
    public ClusterOutcome deletePod(PodRef pod) {
        return no();
    }

    @Override
    public ClusterOutcome scaleWorkers(String job, int workers) {
        return no();
    }

    @Override
    public ClusterOutcome suspend(String job, boolean suspended) {
        return no();
    }

    @Override
    public ClusterOutcome annotateRestore(String job, String checkpointId, String uri) {
        return no();
    }

    private static ClusterOutcome no() {
        return ClusterOutcome.of(Result.FAILED, REASON);
    }
}
