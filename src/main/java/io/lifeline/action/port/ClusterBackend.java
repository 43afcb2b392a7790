package io.lifeline.action.port;

/**
 * One cluster the actions may act on (Kubernetes through the connector, the demo fleet's simulated cluster). The
 * application's one {@link ClusterActions} bean sends each call to the available backend of lowest
 * {@link #precedence()}, chosen per call (the demo starts after the application does).
 */
public interface ClusterBackend extends ClusterActions {

    /** Lower wins when several are available: a real cluster before a simulated one. */
    int precedence();
}
