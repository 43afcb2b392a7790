package io.lifeline.action;

import io.lifeline.action.port.ClusterActions;
import io.lifeline.action.port.ClusterOutcome;
import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/** Used when neither Kubernetes nor the demo fleet is there to act on: every cluster step fails and says why. */
@ApplicationScoped
@DefaultBean
public class NoClusterActions implements ClusterActions {

    private static final ClusterOutcome NONE = ClusterOutcome.of(ClusterOutcome.Result.FAILED,
            "no cluster configured: enable the Kubernetes connector (lifeline.connectors.kubernetes.enabled)");

    @Override
    public boolean available() {
        return false;
    }

    @Override
    public ClusterOutcome cordon(String node) {
        return NONE;
    }

    @Override
    public ClusterOutcome uncordon(String node) {
        return NONE;
    }

    @Override
    public List<PodRef> trainingPodsOn(String node) {
        return List.of();
    }

    @Override
    public ClusterOutcome evict(PodRef pod, boolean deleteIfRefused) {
        return NONE;
    }

    @Override
    public ClusterOutcome scaleWorkers(String job, int workers) {
        return NONE;
    }

    @Override
    public ClusterOutcome suspend(String job, boolean suspended) {
        return NONE;
    }

    @Override
    public ClusterOutcome annotateRestore(String job, String checkpointId, String uri) {
        return NONE;
    }
}
