package io.lifeline.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lifeline.security.AccessRules;
import io.lifeline.security.CurrentCaller;
import io.lifeline.security.DashboardSessions;
import io.lifeline.security.FailedSignIns;
import io.lifeline.security.OidcAuthenticator;
import io.lifeline.security.SecurityConfig;
import io.lifeline.security.SecurityMetrics;
import io.lifeline.security.TokenBuckets;
import io.lifeline.security.TokenFormat;
import io.lifeline.security.TokenService;
import io.lifeline.security.identity.Caller;
import io.lifeline.security.identity.Role;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.Context;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The one place where every HTTP request is authenticated, authorised and rate limited, before any resource, the UI
 * or a static file sees it. It also puts the security headers on every response.
 *
 * <p>Order of checks: the {@link AccessRules} line for the method and path; if it is open, pass. Otherwise a bearer
 * token is required (401), it must verify (401; 503 when the store cannot be asked and the token is not cached),
 * its role must satisfy the line (403), and for ingest and action creation the token's bucket must have room (429).
 * A client address whose tokens keep failing to verify gets 429 for a token not known from memory, before the store
 * is asked ({@code lifeline.security.rate-limit.unknown-tokens}).
 * The verified {@link Caller} is then attached to the request for {@link CurrentCaller}.
 *
 * <p>Verification is answered from memory when the token is cached; otherwise the store is asked on a worker
 * thread while the request body stays paused, so the event loop never blocks.
 */
@ApplicationScoped
public class SecurityGate {

    /** Routing-context key under which the verified caller travels with the request. */
    static final String CALLER_KEY = CurrentCaller.CALLER_KEY;

    private static final Logger LOG = Logger.getLogger(SecurityGate.class);
    /** Runs before Quarkus' own handlers (compression, body, resources), which use orders from -2 upwards. */
    private static final int FILTER_PRIORITY = 1_000_000;

    private static final String CHALLENGE = "Bearer realm=\"lifeline\"";
    private static final String BEARER = "Bearer ";
    private static final String API_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";
    /** Vaadin needs inline scripts and styles, eval (executeJs) and its push connection; Swagger UI inline setup. */
    private static final String UI_CSP = "default-src 'self'; script-src 'self' 'unsafe-inline' 'unsafe-eval'; "
            + "style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; "
            + "connect-src 'self' ws: wss:; worker-src 'self' blob:; object-src 'none'; base-uri 'self'; "
            + "form-action 'self'; frame-ancestors 'none'";

    private final SecurityConfig config;
    private final TokenService tokens;
    private final SecurityMetrics metrics;
    private final ObjectMapper json;
    private final AccessRules rules;
    private final OidcAuthenticator oidc;
    private final long maxBodyBytes;
    private final Map<AccessRules.RateClass, TokenBuckets> limits = new EnumMap<>(AccessRules.RateClass.class);
    /** Tokens that failed to verify, per client address. */
    private final FailedSignIns failedSignIns;

    private final DashboardGate dashboard;
    private final String rootPath;
    private final Caller unrestricted = Caller.unrestricted("local (security disabled)");

    SecurityGate(
            SecurityConfig config,
            TokenService tokens,
            SecurityMetrics metrics,
            ObjectMapper json,
            OidcAuthenticator oidc,
            FailedSignIns failedSignIns,
            DashboardSessions dashboardSessions,
            @ConfigProperty(name = "lifeline.ui.max-body-size", defaultValue = "1M") MemorySize uiMaxBody,
            @ConfigProperty(name = "lifeline.ui.request-timeout", defaultValue = "10s")
                    java.time.Duration uiRequestTimeout,
            @ConfigProperty(name = "quarkus.http.root-path", defaultValue = "/") String rootPath,
            @ConfigProperty(name = "quarkus.http.limits.max-body-size", defaultValue = "10240K") MemorySize maxBody) {
        this.config = config;
        this.oidc = oidc;
        this.maxBodyBytes = maxBody.asLongValue();
        this.tokens = tokens;
        this.metrics = metrics;
        this.json = json;
        this.rules = AccessRules.standard(config.metricsProtected());
        int maxKeys = config.tokenCache().maxEntries();
        limits.put(
                AccessRules.RateClass.INGEST,
                new TokenBuckets(
                        config.rateLimit().ingest().perSecond(),
                        config.rateLimit().ingest().burst(),
                        maxKeys));
        limits.put(
                AccessRules.RateClass.ACTIONS,
                new TokenBuckets(
                        config.rateLimit().actions().perSecond(),
                        config.rateLimit().actions().burst(),
                        maxKeys));
        this.failedSignIns = failedSignIns;
        this.dashboard = new DashboardGate(dashboardSessions, uiMaxBody.asLongValue(), uiRequestTimeout);
        String root = rootPath.endsWith("/") ? rootPath.substring(0, rootPath.length() - 1) : rootPath;
        this.rootPath = root.startsWith("/") || root.isEmpty() ? root : "/" + root;
    }

