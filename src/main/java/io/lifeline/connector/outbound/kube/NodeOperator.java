package io.lifeline.connector.outbound.kube;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lifeline.action.port.ClusterOutcome;
import io.lifeline.action.port.ClusterOutcome.Result;

/**
 * Nodes: cordon and uncordon ({@code spec.unschedulable}), as {@code kubectl cordon} does. Asking for the state a
 * node is already in answers NOOP without writing.
 */
final class NodeOperator {

    private final KubernetesClient client;

    NodeOperator(KubernetesClient client) {
        this.client = client;
    }

    ClusterOutcome cordon(String name) {
        return setUnschedulable(name, true);
    }

    ClusterOutcome uncordon(String name) {
        return setUnschedulable(name, false);
    }

    private ClusterOutcome setUnschedulable(String name, boolean unschedulable) {
        String what = (unschedulable ? "cordon" : "uncordon") + " node " + name;
        try {
            Node node = client.nodes().withName(name).get();
            if (node == null) {
                return Outcomes.of(Result.NOT_FOUND, what + ": no such node");
            }
            boolean now =
                    node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable());
            if (now == unschedulable) {
                return Outcomes.of(
                        Result.NOOP, "node " + name + " already " + (unschedulable ? "cordoned" : "schedulable"));
            }
            client.nodes().withName(name).edit(n -> {
                if (n.getSpec() == null) {
                    n.setSpec(new io.fabric8.kubernetes.api.model.NodeSpec());
                }
                // Uncordon removes the field, as kubectl does.
                n.getSpec().setUnschedulable(unschedulable ? Boolean.TRUE : null);
                return n;
            });
            return Outcomes.of(Result.PATCHED, "node " + name + (unschedulable ? " cordoned" : " uncordoned"));
        } catch (RuntimeException e) {
            return Outcomes.failure(what, e);
        }
    }
}
