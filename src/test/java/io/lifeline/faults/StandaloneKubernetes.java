package io.lifeline.faults;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import java.net.InetAddress;
import java.util.List;

/**
 * The fabric8 mock Kubernetes API server (CRUD mode) in a process of its own, for the fault suite: it serves on
 * {@code args[0]} with a Node for each further argument, and prints every request it answers that changes something
 * ({@code REQUEST PATCH /api/v1/nodes/...}), so that the suite can count what each action step did to the cluster.
 *
 * <pre>java -cp &lt;test class path&gt; io.lifeline.faults.StandaloneKubernetes 39104 node-a node-b</pre>
 */
public final class StandaloneKubernetes {

    private StandaloneKubernetes() {}

    public static void main(String[] args) throws Exception {
        KubernetesServer server = new KubernetesServer(
                false, true, InetAddress.getLoopbackAddress(), Integer.parseInt(args[0]), List.of());
        server.before();
        for (int i = 1; i < args.length; i++) {
            server.getClient()
                    .nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName(args[i])
                            .endMetadata()
                            .build())
                    .create();
        }
        System.out.println("READY " + server.getKubernetesMockServer().url("/"));
        System.out.flush();
        while (true) {
            RecordedRequest r = server.getKubernetesMockServer().takeRequest();
            String method = r.getMethod();
            if (!"GET".equals(method)) {
                System.out.println("REQUEST " + method + " " + r.getPath());
                System.out.flush();
            }
        }
    }
}
