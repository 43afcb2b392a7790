package io.lifeline.security;

import io.lifeline.domain.event.Event;
import io.lifeline.security.identity.AccessDeniedException;
import io.lifeline.security.identity.Caller;

/**
 * Which events a caller may send. A fleet-wide caller (an unscoped {@code ingest} or {@code operator} token, a
 * connector, a node agent) may send any event. A caller limited to namespaces may send only events about jobs in
 * them (the subject of a job, trainer or scheduler event is {@code namespace/name}); events about nodes and their
 * GPUs (node state, cloud interruption notices, GPU samples and Xids) concern every namespace on the node, so they
 * need a fleet-wide token. An ingest token bound to nodes (a node agent's) sends only node and GPU events of those
 * nodes; one bound to sources (a connector's) sends only events whose CloudEvents {@code source} is one of them.
 */
public final class IngestScope {

    /** The stable code connector answers give an event refused for its subject. */
    public static final String OUT_OF_SCOPE = "out_of_scope";

    private IngestScope() {}

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
        String bound = bindingRefusal(caller, e);
        if (bound != null) {
            return bound;
        }
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

    /** Why a token bound to nodes or sources may not send {@code e}; null when it may (or is not bound). */
    private static String bindingRefusal(Caller caller, Event e) {
        if (!caller.sources().isEmpty() && !caller.sources().contains(e.source())) {
            return "source: '" + TokenBindings.clip(e.source()) + "' is not one of this token's sources "
                    + TokenBindings.shown(caller.sources());
        }
        if (!caller.nodes().isEmpty()) {
            if (!e.type().family().subjectIsNode()) {
                return "type: this token is bound to nodes " + TokenBindings.shown(caller.nodes()) + ": it sends only"
                        + " node and GPU events of them, not " + e.type().wireName();
            }
            if (!caller.nodes().contains(e.subject())) {
                return "subject: node '" + TokenBindings.clip(e.subject()) + "' is not one of this token's nodes "
                        + TokenBindings.shown(caller.nodes());
            }
        }
        return null;
    }
}