    /**
     * Just before the servlet container's route: a request whose body the dashboard gate read is resumed. The REST
     * layer's catch-all route (which the dashboard's paths pass through) pauses it, and a paused request never counts
     * as ended, so the container would wait for a body that was already read.
     */
    void routes(@Observes io.vertx.ext.web.Router router) {
        router.route().order(DashboardGate.BEFORE_SERVLETS).handler(DashboardGate::resumeRead);
    }

    void register(@Observes Filters filters) {
        filters.register(this::handle, FILTER_PRIORITY);
        if (!config.enabled()) {
            LOG.warn("API security is DISABLED (lifeline.security.enabled=false): every request acts as an "
                    + "unrestricted admin. Use this for local experiments only.");
        } else if (oidc.enabled() && config.oidc().externalUrl().isEmpty()) {
            LOG.warn("Single sign-on is on without lifeline.security.oidc.external-url: the redirect URI sent to the "
                    + "identity provider follows each request's Host header. Set it to the dashboard's address.");
        }
        if (config.enabled() && !config.metricsProtected()) {
            LOG.warn("/metrics is OPEN: anyone who can reach this port reads every job, namespace and node it lists "
                    + "(lifeline.security.metrics-protected=false, the quick start's default). Production "
                    + "configuration keeps it behind a viewer token (docs/operations.md, \"Hardening\").");
        }
    }

    /** The rule table in force (for the docs and tests). */
    public AccessRules rules() {
        return rules;
    }

    void handle(RoutingContext ctx) {
        String path = appPath(ctx.normalizedPath());
        String canonical = AccessRules.canonical(path);
        boolean api = canonical.startsWith("/api");
        // Behind a proxy that ends TLS, the scheme is https when Quarkus is told to trust its forwarding headers.
        boolean https =
                ctx.request().isSSL() || "https".equalsIgnoreCase(ctx.request().scheme());
        ctx.addHeadersEndHandler(v -> securityHeaders(ctx.response().headers(), api, https));
        if (!config.enabled()) {
            ctx.put(CALLER_KEY, unrestricted);
            if (DashboardGate.dashboard(canonical)) {
                // Sessions still begin at the sign-in page (which takes any text then): no session per anonymous hit.
                dashboard.handle(ctx, canonical, rootPath);
            } else {
                ctx.next();
            }
            return;
        }
        String uri = ctx.request().uri();
        if (uri != null && uri.toLowerCase(Locale.ROOT).contains("%00")) {
            // No name, id or filter contains a NUL; passed on, it would only reach the database as an error.
            reject(ctx, 400, "invalid-request", "Invalid request", "the URL contains a NUL character (%00)", null);
            return;
        }
        if (canonical.startsWith("/auth/sso") && !singleSignOnHere(ctx, path)) {
            return;
        }
        AccessRules.Rule rule = rules.match(ctx.request().method().name(), path);
        if (rule.kind() == AccessRules.Kind.OPEN) {
            if (refusedAsTooLarge(ctx)) {
                return;
            }
            if (DashboardGate.dashboard(canonical)) {
                dashboard.handle(ctx, canonical, rootPath);
                return;
            }
            ctx.next();
            return;
        }
        String header = ctx.request().getHeader("Authorization");
        if (header == null || header.isBlank()) {
            unauthenticated(
                    ctx,
                    SecurityMetrics.AuthFailure.MISSING,
                    "a bearer token is required "
                            + "(Authorization: Bearer llt_...); see docs/api.md for how to get one");
            return;
        }
        boolean bearer = header.regionMatches(true, 0, BEARER, 0, BEARER.length());
        String raw = bearer ? header.substring(BEARER.length()).trim() : "";
        TokenFormat.Parsed presented = bearer ? TokenFormat.parse(raw) : null;
        if (presented == null && bearer && oidc.enabled() && !raw.startsWith(TokenFormat.PREFIX)) {
            verifyIdentityProviderToken(ctx, rule, raw);
            return;
        }
        if (presented == null) {
            unauthenticated(
                    ctx,
                    SecurityMetrics.AuthFailure.MALFORMED,
                    "the Authorization header does not carry a " + "Lifeline token (Bearer llt_<id>_<secret>)");
            return;
        }
        TokenService.Verification cached = tokens.verifyCached(presented);
        if (cached != null && cached.ok()) {
            authorise(ctx, rule, cached);
            return;
        }
        // An address whose tokens keep failing is refused a token not known to exist, before the store is asked. A
        // token that exists is verified whatever its address did: failures cannot lock people out.
        String address = clientAddress(ctx);
        long wait = failedSignIns.throttled(address);
        if (wait > 0 && !tokens.knownToExist(presented)) {
            if (!tokens.knownIdsReloadDue()) {
                throttled(ctx, wait);
                return;
            }
            // The id may belong to a token made on another replica since the ids were last read: read them again
            // (at most once a second, whatever the flood) and decide then.
            pause(ctx);
            Vertx.currentContext()
                    .executeBlocking(
                            () -> {
                                tokens.reloadKnownIds();
                                return tokens.knownToExist(presented);
                            },
                            false)
                    .onComplete(ar -> {
                        if (ar.succeeded() && ar.result()) {
                            verify(ctx, rule, presented, address);
                        } else {
                            throttled(ctx, wait);
                        }
                    });
            return;
        }
        if (cached != null) {
            noteFailure(address, cached);
            authorise(ctx, rule, cached);
            return;
        }
        pause(ctx);
        verify(ctx, rule, presented, address);
    }

