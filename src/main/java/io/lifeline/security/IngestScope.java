package io.lifeline.security;

import io.lifeline.domain.event.Event;

/**
 * Which events a caller may send. A fleet-wide caller (an unscoped {@code ingest} or {@code operator} token, a
 * connector, a node agent) may send any event. A caller limited to namespaces may send only events about jobs in
 * them (the subject of a job, trainer or scheduler event is {@code namespace/name}); events about nodes and their
 * GPUs (node state, cloud interruption notices, GPU samples and Xids) concern every namespace on the node, so they
 * need a fleet-wide token.
 */
public final class IngestScope {

    /** The stable code connector answers give an event refused for its subject. */
    public static final String OUT_OF_SCOPE = "out_of_scope";

    private IngestScope() {
    }

    /** Whether {@code caller} may send events about nodes (node, GPU and cloud-notice events). */
    public static boolean maySendNodeEvents(Caller caller) {
        return caller.isFleetWide();
    }

    /** Throws {@link AccessDeniedException} unless {@link #maySendNodeEvents}: for endpoints that only make node events. */
    public static void requireNodeEvents(Caller caller, String what) {
        if (!maySendNodeEvents(caller)) {
            throw new AccessDeniedException(what + " are about nodes shared by every namespace: they need a fleet-wide "
                    + "ingest token (token '" + caller.name() + "' is limited to " + caller.namespaces() + ")");
        }
    }

    /** Why {@code caller} may not send {@code e}, naming the field; {@code null} when it may. */
    public static String refusal(Caller caller, Event e) {
        if (caller.isFleetWide()) {
            return null;
        }
        if (!caller.isAuthenticated()) {
            return "subject: sending events needs an ingest or operator token";
        }
        if (e.type().family().subjectIsNode()) {
            return "type: " + e.type().wireName() + " events are about a node shared by every namespace; they need a "
                    + "fleet-wide ingest token (this token is limited to " + caller.namespaces() + ")";
        }
        String subject = e.subject();
        int slash = subject.indexOf('/');
        String ns = slash > 0 ? subject.substring(0, slash) : null;
        if (ns == null || !caller.namespaces().contains(ns)) {
            return "subject: '" + subject + "' is not in this token's namespaces " + caller.namespaces();
        }
        return null;
    }
}
