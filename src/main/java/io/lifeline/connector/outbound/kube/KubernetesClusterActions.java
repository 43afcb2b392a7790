package io.lifeline.connector.outbound.kube;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.lifeline.action.port.ClusterActions;
import io.lifeline.action.port.ClusterBackend;
import io.lifeline.action.port.ClusterOutcome;
import io.lifeline.action.port.ClusterOutcome.Result;
import io.lifeline.config.KubeConfig;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Typed;
import jakarta.inject.Inject;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Lifeline's actions on the Kubernetes cluster the connector watches ({@code lifeline.connectors.kubernetes.enabled};
 * the client comes from {@code quarkus.kubernetes-client.*}). Delegates to one wrapper per kind; the client is
 * taken on first use, so an application without a cluster never builds one. Not injectable as
 * {@link ClusterActions}: {@link SelectedClusterActions} chooses between this, the demo fleet and nothing.
 */
@ApplicationScoped
@Typed({KubernetesClusterActions.class, ClusterBackend.class})
public class KubernetesClusterActions implements ClusterBackend {

    @Override
    public int precedence() {
        return 0;
    }

    /** The operators over one client (and its no-retry twin for evictions). */
    private record Operators(
            NodeOperator nodes,
            PodOperator pods,
            PyTorchJobOperator jobs,
            TrainJobOperator trainJobs,
            KubernetesClient evictions) {}

    private final BooleanSupplier enabled;
    private final Supplier<KubernetesClient> clients;
    private Operators ops;

    @Inject
    KubernetesClusterActions(KubeConfig config, Instance<KubernetesClient> clients) {
        this(config::enabled, clients::get);
    }

    /** For a given client (tests): always available. */
    KubernetesClusterActions(KubernetesClient client) {
        this(() -> true, () -> client);
    }

    private KubernetesClusterActions(BooleanSupplier enabled, Supplier<KubernetesClient> clients) {
        this.enabled = enabled;
        this.clients = clients;
    }

    @Override
    public boolean available() {
        return enabled.getAsBoolean();
    }

    @Override
    public ClusterOutcome cordon(String node) {
        return call("cordon node " + node, o -> o.nodes.cordon(node));
    }

    @Override
    public ClusterOutcome uncordon(String node) {
        return call("uncordon node " + node, o -> o.nodes.uncordon(node));
    }

    /**
     * {@inheritDoc} Throws the client's exception when the API server cannot be asked: an empty list would read as
     * "nothing to evict".
     */
    @Override
    public List<PodRef> trainingPodsOn(String node) {
        if (!available()) {
            return List.of();
        }
        return operators().pods.trainingPodsOn(node);
    }

    @Override
    public String jobOfPod(String namespace, String pod) {
        if (!available()) {
            return null;
        }
        return operators().pods.jobOfPod(namespace, pod);
    }

    @Override
    public java.util.Optional<java.util.Set<String>> nodesOfJob(String job) {
        if (!available()) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(operators().pods.nodesOfJob(job));
    }

    @Override
    public ClusterOutcome evict(PodRef pod, boolean deleteIfRefused) {
        return call("evict pod " + pod.namespace() + "/" + pod.name(), o -> o.pods.evict(pod, deleteIfRefused));
    }

    /** {@inheritDoc} Throws the client's exception when the API server cannot be asked. */
    @Override
    public List<PodRef> jobPodsOn(String job, String node) {
        if (!available()) {
            return List.of();
        }
        return operators().pods.jobPodsOn(job, node);
    }

    @Override
    public ClusterOutcome deletePod(PodRef pod) {
        return call("delete pod " + pod.namespace() + "/" + pod.name(), o -> o.pods.delete(pod, null));
    }

    @Override
    public ClusterOutcome scaleWorkers(String job, int workers) {
        return call(
                "scale job " + job,
                o -> either(o.jobs.scaleWorkers(job, workers), () -> o.trainJobs.scaleWorkers(job, workers)));
    }

    @Override
    public ClusterOutcome suspend(String job, boolean suspended) {
        return call(
                (suspended ? "suspend" : "resume") + " job " + job,
                o -> either(o.jobs.suspend(job, suspended), () -> o.trainJobs.suspend(job, suspended)));
    }

    @Override
    public ClusterOutcome annotateRestore(String job, String checkpointId, String uri) {
        return call(
                "annotate job " + job,
                o -> either(
                        o.jobs.annotateRestore(job, checkpointId, uri),
                        () -> o.trainJobs.annotateRestore(job, checkpointId, uri)));
    }

    /** A job is a PyTorchJob or a TrainJob: the TrainJob is asked when there is no PyTorchJob of that name. */
    private static ClusterOutcome either(ClusterOutcome pytorchJob, Supplier<ClusterOutcome> trainJob) {
        if (pytorchJob.result() != Result.NOT_FOUND) {
            return pytorchJob;
        }
        ClusterOutcome t = trainJob.get();
        return t.result() == Result.NOT_FOUND
                ? ClusterOutcome.of(Result.NOT_FOUND, pytorchJob.detail() + "; " + t.detail())
                : t;
    }

    private ClusterOutcome call(String what, Function<Operators, ClusterOutcome> op) {
        if (!available()) {
            return ClusterOutcome.of(
                    Result.FAILED,
                    what + ": the Kubernetes connector is off " + "(lifeline.connectors.kubernetes.enabled=false)");
        }
        try {
            return op.apply(operators());
        } catch (RuntimeException e) {
            return Outcomes.failure(what, e);
        }
    }

    private synchronized Operators operators() {
        if (ops == null) {
            KubernetesClient client = clients.get();
            KubernetesClient evictions = withoutRetries(client);
            ops = new Operators(
                    new NodeOperator(client),
                    new PodOperator(client, evictions),
                    new PyTorchJobOperator(client),
                    new TrainJobOperator(client),
                    evictions);
        }
        return ops;
    }

    /**
     * A client for the same cluster that does not retry on its own: fabric8 retries HTTP 429 (and 5xx) with
     * back-off, which would turn one eviction attempt into several and hide a PodDisruptionBudget refusal.
     */
    static KubernetesClient withoutRetries(KubernetesClient client) {
        Config config = new ConfigBuilder(client.getConfiguration())
                .withRequestRetryBackoffLimit(0)
                .build();
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    @PreDestroy
    synchronized void close() {
        if (ops != null) {
            ops.evictions.close();
            ops = null;
        }
    }
}