    /** Asks the store on a worker thread; the body stays paused until the answer (the next handler resumes it). */
    private void verify(RoutingContext ctx, AccessRules.Rule rule, TokenFormat.Parsed presented, String address) {
        Context vc = Vertx.currentContext();
        vc.executeBlocking(() -> tokens.verify(presented), false).onComplete(ar -> {
            if (ar.succeeded()) {
                noteFailure(address, ar.result());
                authorise(ctx, rule, ar.result());
            } else {
                LOG.warnf(
                        "Token verification failed unexpectedly: %s", ar.cause().toString());
                unauthenticated(ctx, SecurityMetrics.AuthFailure.UNAVAILABLE, null);
            }
        });
    }

    private static void pause(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        if (!request.isEnded()) {
            request.pause();
        }
    }

    private void throttled(RoutingContext ctx, long waitNanos) {
        metrics.authFailure(SecurityMetrics.AuthFailure.INVALID);
        long seconds = TokenBuckets.retryAfterSeconds(waitNanos);
        reject(
                ctx,
                429,
                "rate-limited",
                "Too many requests",
                "too many tokens that are not valid came from this " + "address; retry after " + seconds + " s",
                Map.of("Retry-After", Long.toString(seconds)));
    }

    /**
     * Single sign-on happens at {@code lifeline.security.oidc.external-url} only: quarkus-oidc builds the redirect URI
     * it sends the provider from the request's scheme and {@code Host}, so a sign-in begun under any other name is
     * sent to the configured one first, and the provider only ever hears of that. A throttled address's callbacks
     * (each costs a code exchange with the provider) are refused; a failed callback counts against its address.
     */
    private boolean singleSignOnHere(RoutingContext ctx, String path) {
        if (!oidc.enabled()) {
            return true;
        }
        String external = config.oidc()
                .externalUrl()
                .map(u -> u.endsWith("/") ? u.substring(0, u.length() - 1) : u)
                .orElse(null);
        if (external != null) {
            String here = ctx.request().scheme() + "://"
                    + (ctx.request().authority() == null
                            ? ""
                            : ctx.request().authority().toString());
            String base = java.net.URI.create(external).getScheme() + "://"
                    + java.net.URI.create(external).getRawAuthority();
            if (!here.equalsIgnoreCase(base)) {
                String query = ctx.request().query();
                ctx.response()
                        .setStatusCode(303)
                        .putHeader("Location", external + path + (query == null ? "" : "?" + query))
                        .putHeader("Cache-Control", "no-store")
                        .end();
                return false;
            }
        }
        String address = clientAddress(ctx);
        boolean callback =
                ctx.request().getParam("code") != null || ctx.request().getParam("error") != null;
        if (callback) {
            long wait = failedSignIns.throttled(address);
            if (wait > 0) {
                throttled(ctx, wait);
                return false;
            }
            ctx.addHeadersEndHandler(v -> {
                int status = ctx.response().getStatusCode();
                String location = ctx.response().headers().get("Location");
                if (status == 401 || status == 403 || (location != null && location.contains("sso=refused"))) {
                    failedSignIns.failed(address);
                }
            });
        }
        return true;
    }

