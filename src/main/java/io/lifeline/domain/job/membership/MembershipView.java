package io.lifeline.domain.job.membership;

import io.lifeline.domain.event.TrainerData.Participant;
import java.util.List;

/**
 * A job's elastic membership: the current placement and its history.
 *
 * @param job              job name
 * @param current          the newest round, or null before the first
 * @param placement        which ranks sit on which node now (nodes lost since the round are left out)
 * @param lostNodes        nodes of the current round that went away since it formed
 * @param worldSize        ranks now
 * @param rounds           recent rounds, oldest first (bounded)
 * @param worldSizeSeries  world size over time, oldest first (bounded)
 */
public record MembershipView(
        String job,
        RendezvousRound current,
        List<Participant> placement,
        List<String> lostNodes,
        int worldSize,
        List<RendezvousRound> rounds,
        List<WorldSizePoint> worldSizeSeries) {}
