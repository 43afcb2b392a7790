package io.lifeline.connector.inbound.scrape;

import io.lifeline.config.ScrapeConfig;
import io.lifeline.connector.Translation;
import io.lifeline.connector.inbound.dcgm.DcgmScrape;
import io.lifeline.connector.inbound.dcgm.DcgmScrapeTranslator;
import io.lifeline.connector.inbound.exposition.Exposition;
import io.lifeline.connector.inbound.exposition.ExpositionParser;
import io.lifeline.connector.inbound.exposition.Format;
import io.lifeline.connector.inbound.pipeline.ConnectorIngest;
import io.lifeline.connector.inbound.pipeline.ConnectorMetrics;
import io.lifeline.connector.inbound.pipeline.ConnectorSink;
import io.lifeline.domain.event.Event;
import io.lifeline.platform.LogContext;
import io.lifeline.platform.Threads;
import io.lifeline.runtime.IngestOpened;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jboss.logging.Logger;

/**
 * Scrapes dcgm-exporter endpoints on an interval and feeds what they report ({@code gpu.sample}, {@code gpu.xid})
 * to the pipeline.
 *
 * <p><b>Threads.</b> A small scheduled pool ({@code lifeline.connectors.dcgm.threads}) fires each endpoint's next
 * scrape after the previous one has finished (so scrapes of one endpoint never overlap), shifted by a random
 * jitter so endpoints do not fire together. Requests go out asynchronously through the JDK {@link HttpClient}
 * with a timeout: no thread waits on a slow endpoint. Bodies are parsed on the pool's threads, each with its own
 * {@link ExpositionParser} (which keeps buffers between scrapes and is not thread-safe).
 *
 * <p><b>Failures.</b> A scrape fails when the endpoint does not answer in time, refuses the connection, answers
 * anything but 200 (redirects are not followed: a redirect is a failure, so a discovered endpoint cannot send
 * Lifeline elsewhere), sends a body over the size limit (abandoned as soon as it passes the limit, never parsed,
 * and counted in {@code lifeline_connector_dcgm_oversized_bodies}), or sends a body nothing usable came out of (no DCGM series,
 * garbage). After {@code stale-after-failures} consecutive failures the endpoint is marked stale (logged once);
 * the next usable scrape clears it. {@link #status()} reports each endpoint.
 *
 * <p><b>Endpoints</b> come from the configured list and, through {@link #replaceDiscovered}, from Kubernetes.
 */
@ApplicationScoped
public class DcgmScraper {

    private static final Logger LOG = Logger.getLogger(DcgmScraper.class);
    private static final String ACCEPT =
            "text/plain;version=0.0.4;q=0.9,application/openmetrics-text;version=1.0.0;q=0.5,*/*;q=0.1";
    private static final int MAX_ERROR = 500;

    private final ScrapeConfig config;
    private final DcgmScrapeTranslator translator;
    private final ConnectorIngest ingest;
    private final ConnectorSink sink;
    private final ConnectorMetrics metrics;
    private final Clock clock;
    private final Map<String, TargetState> targets = new ConcurrentHashMap<>();
    private final ThreadLocal<ExpositionParser> parsers = ThreadLocal.withInitial(ExpositionParser::new);
    private final LimitedBody body;
    private final Counter succeeded;
    private final Counter failed;
    private final Counter tooLarge;
    private volatile boolean running;
    private ScheduledThreadPoolExecutor pool;
    private HttpClient http;

    DcgmScraper(
            ScrapeConfig config,
            DcgmScrapeTranslator translator,
            ConnectorIngest ingest,
            ConnectorSink sink,
            ConnectorMetrics metrics,
            Clock clock,
            MeterRegistry registry) {
        this.config = config;
        this.translator = translator;
        this.ingest = ingest;
        this.sink = sink;
        this.metrics = metrics;
        this.clock = clock;
        this.body = new LimitedBody(config.maxBodyBytes());
        this.succeeded = Counter.builder("lifeline_connector_dcgm_scrapes")
                .tag("outcome", "success")
                .description("dcgm-exporter scrapes by outcome")
                .register(registry);
        this.failed = Counter.builder("lifeline_connector_dcgm_scrapes")
                .tag("outcome", "failure")
                .description("dcgm-exporter scrapes by outcome")
                .register(registry);
        this.tooLarge = Counter.builder("lifeline_connector_dcgm_oversized_bodies")
                .tag("limit", "max-body-bytes")
                .description("dcgm-exporter scrape bodies abandoned unparsed for being over max-body-bytes")
                .register(registry);
        Gauge.builder("lifeline_connector_dcgm_endpoints", this, s -> s.count(false))
                .tag("state", "ok")
                .description("dcgm-exporter endpoints scraped, by state")
                .register(registry);
        Gauge.builder("lifeline_connector_dcgm_endpoints", this, s -> s.count(true))
                .tag("state", "stale")
                .description("dcgm-exporter endpoints scraped, by state")
                .register(registry);
    }