    /** A token that did not verify (unknown id, wrong secret) takes a permit from its address's bucket. */
    private void noteFailure(String address, TokenService.Verification v) {
        if (v.failure() == SecurityMetrics.AuthFailure.INVALID) {
            failedSignIns.failed(address);
        }
    }

    /** The client's address as the server sees it (the proxy's, unless Quarkus is told to trust forwarding headers). */
    private static String clientAddress(RoutingContext ctx) {
        var remote = ctx.request().remoteAddress();
        return remote == null || remote.host() == null ? "unknown" : remote.host();
    }

    /**
     * A bearer JWT from the identity provider: verified by quarkus-oidc (locally, against the provider's cached
     * keys) while the body stays paused. A valid one is accepted whatever its address did; one that fails counts
     * against its address, and while the address is throttled the failure is answered 429.
     */
    private void verifyIdentityProviderToken(RoutingContext ctx, AccessRules.Rule rule, String jwt) {
        pause(ctx);
        String address = clientAddress(ctx);
        Context vc = Vertx.currentContext();
        oidc.verifyBearer(jwt)
                .subscribe()
                .with(
                        out -> vc.runOnContext(v -> {
                            if (out.ok()) {
                                authorise(ctx, rule, TokenService.Verification.ok(out.caller()));
                            } else if (out.status() == 403) {
                                metrics.denied();
                                reject(ctx, 403, "forbidden", "Forbidden", out.detail(), null);
                            } else {
                                long wait = failedSignIns.throttled(address);
                                failedSignIns.failed(address);
                                if (wait > 0) {
                                    throttled(ctx, wait);
                                } else {
                                    unauthenticated(ctx, SecurityMetrics.AuthFailure.INVALID, out.detail());
                                }
                            }
                        }),
                        e -> vc.runOnContext(v -> unauthenticated(ctx, SecurityMetrics.AuthFailure.UNAVAILABLE, null)));
    }

    private void authorise(RoutingContext ctx, AccessRules.Rule rule, TokenService.Verification v) {
        if (!v.ok()) {
            unauthenticated(ctx, v.failure(), null);
            return;
        }
        Caller caller = v.caller();
        if (!rule.allows(caller)) {
            metrics.denied();
            String detail = rule.kind() == AccessRules.Kind.DENY
                    ? "no role may " + ctx.request().method().name() + " this path"
                    : rule.fleetWide() && rule.roles().stream().anyMatch(caller::has)
                            ? "this path is about what every namespace shares (nodes, GPUs, connectors): it needs a fleet-wide "
                                    + caller.role().wireName() + " token (token '" + caller.name() + "' is limited to "
                                    + caller.namespaces() + ")"
                            : "the " + caller.role().wireName() + " role may not "
                                    + ctx.request().method().name() + " this path; it needs " + neededRoles(rule);
            reject(ctx, 403, "forbidden", "Forbidden", detail, null);
            return;
        }
        if (rule.rate() != null) {
            long wait = limits.get(rule.rate()).tryAcquire(caller.rateKey(), System.nanoTime());
            if (wait > 0) {
                metrics.rateLimited(rule.rate());
                long seconds = TokenBuckets.retryAfterSeconds(wait);
                reject(
                        ctx,
                        429,
                        "rate-limited",
                        "Too many requests",
                        "this token sent more "
                                + rule.rate().name().toLowerCase(Locale.ROOT) + " requests than its rate limit allows; "
                                + "retry after " + seconds + " s",
                        Map.of("Retry-After", Long.toString(seconds)));
                return;
            }
        }
        // After authentication: who may not call learns nothing more than that.
        if (refusedAsTooLarge(ctx)) {
            return;
        }
        tokens.used(caller);
        ctx.put(CALLER_KEY, caller);
        ctx.next();
    }

