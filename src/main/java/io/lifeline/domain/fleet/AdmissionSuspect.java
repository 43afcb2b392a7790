package io.lifeline.domain.fleet;

import java.time.Instant;
import java.util.List;

/**
 * A node's admission failures within the suspect window, and whether they make it a node that swallows pods: at least
 * {@link AdmissionSettings#threshold()} rejections within {@link AdmissionSettings#window()} while it is Ready.
 *
 * @param node         node name
 * @param pool         its pool, null before registration
 * @param suspect      whether the node is a suspect now
 * @param ready        whether the node is Ready
 * @param count        rejections within the window (as far as the node remembers them one by one)
 * @param threshold    how many make a suspect
 * @param window       the window they are counted over
 * @param first        the first rejection in the window, null when none
 * @param last         the last one, null when none
 * @param total        every rejection recorded for the node
 * @param lastMessage  the newest rejection's message (the kubelet's own words), may be null
 * @param failures     the rejections in the window, oldest first
 */
public record AdmissionSuspect(
        String node,
        String pool,
        boolean suspect,
        boolean ready,
        int count,
        int threshold,
        java.time.Duration window,
        Instant first,
        Instant last,
        long total,
        String lastMessage,
        List<AdmissionFailure> failures) {

    public AdmissionSuspect {
        failures = List.copyOf(failures);
    }

    /** The evidence in one line, for an action's reason and the audit. */
    public String evidence() {
        StringBuilder pods = new StringBuilder();
        int shown = 0;
        for (int i = failures.size() - 1; i >= 0 && shown < 5; i--, shown++) {
            pods.append(shown == 0 ? "" : ", ").append(failures.get(i).pod());
        }
        if (failures.size() > shown) {
            pods.append(", …");
        }
        return count + " pod(s) rejected at admission within " + window.toMinutes() + " min (threshold " + threshold
                + "), first " + first + ", last " + last + ": " + pods
                + (lastMessage == null ? "" : "; newest: " + truncate(lastMessage, 300));
    }

    /** The end of a long message: a wrapped error says its root cause last ("GPU is lost, which is unexpected"). */
    private static String truncate(String s, int max) {
        return s.length() <= max ? s : "…" + s.substring(s.length() - max);
    }
}
