package io.lifeline.connector.outbound.kube;

import io.lifeline.action.port.ClusterActions;
import io.lifeline.action.port.ClusterBackend;
import io.lifeline.action.port.ClusterOutcome;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/**
 * The application's one {@link ClusterActions} bean (the one actions inject). Each call goes to Kubernetes when
 * the Kubernetes connector is on ({@code lifeline.connectors.kubernetes.enabled}), else to the demo fleet while it
 * runs (the quick start has no cluster), else nowhere: {@link #available()} false and every call FAILED "no
 * cluster configured". Chosen per call, because the demo fleet starts after the application does.
 */
@ApplicationScoped
public class SelectedClusterActions implements ClusterActions {

    private final List<ClusterBackend> backends;
    private final ClusterActions none = new NoClusterActions();

    SelectedClusterActions(@jakarta.enterprise.inject.Any jakarta.enterprise.inject.Instance<ClusterBackend> backends) {
        this.backends = backends.stream()
                .sorted(java.util.Comparator.comparingInt(ClusterBackend::precedence))
                .toList();
    }

    /** The implementation calls go to now. */
    ClusterActions current() {
        for (ClusterBackend b : backends) {
            if (b.available()) {
                return b;
            }
        }
        return none;
    }

    @Override
    public boolean available() {
        return current().available();
    }

    @Override
    public ClusterOutcome cordon(String node) {
        return current().cordon(node);
    }

    @Override
    public ClusterOutcome uncordon(String node) {
        return current().uncordon(node);
    }

    @Override
    public List<PodRef> trainingPodsOn(String node) {
        return current().trainingPodsOn(node);
    }

    @Override
    public String jobOfPod(String namespace, String pod) {
        return current().jobOfPod(namespace, pod);
    }

    @Override
    public java.util.Optional<java.util.Set<String>> nodesOfJob(String job) {
        return current().nodesOfJob(job);
    }

    @Override
    public ClusterOutcome evict(PodRef pod, boolean deleteIfRefused) {
        return current().evict(pod, deleteIfRefused);
    }

    @Override
    public List<PodRef> jobPodsOn(String job, String node) {
        return current().jobPodsOn(job, node);
    }

    @Override
    public ClusterOutcome deletePod(PodRef pod) {
        return current().deletePod(pod);
    }

    @Override
    public ClusterOutcome scaleWorkers(String job, int workers) {
        return current().scaleWorkers(job, workers);
    }

    @Override
    public ClusterOutcome suspend(String job, boolean suspended) {
        return current().suspend(job, suspended);
    }

    @Override
    public ClusterOutcome annotateRestore(String job, String checkpointId, String uri) {
        return current().annotateRestore(job, checkpointId, uri);
    }
}
