package io.lifeline.domain.job.membership;

import io.lifeline.domain.event.TrainerData.Participant;
import java.util.List;

/**
 * A job's membership as plain values, part of a saved job ({@link Membership#save()}).
 *
 * @param rounds     the rounds kept as history, in the order they were recorded
 * @param series     the world-size points kept, oldest first
 * @param placement  the ranks on each node now, in round order
 * @param lost       nodes of the placement that are gone until the next round
 * @param current    the round the placement comes from, null before the first
 * @param version    the membership's change counter
 */
public record SavedMembership(
        List<RendezvousRound> rounds,
        List<WorldSizePoint> series,
        List<Participant> placement,
        List<String> lost,
        RendezvousRound current,
        long version) {

    public SavedMembership {
        rounds = List.copyOf(rounds);
        series = List.copyOf(series);
        placement = List.copyOf(placement);
        lost = List.copyOf(lost);
    }
}
