package io.lifeline.domain.job.membership;

import io.lifeline.domain.event.TrainerData.Participant;
import java.time.Instant;
import java.util.List;

/**
 * One completed rendezvous of a job: who trained together from {@code time} on.
 *
 * @param runId         torchrun run id, may be null
 * @param round         rendezvous round (version), as the runtime numbers it
 * @param worldSize     total ranks
 * @param time          when the round completed
 * @param participants  nodes and the ranks they host
 * @param endpointNode  node hosting the rendezvous endpoint as the round reported it, or null when not reported
 */
public record RendezvousRound(
        String runId, int round, int worldSize, Instant time, List<Participant> participants, String endpointNode) {

    public RendezvousRound {
        participants = List.copyOf(participants);
    }

    /** A round that does not name its endpoint's node. */
    public RendezvousRound(String runId, int round, int worldSize, Instant time, List<Participant> participants) {
        this(runId, round, worldSize, time, participants, null);
    }

    /** How many nodes took part. */
    public int nodeCount() {
        return participants.size();
    }
}
