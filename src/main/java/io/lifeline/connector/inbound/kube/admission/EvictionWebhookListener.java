package io.lifeline.connector.inbound.kube.admission;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.lifeline.security.TokenBuckets;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.core.net.SSLOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;

/**
 * The eviction webhook's own HTTPS listener ({@code lifeline.eviction-gate.listener.*}), apart from the API and
 * dashboard's port, as Kubernetes webhooks are deployed: TLS, and the API server's client certificate required in
 * the handshake, so nobody else gets as far as HTTP. What a client that does get through can cost is bounded too:
 *
 * <ul>
 *   <li>at most {@code max-connections} open connections; more are closed at once;</li>
 *   <li>a global rate limit: past it a review is answered 429 before its body is read (the API server then applies
 *       the webhook's {@code failurePolicy: Ignore}: the eviction goes through, as without the gate);</li>
 *   <li>the body is read by the event loop, up to {@code max-body-size} (413 past it), within
 *       {@code request-timeout} of the request's start (408 and the connection closed otherwise): a slow body holds
 *       no thread, and none of the API's worker threads is ever used;</li>
 *   <li>decisions run on {@code workers} threads of their own; a review that finds them all busy with a queue as
 *       long again is allowed at once (fails open, counted {@code unknown}).</li>
 * </ul>
 *
 * The certificate files are read again every {@code certificate-reload-period}: cert-manager renews them in place.
 */
@ApplicationScoped
public class EvictionWebhookListener {

    static final String PATH = "/admission/v1/evictions";
    private static final Logger LOG = Logger.getLogger(EvictionWebhookListener.class);

    private final EvictionGateConfig config;
    private final EvictionGateConfig.Listener settings;
    private final Vertx vertx;
    private final ObjectMapper json;
    private final EvictionAdmission admission;
    private final TokenBuckets rate;
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger deciding = new AtomicInteger();
    private HttpServer server;
    private WorkerExecutor workers;
    private long reloadTimer = -1;

    EvictionWebhookListener(EvictionGateConfig config, Vertx vertx, ObjectMapper json, EvictionAdmission admission) {
        this.config = config;
        this.settings = config.listener();
        this.vertx = vertx;
        this.json = json;
        this.admission = admission;
        this.rate = new TokenBuckets(settings.ratePerSecond(), settings.rateBurst(), 1);
    }

    void onStart(@Observes StartupEvent ev) throws Exception {
        if (!config.enabled()) {
            return;
        }
        HttpServerOptions options = options();
        workers = vertx.createSharedWorkerExecutor("lifeline-admission", Math.max(1, settings.workers()));
        Router router = Router.router(vertx);
        // Two routes: Vert.x puts a body handler first on its route, and the rate limit must come before the body.
        router.post(PATH).handler(this::admit);
        router.post(PATH)
                .handler(BodyHandler.create(false)
                        .setBodyLimit(settings.maxBodySize().asLongValue()))
                .handler(this::decide);
        router.route().handler(ctx -> ctx.response().setStatusCode(404).end());
        router.route().failureHandler(ctx -> {
            if (ctx.statusCode() == 413) {
                admission.refused(EvictionAdmission.Refusal.TOO_LARGE);
                refuse(
                        ctx,
                        413,
                        "the body is larger than " + settings.maxBodySize().asLongValue() + " bytes");
            } else if (!ctx.response().ended()) {
                refuse(ctx, ctx.statusCode() > 0 ? ctx.statusCode() : 500, "the review could not be read");
            }
        });
        server = vertx.createHttpServer(options)
                .connectionHandler(conn -> {
                    // The connection's one close handler is this count's: nothing else may set it, or the count only
                    // grows.
                    conn.closeHandler(v -> connections.decrementAndGet());
                    if (connections.incrementAndGet() > settings.maxConnections()) {
                        conn.close();
                    }
                })
                .requestHandler(router);
        server.listen().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        long period = settings.certificateReloadPeriod().toMillis();
        if (period > 0) {
            reloadTimer = vertx.setPeriodic(period, t -> reloadCertificates());
        }
        LOG.infof(
                "Eviction webhook listening on https://%s:%d%s (client certificate %s, body at most %d bytes, "
                        + "request timeout %s, at most %d connections, %s reviews/s)",
                settings.host(),
                server.actualPort(),
                PATH,
                settings.clientAuth() == EvictionGateConfig.ClientAuth.REQUIRED ? "required" : "NOT required",
                settings.maxBodySize().asLongValue(),
                settings.requestTimeout(),
                settings.maxConnections(),
                settings.ratePerSecond());
    }

    void onStop(@Observes ShutdownEvent ev) {
        if (reloadTimer >= 0) {
            vertx.cancelTimer(reloadTimer);
        }
        if (server != null) {
            server.close();
        }
        if (workers != null) {
            workers.close();
        }
    }

    /** The port it listens on (the real one when configured as 0), or -1 when it does not run. */
    public int port() {
        return server == null ? -1 : server.actualPort();
    }

    /** Open connections now (tests). */
    int connections() {
        return connections.get();
    }

