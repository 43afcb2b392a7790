package io.lifeline.connector.inbound.torchft;

import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.TrainerData;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A TorchFT job's quorum as its membership: each quorum the Lighthouse forms with other replica groups than the last
 * one becomes a {@code trainer.rendezvous} of the job, round = the quorum id, the replica groups its participants
 * (their ranks numbered in the quorum's order), so that a replica dropped and taken back shows as the job shrinking and
 * growing, as TorchFT heals it. A quorum with the same replica groups (TorchFT bumps the id on a commit failure too) is
 * no membership change. Pure.
 */
public final class QuorumMembership {

    /** The source of the events. */
    public static final String SOURCE = "lifeline/torchft";
    /** The run id the rounds carry. */
    public static final String RUN = "torchft";

    private QuorumMembership() {}

    /**
     * The rendezvous for {@code status}'s quorum, or null when it has none, has no member, or holds the same replica
     * groups as {@code last}.
     *
     * @param last  the replica ids of the quorum last shown, or null
     * @param node  the node a replica's host runs on (a host that cannot be placed is taken as the node's name: outside
     *              Kubernetes a replica's hostname is its machine's)
     */
    public static Event rendezvous(
            String job, LighthouseStatus status, List<String> last, Function<String, String> node, Instant now) {
        LighthouseStatus.Quorum q = status.quorum();
        if (q == null || q.members().isEmpty() || q.replicaIds().equals(last)) {
            return null;
        }
        // Two replica groups on one node are one participant: membership is by node.
        Map<String, int[]> byNode = new LinkedHashMap<>();
        int rank = 0;
        for (LighthouseStatus.Member m : q.members()) {
            String host = m.host();
            String n = host == null ? m.replicaId() : node.apply(host);
            if (n == null) {
                n = host;
            }
            int size = Math.max(1, m.worldSize());
            int[] r = byNode.get(n);
            if (r == null) {
                byNode.put(n, new int[] {rank, size});
            } else {
                r[1] += size;
            }
            rank += size;
        }
        List<TrainerData.Participant> participants = new ArrayList<>();
        byNode.forEach((n, r) -> participants.add(new TrainerData.Participant(n, r[0], r[1])));
        int round = (int) Math.min(Integer.MAX_VALUE, Math.max(0, q.id()));
        String id = "torchft-" + job.replace('/', '.') + "-quorum-" + q.id() + "-"
                + Integer.toHexString(String.join(",", q.replicaIds()).hashCode());
        return new Event(
                id,
                SOURCE,
                EventType.TRAINER_RENDEZVOUS,
                job,
                now,
                new TrainerData.Rendezvous(RUN, round, rank, participants));
    }
}
