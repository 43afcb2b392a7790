package io.lifeline.connector.inbound.prometheus;

import io.lifeline.config.PrometheusSourceConfig;
import io.lifeline.connector.Translation;
import io.lifeline.connector.inbound.dcgm.DcgmScrape;
import io.lifeline.connector.inbound.dcgm.DcgmScrapeTranslator;
import io.lifeline.connector.inbound.exposition.Exposition;
import io.lifeline.connector.inbound.exposition.Labels;
import io.lifeline.connector.inbound.exposition.Sample;
import io.lifeline.connector.inbound.pipeline.ConnectorIngest;
import io.lifeline.connector.inbound.pipeline.ConnectorMetrics;
import io.lifeline.connector.inbound.pipeline.ConnectorSink;
import io.lifeline.domain.event.Event;
import io.lifeline.platform.Backoff;
import io.lifeline.platform.Threads;
import io.lifeline.runtime.IngestOpened;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.jboss.logging.Logger;

/**
 * GPU telemetry from a Prometheus that already scrapes dcgm-exporter: every {@code interval} one instant query
 * ({@code lifeline.connectors.prometheus.query}) for the DCGM series, whose answer is split by node and translated
 * by the same {@link DcgmScrapeTranslator} as a scrape (same events, same missing-series rules, same XID memory).
 *
 * <p><b>Labels.</b> The node of a series is the first of {@code node-labels} it carries ({@code instance} without
 * its port). Under {@code honor_labels: false} Prometheus renames the exporter's own {@code pod}, {@code namespace},
 * {@code container} and {@code Hostname} to {@code exported_*}, and the plain ones are the target's (the exporter's
 * own pod): the translator reads the {@code exported_*} form first, and the {@code target-labels} are dropped so an
 * idle GPU (no {@code exported_pod}) is not put on the exporter's pod.
 *
 * <p><b>Time.</b> Evaluation instants are aligned to the interval ({@code time=} of the query), and each node's events
 * are dated with it, so replicas querying the same Prometheus make events with the same ids and the pipeline keeps
 * one of each.
 *
 * <p><b>Failures.</b> A query that fails (unreachable, timeout, an error answer, an answer over the size limit, not a
 * vector) is counted and logged; the next one waits twice as long, up to {@code max-backoff}; one success restores
 * the interval. A series without a node label is counted ({@code no_node_name}) and skipped.
 */
@ApplicationScoped
public class PrometheusGpuSource {

    static final String CONNECTOR = "prometheus";
    private static final Logger LOG = Logger.getLogger(PrometheusGpuSource.class);

    private final PrometheusSourceConfig config;
    private final DcgmScrapeTranslator translator;
    private final ConnectorIngest ingest;
    private final ConnectorSink sink;
    private final ConnectorMetrics metrics;
    private final Clock clock;
    private final Counter succeeded;
    private final Counter failed;
    private volatile int consecutiveFailures;
    private volatile Instant lastSuccess;
    private volatile String lastError;
    private volatile int lastNodes;
    private ScheduledExecutorService pool;
    private PrometheusQueries queries;

    PrometheusGpuSource(
            PrometheusSourceConfig config,
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
        this.succeeded = Counter.builder("lifeline_connector_prometheus_queries")
                .tag("outcome", "success")
                .description("Instant queries of the DCGM series to the configured Prometheus, by outcome")
                .register(registry);
        this.failed = Counter.builder("lifeline_connector_prometheus_queries")
                .tag("outcome", "failure")
                .description("Instant queries of the DCGM series to the configured Prometheus, by outcome")
                .register(registry);
        Gauge.builder("lifeline_connector_prometheus_nodes", this, s -> s.lastNodes)
                .description("Nodes with DCGM series in the last successful query of the configured Prometheus")
                .register(registry);
        Gauge.builder("lifeline_connector_prometheus_consecutive_failures", this, s -> s.consecutiveFailures)
                .description("Failed queries of the configured Prometheus since its last success")
                .register(registry);
    }

    void onOpened(@Observes IngestOpened opened) {
        if (!config.enabled()) {
            return;
        }
        if (config.url().filter(u -> !u.isBlank()).isEmpty()) {
            LOG.error(
                    "lifeline.connectors.prometheus.enabled=true but no lifeline.connectors.prometheus.url: not querying");
            return;
        }
        try {
            start();
        } catch (IOException | GeneralSecurityException e) {
            LOG.errorf("Prometheus GPU source not started: %s", e.getMessage());
        }
    }

