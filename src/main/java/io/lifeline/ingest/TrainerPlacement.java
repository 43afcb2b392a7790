package io.lifeline.ingest;

import io.lifeline.action.port.ClusterActions;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.security.identity.Caller;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Where a job runs is the cluster's word, not the sender's: a {@code trainer.rendezvous} places the job's ranks on
 * nodes, and that placement is what lets the job's namespace see those nodes (their health, notices and GPUs) and what
 * the node policies act on for the job. A caller limited to namespaces may name only nodes the cluster shows the
 * job's pods on ({@link ClusterActions#nodesOfJob}); a fleet-wide sender (the torchelastic connector's token, a
 * connector) speaks for the nodes anyway. Without a cluster to ask, a limited caller's placement is refused: it could
 * otherwise make any team's nodes visible to its namespace. One question to the cluster per rendezvous of a limited
 * caller, none for anything else.
 */
@ApplicationScoped
public class TrainerPlacement {

    private static final int NAMED_IN_REASON = 5;

    private final ClusterActions cluster;

    TrainerPlacement(ClusterActions cluster) {
        this.cluster = cluster;
    }

    /** Why {@code caller} may not place {@code e}'s job on the nodes it names; null when it may (or names none). */
    public String refusal(Caller caller, Event e) {
        if (caller.isFleetWide() || !(e.data() instanceof TrainerData.Rendezvous r)) {
            return null;
        }
        Set<String> named = new TreeSet<>();
        r.participants().forEach(p -> named.add(p.node()));
        if (r.endpointNode() != null) {
            named.add(r.endpointNode());
        }
        if (named.isEmpty()) {
            return null;
        }
        Optional<Set<String>> pods;
        try {
            pods = cluster.nodesOfJob(e.subject());
        } catch (RuntimeException failed) {
            return "participants: where " + e.subject() + " runs could not be checked with the cluster ("
                    + failed.getMessage() + "); a token limited to namespaces may place a job only on the nodes its "
                    + "pods run on";
        }
        if (pods.isEmpty()) {
            return "participants: a token limited to namespaces may place a job only on nodes the cluster shows its "
                    + "pods on, and no cluster is connected to ask; send rendezvous with a fleet-wide token (the "
                    + "torchelastic connector's) or connect the Kubernetes cluster";
        }
        named.removeAll(pods.get());
        if (named.isEmpty()) {
            return null;
        }
        String some = named.size() <= NAMED_IN_REASON
                ? String.join(", ", named)
                : String.join(", ", named.stream().limit(NAMED_IN_REASON).toList()) + " and "
                        + (named.size() - NAMED_IN_REASON) + " more";
        return "participants: " + e.subject() + " has no pod on " + some + " (the cluster shows its pods on "
                + pods.get().size() + " node(s)); a token limited to namespaces may place a job only where it runs";
    }
}
