package io.lifeline.security;

import io.lifeline.security.identity.Caller;
import io.quarkus.arc.Arc;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The caller of the HTTP request being served. Inject this (it is safe in singletons such as REST resources) and
 * call {@link #get()} where the answer is needed:
 *
 * <pre>{@code
 * currentCaller.get().requireActOnNamespace(job.namespace());
 * }</pre>
 *
 * <p>Outside a request (a scheduler, the Kafka consumer) and on open endpoints it answers {@link Caller#anonymous()},
 * which may do nothing that needs a role.
 */
@ApplicationScoped
public class CurrentCaller {

    /** Where the security gate puts the authenticated caller in the request's routing context. */
    public static final String CALLER_KEY = "io.lifeline.security.caller";

    private final CurrentVertxRequest request;

    CurrentCaller(CurrentVertxRequest request) {
        this.request = request;
    }

    /** The verified caller of the current request, or the anonymous caller. */
    public Caller get() {
        if (!Arc.container().requestContext().isActive()) {
            return Caller.anonymous();
        }
        RoutingContext rc = request.getCurrent();
        Caller c = rc == null ? null : rc.get(CALLER_KEY);
        return c == null ? Caller.anonymous() : c;
    }
}
