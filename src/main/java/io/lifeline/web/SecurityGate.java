package io.lifeline.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lifeline.security.AccessRules;
import io.lifeline.security.Caller;
import io.lifeline.security.CurrentCaller;
import io.lifeline.security.OidcAuthenticator;
import io.lifeline.security.Role;
import io.lifeline.security.SecurityConfig;
import io.lifeline.security.SecurityMetrics;
import io.lifeline.security.TokenBuckets;
import io.lifeline.security.TokenFormat;
import io.lifeline.security.TokenService;
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
    private final TokenBuckets failedTokens;
    private final String rootPath;
    private final Caller unrestricted = Caller.unrestricted("local (security disabled)");

    SecurityGate(SecurityConfig config, TokenService tokens, SecurityMetrics metrics, ObjectMapper json,
                 OidcAuthenticator oidc,
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
        limits.put(AccessRules.RateClass.INGEST, new TokenBuckets(config.rateLimit().ingest().perSecond(),
                config.rateLimit().ingest().burst(), maxKeys));
        limits.put(AccessRules.RateClass.ACTIONS, new TokenBuckets(config.rateLimit().actions().perSecond(),
                config.rateLimit().actions().burst(), maxKeys));
        failedTokens = new TokenBuckets(config.rateLimit().unknownTokens().perSecond(),
                config.rateLimit().unknownTokens().burst(), maxKeys);
        String root = rootPath.endsWith("/") ? rootPath.substring(0, rootPath.length() - 1) : rootPath;
        this.rootPath = root.startsWith("/") || root.isEmpty() ? root : "/" + root;
    }

    void register(@Observes Filters filters) {
        filters.register(this::handle, FILTER_PRIORITY);
        if (!config.enabled()) {
            LOG.warn("API security is DISABLED (lifeline.security.enabled=false): every request acts as an "
                    + "unrestricted admin. Use this for local experiments only.");
        }
    }

    /** The rule table in force (for the docs and tests). */
    public AccessRules rules() {
        return rules;
    }

    void handle(RoutingContext ctx) {
        String path = appPath(ctx.normalizedPath());
        boolean api = AccessRules.canonical(path).startsWith("/api");
        boolean https = ctx.request().isSSL();
        ctx.addHeadersEndHandler(v -> securityHeaders(ctx.response().headers(), api, https));
        if (!config.enabled()) {
            ctx.put(CALLER_KEY, unrestricted);
            ctx.next();
            return;
        }
        String uri = ctx.request().uri();
        if (uri != null && uri.toLowerCase(Locale.ROOT).contains("%00")) {
            // No name, id or filter contains a NUL; passed on, it would only reach the database as an error.
            reject(ctx, 400, "invalid-request", "Invalid request", "the URL contains a NUL character (%00)", null);
            return;
        }
        AccessRules.Rule rule = rules.match(ctx.request().method().name(), path);
        if (rule.kind() == AccessRules.Kind.OPEN) {
            if (refusedAsTooLarge(ctx)) {
                return;
            }
            ctx.next();
            return;
        }
        String header = ctx.request().getHeader("Authorization");
        if (header == null || header.isBlank()) {
            unauthenticated(ctx, SecurityMetrics.AuthFailure.MISSING, "a bearer token is required "
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
            unauthenticated(ctx, SecurityMetrics.AuthFailure.MALFORMED, "the Authorization header does not carry a "
                    + "Lifeline token (Bearer llt_<id>_<secret>)");
            return;
        }
        TokenService.Verification cached = tokens.verifyCached(presented);
        if (cached != null && cached.ok()) {
            authorise(ctx, rule, cached);
            return;
        }
        // An address whose tokens keep failing is refused before anything else, above all before the store is asked.
        String address = clientAddress(ctx);
        long wait = failedTokens.waitFor(address, System.nanoTime());
        if (wait > 0 && !tokens.seenBefore(presented)) {
            metrics.authFailure(SecurityMetrics.AuthFailure.INVALID);
            long seconds = TokenBuckets.retryAfterSeconds(wait);
            reject(ctx, 429, "rate-limited", "Too many requests", "too many tokens that are not valid came from this "
                    + "address; retry after " + seconds + " s", Map.of("Retry-After", Long.toString(seconds)));
            return;
        }
        if (cached != null) {
            noteFailure(address, cached);
            authorise(ctx, rule, cached);
            return;
        }
        // Keep the body where it is while a worker asks the store; the next handler resumes reading it.
        HttpServerRequest request = ctx.request();
        if (!request.isEnded()) {
            request.pause();
        }
        Context vc = Vertx.currentContext();
        vc.executeBlocking(() -> tokens.verify(presented), false).onComplete(ar -> {
            if (ar.succeeded()) {
                noteFailure(address, ar.result());
                authorise(ctx, rule, ar.result());
            } else {
                LOG.warnf("Token verification failed unexpectedly: %s", ar.cause().toString());
                unauthenticated(ctx, SecurityMetrics.AuthFailure.UNAVAILABLE, null);
            }
        });
    }

    /** A token that did not verify (unknown id, wrong secret) takes a permit from its address's bucket. */
    private void noteFailure(String address, TokenService.Verification v) {
        if (v.failure() == SecurityMetrics.AuthFailure.INVALID) {
            failedTokens.tryAcquire(address, System.nanoTime());
        }
    }

    /** The client's address as the server sees it (the proxy's, unless Quarkus is told to trust forwarding headers). */
    private static String clientAddress(RoutingContext ctx) {
        var remote = ctx.request().remoteAddress();
        return remote == null || remote.host() == null ? "unknown" : remote.host();
    }

    /** A bearer JWT from the identity provider: verified by quarkus-oidc while the body stays paused. */
    private void verifyIdentityProviderToken(RoutingContext ctx, AccessRules.Rule rule, String jwt) {
        HttpServerRequest request = ctx.request();
        if (!request.isEnded()) {
            request.pause();
        }
        Context vc = Vertx.currentContext();
        oidc.verifyBearer(jwt).subscribe().with(out -> vc.runOnContext(v -> {
            if (out.ok()) {
                authorise(ctx, rule, TokenService.Verification.ok(out.caller()));
            } else if (out.status() == 403) {
                metrics.denied();
                reject(ctx, 403, "forbidden", "Forbidden", out.detail(), null);
            } else {
                unauthenticated(ctx, SecurityMetrics.AuthFailure.INVALID, out.detail());
            }
        }), e -> vc.runOnContext(v -> unauthenticated(ctx, SecurityMetrics.AuthFailure.UNAVAILABLE, null)));
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
                    : "the " + caller.role().wireName() + " role may not " + ctx.request().method().name()
                            + " this path; it needs " + neededRoles(rule);
            reject(ctx, 403, "forbidden", "Forbidden", detail, null);
            return;
        }
        if (rule.rate() != null) {
            long wait = limits.get(rule.rate()).tryAcquire(caller.rateKey(), System.nanoTime());
            if (wait > 0) {
                metrics.rateLimited(rule.rate());
                long seconds = TokenBuckets.retryAfterSeconds(wait);
                reject(ctx, 429, "rate-limited", "Too many requests", "this token sent more "
                        + rule.rate().name().toLowerCase(Locale.ROOT) + " requests than its rate limit allows; "
                        + "retry after " + seconds + " s", Map.of("Retry-After", Long.toString(seconds)));
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
            reject(ctx, 503, "unavailable", "Temporarily unavailable",
                    "the token cannot be checked now (the store is unreachable); retry shortly", Map.of("Retry-After", "5"));
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
        String challenge = reason == SecurityMetrics.AuthFailure.MISSING ? CHALLENGE : CHALLENGE + ", error=\"invalid_token\"";
        reject(ctx, 401, "unauthorized", "Unauthorized", d, Map.of("WWW-Authenticate", challenge));
    }

    private void reject(RoutingContext ctx, int status, String type, String title, String detail, Map<String, String> headers) {
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
        response.putHeader("Content-Type", Problem.MEDIA_TYPE).end(problem(413, "payload-too-large", "Payload too large",
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
        return String.join(" or ", rule.roles().stream().map(Role::wireName).sorted().toList());
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
        h.set("X-Content-Type-Options", "nosniff");
        h.set("X-Frame-Options", "DENY");
        h.set("Referrer-Policy", "no-referrer");
        h.set("Content-Security-Policy", api ? API_CSP : UI_CSP);
        if (api && !h.contains("Cache-Control")) {
            h.set("Cache-Control", "no-store");
        }
        if (https) {
            h.set("Strict-Transport-Security", "max-age=31536000");
        }
    }
}