    void onOpened(@Observes IngestOpened opened) {
        if (!config.enabled()) {
            LOG.info("dcgm-exporter scraping is off (lifeline.connectors.dcgm.enabled=false)");
            return;
        }
        start();
        config.endpoints()
                .ifPresent(list -> list.forEach(e -> {
                    try {
                        add(new ScrapeTarget(e.url().trim(), e.node().trim(), ScrapeTarget.Origin.STATIC));
                    } catch (IllegalArgumentException ex) {
                        LOG.errorf("Configured dcgm-exporter endpoint skipped: %s", ex.getMessage());
                    }
                }));
    }

    synchronized void start() {
        if (running) {
            return;
        }
        pool = new ScheduledThreadPoolExecutor(Math.max(1, config.threads()), Threads.daemon("lifeline-dcgm-scrape"));
        pool.setRemoveOnCancelPolicy(true);
        http = HttpClient.newBuilder()
                .connectTimeout(config.timeout())
                .executor(pool)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        running = true;
        targets.values().forEach(s -> schedule(s, firstDelay()));
        LOG.infof(
                "dcgm-exporter scraping on: every %s (timeout %s, jitter %s), %d threads",
                config.interval(), config.timeout(), config.jitter(), config.threads());
    }

    /** Whether scraping runs. */
    public boolean isRunning() {
        return running;
    }

    /** Starts scraping an endpoint (replacing one with the same URL). */
    public void add(ScrapeTarget target) {
        TargetState state = new TargetState(target);
        TargetState previous = targets.put(target.url(), state);
        if (previous != null) {
            previous.remove();
        }
        LOG.debugf("dcgm-exporter endpoint %s (node %s, %s) added", target.url(), target.node(), target.origin());
        if (running) {
            schedule(state, firstDelay());
        }
    }

    /** Stops scraping an endpoint; returns whether it was scraped. */
    public boolean remove(String url) {
        TargetState s = targets.remove(url);
        if (s != null) {
            s.remove();
        }
        return s != null;
    }

    /**
     * Makes the discovered endpoints exactly {@code discovered}: new ones start, vanished ones stop, one whose node
     * changed is replaced. Configured endpoints are left alone (a configured URL wins over a discovered one).
     */
    public synchronized void replaceDiscovered(Collection<ScrapeTarget> discovered) {
        Map<String, ScrapeTarget> wanted = new HashMap<>();
        for (ScrapeTarget t : discovered) {
            wanted.put(t.url(), t);
        }
        for (TargetState s : List.copyOf(targets.values())) {
            if (s.target.origin() == ScrapeTarget.Origin.KUBERNETES && !s.target.equals(wanted.get(s.target.url()))) {
                remove(s.target.url());
            }
        }
        for (ScrapeTarget t : wanted.values()) {
            if (!targets.containsKey(t.url())) {
                add(t);
            }
        }
    }

    /** Every endpoint's status, by URL. */
    public List<EndpointStatus> status() {
        List<EndpointStatus> out = new ArrayList<>(targets.size());
        for (TargetState s : targets.values()) {
            out.add(s.status());
        }
        out.sort(Comparator.comparing(EndpointStatus::url));
        return out;
    }

    private double count(boolean stale) {
        int n = 0;
        for (TargetState s : targets.values()) {
            if (s.isStale() == stale) {
                n++;
            }
        }
        return n;
    }

    private void schedule(TargetState s, long delayMillis) {
        if (!running || s.removed()) {
            return;
        }
        try {
            s.next(pool.schedule(() -> scrape(s), delayMillis, TimeUnit.MILLISECONDS));
        } catch (RejectedExecutionException e) {
            LOG.debugf("Scrape of %s not scheduled: stopping", s.target.url());
        }
    }

