package io.lifeline.domain.job.hang;

import io.lifeline.domain.event.TrainerData.StackThread;
import java.time.Instant;
import java.util.List;

/**
 * A job's newest stack capture, grouped.
 *
 * @param requestId      the request the ranks answered
 * @param firstAt        when the first rank's stacks arrived
 * @param lastAt         when the latest arrived
 * @param ranksReported  ranks that answered
 * @param ranksExpected  ranks the job has (0 when unknown)
 * @param groups         ranks with identical training-thread stacks
 * @param missingRanks   ranks that have not answered (up to 1,024)
 * @param ranksNotGrouped  ranks beyond the group limit, counted only
 */
public record StackCaptureView(
        String requestId,
        Instant firstAt,
        Instant lastAt,
        int ranksReported,
        int ranksExpected,
        List<Group> groups,
        List<Integer> missingRanks,
        int ranksNotGrouped) {

    public StackCaptureView {
        groups = List.copyOf(groups);
        missingRanks = List.copyOf(missingRanks);
    }

    /**
     * Ranks whose training threads stood in the same place.
     *
     * @param signature     a short id of the stack
     * @param ranks         the ranks
     * @param nodes         their nodes (up to 64)
     * @param oddOneOut     whether this group keeps the others waiting (or is the minority)
     * @param inCollective  whether its training thread waits in a collective
     * @param via           how the stacks were read (frames or faulthandler)
     * @param phase         the phase of the first rank of the group
     * @param step          its step
     * @param threads       the stacks of its first rank, outermost frame first
     * @param text          a raw dump, or null
     */
    public record Group(
            String signature,
            List<Integer> ranks,
            List<String> nodes,
            boolean oddOneOut,
            boolean inCollective,
            String via,
            String phase,
            Long step,
            List<StackThread> threads,
            String text) {
        public Group {
            ranks = List.copyOf(ranks);
            nodes = List.copyOf(nodes);
            threads = List.copyOf(threads);
        }
    }
}
