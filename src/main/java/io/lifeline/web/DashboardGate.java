package io.lifeline.web;

import io.lifeline.security.DashboardSessions;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;
import java.util.Set;

/**
 * The dashboard's side of the security gate (every path outside {@code /api}, {@code /q}, {@code /metrics} and
 * {@code /auth}), run on the event loop before the servlet container sees the request:
 *
 * <ul>
 *   <li>Only the sign-in page ({@code /login}, {@code /logout}) and its static files are served without a session;
 *       every other request needs the cookie of a session someone is signed in on ({@link DashboardSessions}). Without
 *       one, a page is redirected to the sign-in page, Vaadin's own requests are told the session expired, anything
 *       else gets 401: none of them reaches Vaadin, so none makes a session.</li>
 *   <li>A request body is read here, by the event loop, up to a limit ({@code lifeline.ui.max-body-size}, 413 past
 *       it) and within {@code lifeline.ui.request-timeout} (408 and the connection closed), and handed to the servlet
 *       container whole: a client trickling a body holds no worker thread (the container would wait for it on one).</li>
 * </ul>
 */
final class DashboardGate {

    static final String SESSION_COOKIE = "JSESSIONID";
    /** The order of the route that resumes a request whose body was read here: just before the servlet container's. */
    static final int BEFORE_SERVLETS = 9_998;

    private static final String BODY_READ = "lifeline.dashboard-body-read";
    /** The sign-in form is a token and little else. */
    private static final long SIGN_IN_BODY_LIMIT = 16 * 1024;

    private static final Set<String> SESSION_FREE = Set.of("/login", "/logout", "/favicon.ico", "/robots.txt");

    private final DashboardSessions sessions;
    private final long bodyLimit;
    private final Duration requestTimeout;

    DashboardGate(DashboardSessions sessions, long bodyLimit, Duration requestTimeout) {
        this.sessions = sessions;
        this.bodyLimit = bodyLimit;
        this.requestTimeout = requestTimeout;
    }

    /** Whether {@code path} (canonical, without the root path) is the dashboard's rather than an API's. */
    static boolean dashboard(String path) {
        return !(path.equals("/api")
                || path.startsWith("/api/")
                || path.equals("/q")
                || path.startsWith("/q/")
                || path.equals("/metrics")
                || path.startsWith("/metrics/")
                || path.startsWith("/auth/")
                || path.equals("/auth"));
    }

    /** Served without a session: the sign-in page and what it loads. */
    static boolean sessionFree(String path) {
        return SESSION_FREE.contains(path) || path.startsWith("/styles/") || path.startsWith("/scripts/");
    }

    void handle(RoutingContext ctx, String path, String rootPath) {
        boolean free = sessionFree(path);
        if (!free && !signedIn(ctx)) {
            notSignedIn(ctx, rootPath);
            return;
        }
        readBody(ctx, free ? SIGN_IN_BODY_LIMIT : bodyLimit);
    }

    private boolean signedIn(RoutingContext ctx) {
        for (Cookie c : ctx.request().cookies(SESSION_COOKIE)) {
            if (sessions.isSignedIn(c.getValue())) {
                return true;
            }
        }
        return false;
    }

    private static void notSignedIn(RoutingContext ctx, String rootPath) {
        HttpServerRequest request = ctx.request();
        String vaadin = request.getParam("v-r");
        if ("uidl".equals(vaadin) || "heartbeat".equals(vaadin)) {
            // Vaadin's client reloads the page on this answer, which then lands on the sign-in page.
            Responses.closeAfter(
                    ctx, 200, "application/json; charset=UTF-8", "for(;;);[{\"meta\":{\"sessionExpired\":true}}]");
            return;
        }
        if (HttpMethod.GET.equals(request.method()) || HttpMethod.HEAD.equals(request.method())) {
            ctx.response()
                    .setStatusCode(303)
                    .putHeader("Location", rootPath + "/login")
                    .putHeader("Cache-Control", "no-store")
                    .end();
            return;
        }
        Responses.closeAfter(
                ctx,
                401,
                Problem.MEDIA_TYPE,
                "{\"type\":\"/problems/unauthorized\",\"title\":"
                        + "\"Unauthorized\",\"status\":401,\"detail\":\"sign in first (" + rootPath + "/login)\"}");
    }

    private void readBody(RoutingContext ctx, long limit) {
        HttpServerRequest request = ctx.request();
        if (request.isEnded() || !announcesBody(request)) {
            ctx.next();
            return;
        }
        long announced = length(request);
        if (announced > limit) {
            Responses.closeAfter(
                    ctx,
                    413,
                    Problem.MEDIA_TYPE,
                    "{\"status\":413,\"detail\":\"the body of " + announced + " bytes is larger than the limit of "
                            + limit + " bytes\"}");
            return;
        }
        Vertx vertx = ctx.vertx();
        Buffer body = Buffer.buffer();
        boolean[] done = {false};
        long timer = vertx.setTimer(requestTimeout.toMillis(), t -> {
            if (!done[0]) {
                done[0] = true;
                Responses.closeAfter(
                        ctx,
                        408,
                        Problem.MEDIA_TYPE,
                        "{\"status\":408,\"detail\":\"the body did not " + "arrive within " + requestTimeout.toMillis()
                                + " ms\"}");
            }
        });
        request.handler(chunk -> {
            if (done[0]) {
                return;
            }
            if (body.length() + chunk.length() > limit) {
                done[0] = true;
                vertx.cancelTimer(timer);
                Responses.closeAfter(
                        ctx,
                        413,
                        Problem.MEDIA_TYPE,
                        "{\"status\":413,\"detail\":\"the body is larger " + "than the limit of " + limit
                                + " bytes\"}");
                return;
            }
            body.appendBuffer(chunk);
        });
        request.exceptionHandler(e -> {
            done[0] = true;
            vertx.cancelTimer(timer);
        });
        request.endHandler(v -> {
            if (done[0]) {
                return;
            }
            done[0] = true;
            vertx.cancelTimer(timer);
            // The servlet container takes a body already read as the request's whole input when the request counts
            // as ended (resumeRead makes sure of it).
            ctx.setBody(body);
            ctx.put(BODY_READ, Boolean.TRUE);
            ctx.next();
        });
        if ("100-continue".equalsIgnoreCase(request.getHeader("Expect"))) {
            ctx.response().writeContinue();
        }
        request.resume();
    }

    /** See {@link SecurityGate#routes}: a paused request whose body was read here is resumed, so it counts as ended. */
    static void resumeRead(RoutingContext ctx) {
        if (ctx.get(BODY_READ) != null) {
            ctx.request().resume();
        }
        ctx.next();
    }

    private static boolean announcesBody(HttpServerRequest request) {
        String te = request.getHeader("Transfer-Encoding");
        return length(request) > 0
                || (te != null && te.toLowerCase(java.util.Locale.ROOT).contains("chunked"));
    }

    private static long length(HttpServerRequest request) {
        String value = request.getHeader("Content-Length");
        if (value == null) {
            return -1;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
