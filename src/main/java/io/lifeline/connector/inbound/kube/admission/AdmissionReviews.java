package io.lifeline.connector.inbound.kube.admission;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponseBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReviewBuilder;

/**
 * The AdmissionReview ({@code admission.k8s.io/v1}) side of the eviction webhook: which requests are evictions, and
 * the answers. A hold is a denial whose status carries HTTP code 429 and reason {@code TooManyRequests}: the API
 * server hands that status to the evicting client as is, which is what {@code kubectl drain} retries and what the
 * Eviction API itself answers while a PodDisruptionBudget refuses.
 */
final class AdmissionReviews {

    static final String API_VERSION = "admission.k8s.io/v1";

    private AdmissionReviews() {}

    /** Whether the request is a CREATE of the {@code eviction} subresource of a core pod. */
    static boolean isPodEviction(AdmissionRequest r) {
        return r.getResource() != null
                && "pods".equals(r.getResource().getResource())
                && (r.getResource().getGroup() == null
                        || r.getResource().getGroup().isEmpty())
                && "eviction".equals(r.getSubResource())
                && "CREATE".equals(r.getOperation());
    }

    /** The answer allowing the request, with the reason as a warning-free message. */
    static AdmissionReview allow(String uid) {
        return review(
                new AdmissionResponseBuilder().withUid(uid).withAllowed(true).build());
    }

    /** The answer holding an eviction back: denied with 429 TooManyRequests and {@code message}. */
    static AdmissionReview retryLater(String uid, String message) {
        return review(new AdmissionResponseBuilder()
                .withUid(uid)
                .withAllowed(false)
                .withStatus(new StatusBuilder()
                        .withCode(429)
                        .withReason("TooManyRequests")
                        .withMessage(message)
                        .build())
                .build());
    }

    private static AdmissionReview review(io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse response) {
        return new AdmissionReviewBuilder()
                .withApiVersion(API_VERSION)
                .withKind("AdmissionReview")
                .withResponse(response)
                .build();
    }
}
