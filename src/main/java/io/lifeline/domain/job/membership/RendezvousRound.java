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
 */
public record RendezvousRound(String runId, int round, int worldSize, Instant time, List<Participant> participants) {

    public RendezvousRound {
        participants = List.copyOf(participants);
    }

    /** How many nodes took part. */
    public int nodeCount() {
        return participants.size();
    }
}
