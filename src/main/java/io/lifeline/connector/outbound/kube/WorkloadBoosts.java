package io.lifeline.connector.outbound.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.lifeline.domain.job.checkpoint.PriorityBoostPolicy.Decision;
import java.util.HashMap;
import java.util.Map;

/**
 * The annotations of Kueue's priority boost (KEP-7990) on one Workload: Kueue reads {@code kueue.x-k8s.io/priority-boost}
 * (a signed integer added to the Workload's priority; absent means 0). Lifeline marks the boosts it wrote with
 * {@code lifeline.io/priority-boost} (the same value) and {@code lifeline.io/priority-boosted-at}, and leaves alone a
 * boost someone else wrote (another controller such as Kueue's priority booster, or an administrator).
 */
final class WorkloadBoosts {

    /** Kueue's annotation (KEP-7990). */
    static final String BOOST = "kueue.x-k8s.io/priority-boost";
    /** The value Lifeline wrote: a boost without it, or with another value, is not Lifeline's. */
    static final String OURS = "lifeline.io/priority-boost";
    /** When Lifeline boosted the Workload (RFC 3339). */
    static final String SINCE = "lifeline.io/priority-boosted-at";

    private WorkloadBoosts() {}

    /** The boost Lifeline wrote on the Workload, or null (none, or someone else's). */
    static Integer ours(GenericKubernetesResource wl) {
        Map<String, String> a = wl.getMetadata().getAnnotations();
        String boost = a == null ? null : a.get(BOOST);
        if (boost == null || !boost.equals(a.get(OURS))) {
            return null;
        }
        try {
            return Integer.valueOf(boost.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** Whether the Workload carries a boost that Lifeline did not write. */
    static boolean foreign(GenericKubernetesResource wl) {
        Map<String, String> a = wl.getMetadata().getAnnotations();
        return a != null && a.get(BOOST) != null && ours(wl) == null;
    }

    /**
     * The annotations to change so that the Workload carries what {@code d} says (null values are removed), or null when
     * it already does or the boost there is someone else's.
     */
    static Map<String, String> patch(GenericKubernetesResource wl, Decision d) {
        if (foreign(wl)) {
            return null;
        }
        Integer now = ours(wl);
        Map<String, String> a = wl.getMetadata().getAnnotations();
        Map<String, String> out = new HashMap<>();
        if (d.boosted()) {
            if (d.boost().equals(now)) {
                return null;
            }
            out.put(BOOST, Integer.toString(d.boost()));
            out.put(OURS, Integer.toString(d.boost()));
            out.put(SINCE, d.at().toString());
            return out;
        }
        if (now == null && (a == null || a.get(OURS) == null && a.get(SINCE) == null)) {
            return null;
        }
        // Ours (or our marks left behind after someone removed the boost): all of it goes.
        if (now != null) {
            out.put(BOOST, null);
        }
        out.put(OURS, null);
        out.put(SINCE, null);
        return out;
    }
}
