package io.lifeline.web;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;

/** Answers given by the gate itself, before anything has read the request's body. */
final class Responses {

    private Responses() {}

    /**
     * Answers and, on HTTP/1, closes the connection once the answer is out when the request's body was not read: it
     * would otherwise be taken for the next request on the connection.
     */
    static void closeAfter(RoutingContext ctx, int status, String contentType, String body) {
        HttpServerResponse response = ctx.response();
        if (response.ended()) {
            return;
        }
        HttpServerRequest request = ctx.request();
        boolean close = !request.isEnded() && request.version() != HttpVersion.HTTP_2;
        response.setStatusCode(status).putHeader("Content-Type", contentType).putHeader("Cache-Control", "no-store");
        if (close) {
            response.putHeader("Connection", "close");
        }
        response.end(body).onComplete(done -> {
            if (close) {
                request.connection().close();
            }
        });
    }
}
