package io.lifeline.connector.outbound.kube;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.lifeline.action.port.ClusterOutcome;
import io.lifeline.action.port.ClusterOutcome.Result;

/** The one table turning API server answers into outcomes: what a refused or failed call means for the caller. */
final class Outcomes {

    private static final int MAX_DETAIL = 300;

    private Outcomes() {}

    static ClusterOutcome of(Result r, String detail) {
        return ClusterOutcome.of(r, detail);
    }

    /** An API error for {@code what} (for example {@code "cordon node gpu-1"}). */
    static ClusterOutcome failure(String what, KubernetesClientException e) {
        int code = e.getCode();
        String why = reason(e);
        return switch (code) {
            case 404 -> of(Result.NOT_FOUND, what + ": not found");
            case 429 -> of(Result.RETRY_LATER, what + ": refused for now (HTTP 429): " + why);
            case 403 -> of(Result.FAILED, what + ": forbidden (check Lifeline's RBAC): " + why);
            // Unreachable, overloaded or restarting: the same call may well succeed in a moment.
            case 0 -> of(Result.RETRY_LATER, what + ": API server unreachable: " + why);
            case 500, 502, 503, 504 ->
                of(Result.RETRY_LATER, what + ": API server unavailable (HTTP " + code + "): " + why);
            default -> of(Result.FAILED, what + ": HTTP " + code + ": " + why);
        };
    }

    /** Any other failure (the client could not even ask). */
    static ClusterOutcome failure(String what, RuntimeException e) {
        if (e instanceof KubernetesClientException k) {
            return failure(what, k);
        }
        return of(Result.FAILED, what + ": " + shorten(e.toString()));
    }

    private static String reason(KubernetesClientException e) {
        String m = e.getStatus() != null && e.getStatus().getMessage() != null
                ? e.getStatus().getMessage()
                : e.getMessage();
        return shorten(m == null ? "no message" : m);
    }

    private static String shorten(String s) {
        return s.length() <= MAX_DETAIL ? s : s.substring(0, MAX_DETAIL - 3) + "...";
    }

    /** {@code namespace/name} split in two; null when it is not of that form. */
    static String[] job(String job) {
        if (job == null) {
            return null;
        }
        int slash = job.indexOf('/');
        if (slash <= 0 || slash == job.length() - 1 || job.indexOf('/', slash + 1) >= 0) {
            return null;
        }
        return new String[] {job.substring(0, slash), job.substring(slash + 1)};
    }
}
