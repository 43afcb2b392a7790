package io.lifeline.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.vertx.http.runtime.RouteConstants;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Every {@code /api} path no resource serves (a typo, or a traversal such as {@code nodes/%2e%2e} that resolves to a
 * path nothing serves) is a 404 problem. The REST layer hands a request it has no method for to the next route, which
 * would be the UI's servlet answering with an HTML page; this route sits just before it.
 */
@ApplicationScoped
public class UnknownApiPaths {

    private final String body;

    UnknownApiPaths(ObjectMapper json) throws JsonProcessingException {
        this.body = json.writeValueAsString(new Problem(
                "/problems/not-found", "Not Found", 404, "no such API path; see /q/openapi for the API", null));
    }

    void register(@Observes Router router) {
        router.route("/api/*").order(RouteConstants.ROUTE_ORDER_DEFAULT - 1).handler(ctx -> {
            if (!ctx.response().ended()) {
                ctx.response()
                        .setStatusCode(404)
                        .putHeader("Content-Type", Problem.MEDIA_TYPE)
                        .end(body);
            }
        });
    }
}
