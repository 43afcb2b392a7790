package io.lifeline.domain.job;

import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.JobData;

/**
 * The scope a job event may speak for: its subject's. A job's namespace decides who sees it and who may act on it,
 * and the sender's token was checked against the subject ({@code namespace/name}) only, so a field of the payload
 * that names a namespace must name that one: a {@code job.submitted} whose {@code namespace} is another namespace (or
 * no Kubernetes namespace name at all) would move the job out of its owners' sight and into another team's.
 */
final class JobScope {

    private static final int MAX_NAMESPACE = 63;

    private JobScope() {}

    /** Why {@code e} speaks for another scope than its subject's; null when it does not. */
    static String refusal(Event e) {
        if (!(e.data() instanceof JobData.Submitted d) || d.namespace() == null) {
            return null;
        }
        String subjectNamespace = Job.namespaceOf(e.subject());
        if (!isNamespaceName(d.namespace())) {
            return "data.namespace '" + d.namespace() + "' is not a Kubernetes namespace name (lower-case letters, "
                    + "digits and '-', at most " + MAX_NAMESPACE + "); leave it out or send '" + subjectNamespace + "'";
        }
        if (!d.namespace().equals(subjectNamespace)) {
            return "data.namespace '" + d.namespace() + "' is not the namespace of the subject " + e.subject() + " ('"
                    + subjectNamespace + "'): a job's namespace comes from its subject";
        }
        return null;
    }

    /** An RFC 1123 label, as Kubernetes names namespaces: {@code [a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?}. */
    static boolean isNamespaceName(String s) {
        int n = s.length();
        if (n == 0 || n > MAX_NAMESPACE || s.charAt(0) == '-' || s.charAt(n - 1) == '-') {
            return false;
        }
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-')) {
                return false;
            }
        }
        return true;
    }
}
