package io.lifeline.api.connector;

import io.lifeline.config.KubeConfig;
import io.lifeline.connector.inbound.kube.KindStatus;
import io.lifeline.connector.inbound.kube.KubernetesConnector;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/** {@code GET /api/v1/connectors/kubernetes}: whether the cluster is watched, and the state of every kind. */
@Path("/api/v1/connectors/kubernetes")
public class KubernetesResource {

    private final KubernetesConnector connector;
    private final KubeConfig config;

    KubernetesResource(KubernetesConnector connector, KubeConfig config) {
        this.connector = connector;
        this.config = config;
    }

    /**
     * The connector's state.
     *
     * @param enabled  whether the informers are on
     * @param cluster  the cluster name in event sources
     * @param kinds    every kind and how watching it goes
     */
    public record State(boolean enabled, String cluster, List<KindStatus> kinds) {}

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public State get() {
        return new State(config.enabled(), config.cluster(), connector.status());
    }
}