    @SuppressWarnings("FutureReturnValueIgnored") // the callback is the handling: finish() accounts for every outcome
    private void scrape(TargetState s) {
        if (!running || s.removed()) {
            return;
        }
        Instant at = clock.instant();
        s.attempt(at);
        CompletableFuture<HttpResponse<byte[]>> exchange;
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create(s.target.url()))
                    .timeout(config.timeout())
                    .header("Accept", ACCEPT)
                    .GET()
                    .build();
            exchange = http.sendAsync(request, body);
        } catch (RuntimeException e) {
            finish(s, at, null, e);
            return;
        }
        // The request timeout covers the wait for the headers; this one also covers a body that stalls. It runs on a
        // copy, so that the exchange itself is still cancellable (cancelling aborts the request) when it fires.
        exchange.copy()
                .orTimeout(config.timeout().toMillis() * 2, TimeUnit.MILLISECONDS)
                .whenCompleteAsync(
                        (response, error) -> {
                            if (error != null) {
                                exchange.cancel(true);
                            }
                            finish(s, at, response, error);
                        },
                        pool);
    }

    private void finish(TargetState s, Instant at, HttpResponse<byte[]> response, Throwable error) {
        // One scrape's lines name its node; on the pool's threads, the whole context. The next scrape is scheduled
        // outside it, so that a thread the pool starts for it inherits none.
        try (LogContext about = LogContext.of(null, s.target.node(), null)) {
            account(s, at, response, error);
        } finally {
            schedule(s, nextDelay());
        }
    }

    /** Counts the scrape's outcome and says when its endpoint goes stale or answers again. */
    private void account(TargetState s, Instant at, HttpResponse<byte[]> response, Throwable error) {
        try {
            String problem = error != null ? describe(error) : handle(s, at, response);
            if (problem == null) {
                succeeded.increment();
                if (s.success(at)) {
                    LOG.infof("dcgm-exporter %s (node %s) answers again", s.target.url(), s.target.node());
                }
            } else {
                failed.increment();
                if (s.failure(at, problem, Math.max(1, config.staleAfterFailures()))) {
                    LOG.warnf(
                            "dcgm-exporter %s (node %s) is stale after %d failed scrapes; last: %s",
                            s.target.url(), s.target.node(), config.staleAfterFailures(), problem);
                } else {
                    LOG.debugf("Scrape of %s (node %s) failed: %s", s.target.url(), s.target.node(), problem);
                }
            }
        } catch (RuntimeException e) {
            LOG.errorf(e, "Scrape of %s (node %s) failed unexpectedly", s.target.url(), s.target.node());
            s.failure(at, abbreviate("internal error: " + e), Math.max(1, config.staleAfterFailures()));
        }
    }

    /** Translates and submits a response; returns why it is unusable, or null when it was used. */
    private String handle(TargetState s, Instant at, HttpResponse<byte[]> response) {
        if (response.statusCode() != 200) {
            return "HTTP " + response.statusCode();
        }
        Format format = Format.fromContentType(
                response.headers().firstValue("Content-Type").orElse(null));
        Exposition exposition = parsers.get().parseBytes(response.body(), format);
        Translation t = translator.translate(exposition, new DcgmScrape(s.target.url(), s.target.node(), at));
        metrics.observe(translator.stats(), t);
        if (t.events().isEmpty()) {
            return t.rejections().isEmpty() ? null : abbreviate("unusable scrape: " + reasons(t));
        }
        submit(t.events(), s);
        return null;
    }

    private void submit(List<Event> events, TargetState s) {
        ingest.submit("dcgm", events).whenComplete((receipt, error) -> {
            if (error != null) {
                Throwable cause = sink.keepLifecycle("dcgm", events, error);
                LOG.debugf(
                        "Scrape of %s: pipeline did not take %d events: %s",
                        s.target.url(), events.size(), cause.getMessage());
            }
        });
    }

    private static String reasons(Translation t) {
        StringBuilder sb = new StringBuilder();
        for (Translation.Rejection r : t.rejections()) {
            if (sb.length() > 0) {
                sb.append("; ");
            }
            sb.append(r.reason()).append(" (").append(r.detail()).append(')');
        }
        return sb.toString();
    }

    private String describe(Throwable error) {
        Throwable e = error;
        while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        if (e instanceof LimitedBody.TooLarge) {
            tooLarge.increment();
            return e.getMessage();
        }
        if (e instanceof HttpTimeoutException || e instanceof TimeoutException) {
            return "timed out after " + config.timeout().toMillis() + " ms";
        }
        if (e instanceof ConnectException) {
            return abbreviate(
                    "connection refused or unreachable" + (e.getMessage() == null ? "" : ": " + e.getMessage()));
        }
        return abbreviate(e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()));
    }

    private long firstDelay() {
        long jitter = Math.max(1, config.jitter().toMillis());
        return ThreadLocalRandom.current().nextLong(jitter);
    }

    private long nextDelay() {
        long interval = config.interval().toMillis();
        long jitter = config.jitter().toMillis();
        long shift = jitter <= 0 ? 0 : ThreadLocalRandom.current().nextLong(-jitter, jitter + 1);
        return Math.max(Math.max(100, interval / 10), interval + shift);
    }

    private static String abbreviate(String s) {
        return s.length() <= MAX_ERROR ? s : s.substring(0, MAX_ERROR - 3) + "...";
    }

    @PreDestroy
    synchronized void stop() {
        running = false;
        targets.values().forEach(TargetState::remove);
        if (pool != null) {
            pool.shutdownNow();
        }
    }
}