    @SuppressWarnings("FutureReturnValueIgnored") // poll() catches and logs its own failures
    synchronized void start() throws IOException, GeneralSecurityException {
        if (pool != null) {
            return;
        }
        queries = new PrometheusQueries(
                config.url().orElseThrow().trim(),
                config.timeout(),
                new PrometheusQueries.Access(headers(config), ssl(config), config.maxBodyBytes()));
        ScheduledThreadPoolExecutor p = new ScheduledThreadPoolExecutor(1, Threads.daemon("lifeline-prometheus-gpu"));
        pool = p;
        p.schedule(this::poll, 0, TimeUnit.MILLISECONDS);
        LOG.infof("GPU telemetry from Prometheus %s every %s", config.url().orElseThrow(), config.interval());
    }

    /** Time of the last successful query, or null. */
    public Instant lastSuccess() {
        return lastSuccess;
    }

    /** Why the last query failed, or null after a success. */
    public String lastError() {
        return lastError;
    }

    @SuppressWarnings("NonAtomicVolatileUpdate") // only the poll thread writes it
    private void poll() {
        long interval = Math.max(1000, config.interval().toMillis());
        try {
            Instant at = aligned(clock.instant(), interval);
            pollOnce(at);
            succeeded.increment();
            consecutiveFailures = 0;
            lastSuccess = at;
            lastError = null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (Exception e) {
            failed.increment();
            consecutiveFailures++;
            lastError = describe(e);
            if (consecutiveFailures == 1 || consecutiveFailures % 20 == 0) {
                LOG.warnf(
                        "Query of Prometheus %s failed (%d in a row): %s",
                        config.url().orElse(""), consecutiveFailures, lastError);
            }
        }
        schedule(nextDelay(interval));
    }

    /** One query at {@code at}, translated and submitted; returns the events made. */
    List<Event> pollOnce(Instant at) throws IOException, InterruptedException {
        Answer answer = translate(
                QueryVector.parse(queries.raw(config.query(), at)),
                at,
                config.nodeLabels(),
                new HashSet<>(config.targetLabels().orElse(List.of())),
                translator);
        if (answer.withoutNode() != null) {
            metrics.observe(translator.stats(), answer.withoutNode());
        }
        List<Event> all = new ArrayList<>();
        for (Translation t : answer.perNode()) {
            metrics.observe(translator.stats(), t);
            if (!t.events().isEmpty()) {
                submit(t.events());
                all.addAll(t.events());
            }
        }
        lastNodes = answer.perNode().size();
        return all;
    }

    /**
     * What one answer says, node by node: the series split by {@link #node}, each node's translated as one scrape of
     * it (source {@code prometheus/<instance of its first series>}, time {@code at}).
     *
     * @param perNode      one translation per node, in the order the nodes first appear
     * @param withoutNode  the series no node label named ({@code no_node_name}), null when none
     */
    record Answer(List<Translation> perNode, Translation withoutNode) {}

    static Answer translate(
            QueryVector.Result result,
            Instant at,
            List<String> nodeLabels,
            Set<String> drop,
            DcgmScrapeTranslator translator) {
        Map<String, List<Sample>> byNode = new LinkedHashMap<>();
        Map<String, String> targetOf = new LinkedHashMap<>();
        int withoutNode = 0;
        for (Sample s : result.samples()) {
            String node = node(s, nodeLabels);
            if (node == null) {
                withoutNode++;
                continue;
            }
            byNode.computeIfAbsent(node, n -> new ArrayList<>()).add(drop.isEmpty() ? s : withoutTargetLabels(s, drop));
            targetOf.putIfAbsent(node, s.label("instance") != null ? s.label("instance") : node);
        }
        List<Translation> perNode = new ArrayList<>(byNode.size());
        for (Map.Entry<String, List<Sample>> e : byNode.entrySet()) {
            perNode.add(translator.translate(
                    Exposition.of(e.getValue()),
                    new DcgmScrape("prometheus/" + targetOf.get(e.getKey()), e.getKey(), at)));
        }
        return new Answer(
                perNode,
                withoutNode == 0
                        ? null
                        : Translation.rejected(
                                DcgmScrapeTranslator.NO_NODE_NAME,
                                withoutNode + " series without any of " + nodeLabels));
    }

    private void submit(List<Event> events) {
        ingest.submit(CONNECTOR, events).whenComplete((receipt, error) -> {
            if (error != null) {
                Throwable cause = sink.keepLifecycle(CONNECTOR, events, error);
                LOG.debugf(
                        "Prometheus GPU source: pipeline did not take %d events: %s",
                        events.size(), cause.getMessage());
            }
        });
    }

    /** The first node label present; {@code instance} loses its port. */
    static String node(Sample s, List<String> labels) {
        for (String l : labels) {
            String v = s.label(l);
            if (v == null || v.isBlank()) {
                continue;
            }
            return "instance".equals(l) ? withoutPort(v.trim()) : v.trim();
        }
        return null;
    }

    static String withoutPort(String instance) {
        if (instance.startsWith("[")) {
            int close = instance.indexOf(']');
            return close > 0 ? instance.substring(1, close) : instance;
        }
        int colon = instance.indexOf(':');
        return colon > 0 && colon == instance.lastIndexOf(':') ? instance.substring(0, colon) : instance;
    }

    private static Sample withoutTargetLabels(Sample s, Set<String> drop) {
        Labels labels = s.labels();
        List<String> kept = new ArrayList<>(labels.size() * 2);
        boolean dropped = false;
        for (int i = 0; i < labels.size(); i++) {
            if (drop.contains(labels.name(i))) {
                dropped = true;
            } else {
                kept.add(labels.name(i));
                kept.add(labels.value(i));
            }
        }
        return dropped
                ? new Sample(s.name(), Labels.of(kept.toArray(new String[0])), s.value(), s.timestampMillis())
                : s;
    }

    static Instant aligned(Instant now, long intervalMillis) {
        long ms = now.toEpochMilli();
        return Instant.ofEpochMilli(ms - Math.floorMod(ms, intervalMillis));
    }

    private long nextDelay(long interval) {
        long now = clock.millis();
        long untilNext = interval - Math.floorMod(now, interval);
        int failures = consecutiveFailures;
        if (failures == 0) {
            return untilNext;
        }
        return retryBackoff(interval, config.maxBackoff()).delayMillis(failures);
    }

    /** After failures: twice the interval, doubling up to {@code max-backoff} (never below the interval). */
    static Backoff retryBackoff(long intervalMillis, Duration maxBackoff) {
        return Backoff.fromSettings(
                Duration.ofMillis(2 * intervalMillis),
                Duration.ofMillis(Math.max(intervalMillis, maxBackoff.toMillis())));
    }

    @SuppressWarnings("FutureReturnValueIgnored") // poll() catches and logs its own failures
    private void schedule(long delay) {
        ScheduledExecutorService p = pool;
        if (p != null && !p.isShutdown()) {
            try {
                p.schedule(this::poll, delay, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                LOG.debug("Prometheus GPU source stopping");
            }
        }
    }

    private String describe(Exception e) {
        if (e instanceof HttpTimeoutException) {
            return "timed out after " + config.timeout().toMillis() + " ms";
        }
        String m = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        return m.length() <= 500 ? m : m.substring(0, 497) + "...";
    }

    static Supplier<Map<String, String>> headers(PrometheusSourceConfig c) {
        Map<String, String> fixed = new LinkedHashMap<>(c.headers());
        if (c.username().isPresent()) {
            String pair = c.username().get() + ":" + c.password().orElse("");
            fixed.put(
                    "Authorization",
                    "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8)));
        }
        c.bearerToken().filter(t -> !t.isBlank()).ifPresent(t -> fixed.put("Authorization", "Bearer " + t.trim()));
        Map<String, String> constant = Map.copyOf(fixed);
        if (c.bearerTokenFile().filter(f -> !f.isBlank()).isEmpty()) {
            return () -> constant;
        }
        Path file = Path.of(c.bearerTokenFile().get().trim());
        return () -> {
            Map<String, String> h = new LinkedHashMap<>(constant);
            try {
                h.put(
                        "Authorization",
                        "Bearer "
                                + Files.readString(file, StandardCharsets.UTF_8).trim());
            } catch (IOException e) {
                throw new IllegalStateException("bearer token file " + file + " unreadable: " + e.getMessage(), e);
            }
            return h;
        };
    }

    static SSLContext ssl(PrometheusSourceConfig c) throws IOException, GeneralSecurityException {
        if (c.caFile().filter(f -> !f.isBlank()).isEmpty()) {
            return null;
        }
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(Path.of(c.caFile().get().trim()))) {
            int n = 0;
            for (Certificate cert : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                trust.setCertificateEntry("ca-" + n++, cert);
            }
            if (n == 0) {
                throw new GeneralSecurityException(
                        "no certificate in " + c.caFile().get());
            }
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(null, tmf.getTrustManagers(), null);
        return ssl;
    }

    @PreDestroy
    synchronized void stop() {
        if (pool != null) {
            pool.shutdownNow();
            pool = null;
        }
    }
}