    private void unauthenticated(RoutingContext ctx, SecurityMetrics.AuthFailure reason, String detail) {
        metrics.authFailure(reason);
        if (reason == SecurityMetrics.AuthFailure.UNAVAILABLE) {
            reject(
                    ctx,
                    503,
                    "unavailable",
                    "Temporarily unavailable",
                    "the token cannot be checked now (the store is unreachable); retry shortly",
                    Map.of("Retry-After", "5"));
            return;
        }
        String d = detail;
        if (d == null) {
            switch (reason) {
                case REVOKED:
                    d = "this token has been revoked";
                    break;
                case EXPIRED:
                    d = "this token has expired";
                    break;
                default:
                    d = "this token is not valid";
            }
        }
        String challenge =
                reason == SecurityMetrics.AuthFailure.MISSING ? CHALLENGE : CHALLENGE + ", error=\"invalid_token\"";
        reject(ctx, 401, "unauthorized", "Unauthorized", d, Map.of("WWW-Authenticate", challenge));
    }

    private void reject(
            RoutingContext ctx, int status, String type, String title, String detail, Map<String, String> headers) {
        HttpServerResponse response = ctx.response();
        if (response.ended()) {
            return;
        }
        String body = problem(status, type, title, detail);
        response.setStatusCode(status).putHeader("Content-Type", Problem.MEDIA_TYPE);
        if (headers != null) {
            headers.forEach(response::putHeader);
        }
        HttpServerRequest request = ctx.request();
        // A body not read yet (perhaps never sent: "Expect: 100-continue") would be taken for the next request on
        // this connection, so an HTTP/1 connection is closed after the answer, as for 413.
        boolean closeAfter = !request.isEnded() && request.version() != HttpVersion.HTTP_2;
        if (closeAfter) {
            response.putHeader("Connection", "close");
        }
        response.end(body).onComplete(done -> {
            if (closeAfter) {
                request.connection().close();
            }
        });
    }

    /**
     * A body announced over the limit, refused before anything reads it, the way the server's own limit does it: the
     * connection closes once the answer is out, so an unread body is never taken for the next request. The answer is
     * a problem document, except to a client waiting for "100 Continue": the JDK's HttpClient (JDK-8286171) then
     * waits for ever on a final answer that has a body, so those get the bare 413 the server's limit gives.
     */
    private boolean refusedAsTooLarge(RoutingContext ctx) {
        long announced = contentLength(ctx.request());
        if (announced <= maxBodyBytes) {
            return false;
        }
        tooLarge(ctx, announced);
        return true;
    }

    private void tooLarge(RoutingContext ctx, long announced) {
        HttpServerRequest request = ctx.request();
        HttpServerResponse response = ctx.response();
        response.setStatusCode(413).putHeader("Connection", "close");
        response.endHandler(v -> request.connection().close());
        if ("100-continue".equalsIgnoreCase(request.getHeader("Expect"))) {
            response.end();
            return;
        }
        response.putHeader("Content-Type", Problem.MEDIA_TYPE)
                .end(problem(
                        413,
                        "payload-too-large",
                        "Payload too large",
                        "the body of " + announced + " bytes is larger than the limit of " + maxBodyBytes + " bytes"));
    }

    private String problem(int status, String type, String title, String detail) {
        try {
            return json.writeValueAsString(new Problem("/problems/" + type, title, status, detail, null));
        } catch (JsonProcessingException e) {
            return "{\"status\":" + status + "}";
        }
    }

    private static long contentLength(HttpServerRequest request) {
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

    private static String neededRoles(AccessRules.Rule rule) {
        return String.join(
                " or ", rule.roles().stream().map(Role::wireName).sorted().toList());
    }

    /** The path without {@code quarkus.http.root-path}, as the rule table names it. */
    String appPath(String normalized) {
        if (normalized == null) {
            return "/";
        }
        if (rootPath.isEmpty()) {
            return normalized;
        }
        if (normalized.equals(rootPath)) {
            return "/";
        }
        return normalized.startsWith(rootPath + "/") ? normalized.substring(rootPath.length()) : normalized;
    }

    static void securityHeaders(MultiMap h, boolean api, boolean https) {
        Cookies.harden(h, https);
        h.set("X-Content-Type-Options", "nosniff");
        h.set("X-Frame-Options", "DENY");
        // same-origin, not no-referrer: under no-referrer browsers send "Origin: null" with the sign-in form, which
        // then cannot be told from a form posted by another site. Other sites still get no referrer.
        h.set("Referrer-Policy", "same-origin");
        h.set("Content-Security-Policy", api ? API_CSP : UI_CSP);
        if (api && !h.contains("Cache-Control")) {
            h.set("Cache-Control", "no-store");
        }
        if (https) {
            h.set("Strict-Transport-Security", "max-age=31536000");
        }
    }
}