    private HttpServerOptions options() {
        String cert = settings.certificateFile()
                .orElseThrow(
                        () -> new IllegalStateException(
                                "lifeline.eviction-gate.listener.certificate-file is required while the eviction gate is enabled"));
        String key = settings.keyFile()
                .orElseThrow(() -> new IllegalStateException(
                        "lifeline.eviction-gate.listener.key-file is required while the eviction gate is enabled"));
        HttpServerOptions o = new HttpServerOptions()
                .setHost(settings.host())
                .setPort(settings.port())
                .setSsl(true)
                .setKeyCertOptions(new PemKeyCertOptions().setCertPath(cert).setKeyPath(key))
                .setSslHandshakeTimeout(settings.requestTimeout().toMillis())
                .setSslHandshakeTimeoutUnit(TimeUnit.MILLISECONDS)
                // A connection that sends nothing for this long is closed; the request timeout bounds a slow one.
                .setIdleTimeout((int) Math.max(1, settings.requestTimeout().toSeconds() * 6))
                .setIdleTimeoutUnit(TimeUnit.SECONDS)
                .setMaxInitialLineLength(1024)
                .setMaxHeaderSize(8192)
                .setMaxFormAttributeSize(0);
        if (settings.clientAuth() == EvictionGateConfig.ClientAuth.REQUIRED) {
            String ca = settings.clientCaFile()
                    .orElseThrow(() -> new IllegalStateException(
                            "lifeline.eviction-gate.listener.client-ca-file is required (the CA of the API server's client "
                                    + "certificate), or set lifeline.eviction-gate.listener.client-auth=none"));
            o.setClientAuth(ClientAuth.REQUIRED).setTrustOptions(new PemTrustOptions().addCertPath(ca));
        } else {
            LOG.warn("The eviction webhook requires no client certificate (lifeline.eviction-gate.listener.client-auth="
                    + "none): anyone who reaches its port can ask for checkpoints; keep it behind a NetworkPolicy");
        }
        return o;
    }

    private void reloadCertificates() {
        HttpServerOptions o;
        try {
            o = options();
        } catch (RuntimeException e) {
            LOG.warnf("Eviction webhook: certificates not reloaded: %s", e.getMessage());
            return;
        }
        SSLOptions ssl =
                new SSLOptions().setKeyCertOptions(o.getKeyCertOptions()).setTrustOptions(o.getTrustOptions());
        server.updateSSLOptions(ssl)
                .onFailure(e -> LOG.warnf("Eviction webhook: certificates not reloaded: %s", e.toString()));
    }

    /** Before the body: the rate limit and the request timeout. */
    private void admit(RoutingContext ctx) {
        long wait = rate.tryAcquire("reviews", System.nanoTime());
        if (wait > 0) {
            admission.refused(EvictionAdmission.Refusal.RATE_LIMITED);
            refuse(ctx, 429, "too many reviews; retry after " + TokenBuckets.retryAfterSeconds(wait) + " s");
            return;
        }
        long timer = vertx.setTimer(settings.requestTimeout().toMillis(), t -> {
            if (!ctx.response().ended()) {
                admission.refused(EvictionAdmission.Refusal.TIMEOUT);
                refuse(ctx, 408, "the request did not arrive within " + settings.requestTimeout());
            }
        });
        ctx.addEndHandler(v -> vertx.cancelTimer(timer));
        ctx.response().closeHandler(v -> vertx.cancelTimer(timer));
        ctx.next();
    }

    private void decide(RoutingContext ctx) {
        Buffer body = ctx.body().buffer();
        AdmissionReview in;
        try {
            in = json.readValue(body == null ? "" : body.toString(StandardCharsets.UTF_8), AdmissionReview.class);
        } catch (Exception e) {
            answer(ctx, 400, problem("the body is not an AdmissionReview (admission.k8s.io/v1)"));
            return;
        }
        if (deciding.incrementAndGet() > 2 * Math.max(1, settings.workers())) {
            deciding.decrementAndGet();
            // Every decision thread busy and as many waiting: allowed now rather than making the API server wait.
            try {
                answer(ctx, 200, admission.busy(in));
            } catch (IllegalArgumentException e) {
                answer(ctx, 400, problem(e.getMessage()));
            }
            return;
        }
        workers.executeBlocking(() -> admission.answer(in), false).onComplete(ar -> {
            deciding.decrementAndGet();
            if (ar.succeeded()) {
                answer(ctx, 200, ar.result());
            } else if (ar.cause() instanceof IllegalArgumentException e) {
                answer(ctx, 400, problem(e.getMessage()));
            } else {
                LOG.warnf("Eviction webhook: a review failed: %s", ar.cause().toString());
                answer(ctx, 500, problem("the review could not be decided"));
            }
        });
    }

    private void answer(RoutingContext ctx, int status, Object body) {
        if (ctx.response().ended()) {
            return;
        }
        String text;
        try {
            text = json.writeValueAsString(body);
        } catch (Exception e) {
            text = "{}";
            status = 500;
        }
        ctx.response()
                .setStatusCode(status)
                .putHeader("Content-Type", status == 200 ? "application/json" : "application/problem+json")
                .end(text);
    }

    private static java.util.Map<String, Object> problem(String detail) {
        return java.util.Map.of("title", "Bad request", "detail", detail);
    }

    /** Answers and closes the connection: a body not read would otherwise be taken for the next request. */
    private static void refuse(RoutingContext ctx, int status, String detail) {
        HttpServerRequest request = ctx.request();
        ctx.response()
                .setStatusCode(status)
                .putHeader("Connection", "close")
                .putHeader("Content-Type", "application/problem+json")
                .end("{\"status\":" + status + ",\"detail\":\"" + detail + "\"}")
                .onComplete(v -> request.connection().close());
    }
}
