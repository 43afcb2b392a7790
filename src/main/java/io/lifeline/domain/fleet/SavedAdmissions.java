package io.lifeline.domain.fleet;

import java.util.List;

/**
 * A node's {@link AdmissionLog} as plain values, part of a {@link SavedNode}.
 *
 * @param times        the remembered rejections' times (epoch ms), oldest first
 * @param pods         their pods ({@code namespace/name}), in the same order
 * @param reasons      their reasons, in the same order
 * @param lastMessage  the newest rejection's message, may be null
 * @param days         UTC epoch days with rejections counted
 * @param counts       the count of each of those days
 * @param total        every rejection recorded for the node
 */
public record SavedAdmissions(
        List<Long> times,
        List<String> pods,
        List<String> reasons,
        String lastMessage,
        List<Integer> days,
        List<Integer> counts,
        long total) {

    public SavedAdmissions {
        times = List.copyOf(times);
        pods = List.copyOf(pods);
        reasons = List.copyOf(reasons);
        days = List.copyOf(days);
        counts = List.copyOf(counts);
        if (pods.size() != times.size() || reasons.size() != times.size() || counts.size() != days.size()) {
            throw new IllegalArgumentException("admission times, pods and reasons, and days and counts, must pair up");
        }
    }
}
