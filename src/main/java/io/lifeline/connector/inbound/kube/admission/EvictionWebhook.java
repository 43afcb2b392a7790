package io.lifeline.connector.inbound.kube.admission;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;

/**
 * One AdmissionReview in, one out: a pod eviction goes to the {@link EvictionGate}; a dry run, and any other request
 * (another resource, operation or subresource the webhook was configured for by mistake), is allowed untouched.
 */
public final class EvictionWebhook {

    private final EvictionGate gate;

    public EvictionWebhook(EvictionGate gate) {
        this.gate = gate;
    }

    /**
     * The answer to {@code in}.
     *
     * @throws IllegalArgumentException when {@code in} has no request or no uid (the API server always sends both)
     */
    public AdmissionReview answer(AdmissionReview in) {
        AdmissionRequest r = in == null ? null : in.getRequest();
        if (r == null || r.getUid() == null || r.getUid().isBlank()) {
            throw new IllegalArgumentException("the AdmissionReview has no request with a uid");
        }
        if (!AdmissionReviews.isPodEviction(r) || r.getName() == null || r.getNamespace() == null) {
            return AdmissionReviews.allow(r.getUid());
        }
        if (Boolean.TRUE.equals(r.getDryRun())) {
            // The configuration declares sideEffects NoneOnDryRun: a dry run (kubectl drain --dry-run=server) must
            // not start a checkpoint-now or a hold, so it is allowed untouched.
            return AdmissionReviews.allow(r.getUid());
        }
        EvictionGate.Verdict v = gate.decide(r.getNamespace(), r.getName());
        return v.allowed() ? AdmissionReviews.allow(r.getUid()) : AdmissionReviews.retryLater(r.getUid(), v.message());
    }

    /**
     * The answer without asking the gate (the listener is saturated): allowed, counted {@code unknown}.
     *
     * @throws IllegalArgumentException when {@code in} has no request or no uid
     */
    public AdmissionReview undecided(AdmissionReview in, String why) {
        AdmissionRequest r = in == null ? null : in.getRequest();
        if (r == null || r.getUid() == null || r.getUid().isBlank()) {
            throw new IllegalArgumentException("the AdmissionReview has no request with a uid");
        }
        gate.undecided(why);
        return AdmissionReviews.allow(r.getUid());
    }

    public EvictionGate gate() {
        return gate;
    }
}
