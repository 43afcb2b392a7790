package io.lifeline.demo;

/**
 * What one cluster call on the simulated fleet did (cordon, eviction, replicas, suspension, restore annotation),
 * in the terms a Kubernetes API server would answer. Doing again what is already done answers {@link Kind#NOOP}.
 *
 * @param kind   what happened
 * @param detail a sentence for the caller's history
 */
public record SimOutcome(Kind kind, String detail) {

    /** Typed outcome of a simulated cluster call. */
    public enum Kind {
        /** Already as asked. */
        NOOP,
        /** The node or job was changed. */
        PATCHED,
        /** The pod was evicted. */
        EVICTED,
        /** No such node, pod or job. */
        NOT_FOUND,
        /** Refused for good; the detail says why. */
        FAILED
    }

    static SimOutcome of(Kind kind, String detail) {
        return new SimOutcome(kind, detail);
    }
}
