package io.lifeline.action.port;

/**
 * What one call to the cluster did. Calls are idempotent: doing again what is already done answers NOOP.
 *
 * @param result what happened
 * @param detail a sentence for the step history (never a secret)
 */
public record ClusterOutcome(Result result, String detail) {

    /** Typed outcome of a cluster call. */
    public enum Result {
        /** Already as asked; nothing changed. */
        NOOP,
        /** An object was changed (cordon, replicas, suspend, annotation). */
        PATCHED,
        /** The Eviction API accepted the eviction. */
        EVICTED,
        /** The pod was deleted (eviction refused until the deadline, and the action allowed deletion). */
        DELETED,
        /**
         * Refused for now (an eviction refused by a PodDisruptionBudget, HTTP 429; the API server unreachable or
         * answering 500/502/503/504): try again later, before the deadline.
         */
        RETRY_LATER,
        /** The object does not exist. */
        NOT_FOUND,
        /** The call failed for good (forbidden, invalid); the detail says why. */
        FAILED;

        public boolean ok() {
            return this == NOOP || this == PATCHED || this == EVICTED || this == DELETED;
        }
    }

    public static ClusterOutcome of(Result result, String detail) {
        return new ClusterOutcome(result, detail);
    }
}
