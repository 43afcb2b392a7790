package io.lifeline.connector.inbound.kube;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.lifeline.config.KubeConfig;
import io.lifeline.config.ScrapeConfig;
import io.lifeline.connector.inbound.pipeline.ConnectorJobResolver;
import io.lifeline.connector.inbound.pipeline.ConnectorMetrics;
import io.lifeline.connector.inbound.pipeline.ConnectorNodeResolver;
import io.lifeline.connector.inbound.pipeline.ConnectorSink;
import io.lifeline.connector.inbound.pipeline.HostNodes;
import io.lifeline.connector.inbound.scrape.DcgmScraper;
import io.lifeline.platform.Threads;
import io.lifeline.runtime.IngestOpened;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * Watches the cluster with fabric8 informers once ingest is open, when {@code lifeline.connectors.kubernetes.enabled}
 * (or dcgm-exporter discovery) is on. One small wrapper per kind turns objects into catalogue events:
 * {@link NodeWatcher}, {@link PodWatcher}, {@link EventWatcher}, {@link PyTorchJobWatcher}, {@link TrainJobWatcher}, {@link JobSetWatcher},
 * {@link KueueWorkloadWatcher}, {@link VolcanoJobWatcher}, plus {@link DcgmEndpointWatcher} for scrape targets.
 *
 * <p>Custom kinds are watched only when their CustomResourceDefinition exists; a missing one turns that kind off
 * with an INFO line and is looked for again every {@code crd-recheck}. Informers retry on their own when the API
 * server is unreachable. Job kinds start first and pods before their Events, so pods find their job and Events
 * their pod. Everything starts on its own thread: a slow API server never delays Lifeline's start.
 */
@ApplicationScoped
public class KubernetesConnector {

    private static final Logger LOG = Logger.getLogger(KubernetesConnector.class);
    private static final long SYNC_WAIT_SECONDS = 30;
    /** The configuration group of a kind whose status name differs from it. */
    private static final Map<String, String> CONFIG_KEYS =
            Map.of("kueue-workloads", "kueue", "volcano-jobs", "volcano", "trainjob-pods", "trainjobs");

    private final KubeConfig config;
    private final ScrapeConfig scrape;
    private final Instance<KubernetesClient> clients;
    private final ConnectorSink sink;
    private final ConnectorMetrics metrics;
    private final ConnectorNodeResolver nodes;
    private final ConnectorJobResolver jobs;
    private final HostNodes hosts;
    private final DcgmScraper scraper;
    private final Clock clock;
    /** Its own lock: informer callbacks update it while {@link #start} holds this object's monitor. */
    private final Map<String, KindStatus> status = Collections.synchronizedMap(new LinkedHashMap<>());

    private final List<SharedIndexInformer<?>> informers = new CopyOnWriteArrayList<>();
    private final TrainingPods training = new TrainingPods();
    private volatile boolean stopped;
    private ScheduledExecutorService recheck;
    private KubeContext ctx;

    KubernetesConnector(
            KubeConfig config,
            ScrapeConfig scrape,
            Instance<KubernetesClient> clients,
            ConnectorSink sink,
            ConnectorMetrics metrics,
            ConnectorNodeResolver nodes,
            ConnectorJobResolver jobs,
            HostNodes hosts,
            DcgmScraper scraper,
            Clock clock) {
        this.config = config;
        this.scrape = scrape;
        this.clients = clients;
        this.sink = sink;
        this.metrics = metrics;
        this.nodes = nodes;
        this.jobs = jobs;
        this.hosts = hosts;
        this.scraper = scraper;
        this.clock = clock;
    }

    void onOpened(@Observes IngestOpened opened) {
        boolean discover = scrape.enabled() && scrape.kubernetes().enabled();
        if (!config.enabled() && !discover) {
            LOG.debug("Kubernetes connector off (lifeline.connectors.kubernetes.enabled=false)");
            return;
        }
        Threads.start("lifeline-kubernetes-start", () -> start(discover));
    }

    /** The state of every kind. */
    public List<KindStatus> status() {
        synchronized (status) {
            return new ArrayList<>(status.values());
        }
    }

    /** Whether the connector watches anything. */
    public boolean enabled() {
        return config.enabled();
    }

    @SuppressWarnings("FutureReturnValueIgnored") // each informer's future records its outcome in the kind's status
    synchronized void start(boolean discover) {
        try {
            KubernetesClient client = clients.get();
            ctx = new KubeContext(config.cluster(), clock, sink::send, metrics);
            long resync = config.resync().toMillis();
            if (config.enabled()) {
                LOG.infof(
                        "Kubernetes connector: watching cluster %s at %s",
                        config.cluster(), client.getConfiguration().getMasterUrl());
                List<CompletableFuture<?>> jobKinds = new ArrayList<>();
                jobKinds.add(custom(
                        client,
                        "pytorchjobs",
                        config.pytorchjobs().enabled(),
                        PyTorchJobWatcher.CRD,
                        c -> new PyTorchJobWatcher(ctx, training, jobs).start(c, resync)));
                jobKinds.add(custom(
                        client,
                        "trainjobs",
                        config.trainjobs().enabled(),
                        TrainJobWatcher.CRD,
                        c -> new TrainJobWatcher(ctx, training, jobs).start(c, resync)));
                jobKinds.add(custom(
                        client,
                        "jobsets",
                        config.jobsets().enabled(),
                        JobSetWatcher.CRD,
                        c -> new JobSetWatcher(ctx, training).start(c, resync)));
                jobKinds.add(custom(
                        client,
                        "kueue-workloads",
                        config.kueue().enabled(),
                        KueueWorkloadWatcher.CRD,
                        c -> new KueueWorkloadWatcher(ctx).start(c, resync)));
                jobKinds.add(custom(
                        client,
                        "volcano-jobs",
                        config.volcano().enabled(),
                        VolcanoJobWatcher.CRD,
                        c -> new VolcanoJobWatcher(ctx).start(c, resync)));
                awaitSynced(jobKinds);
                watch(
                        "nodes",
                        config.nodes().enabled(),
                        () -> new NodeWatcher(ctx, config.poolLabels(), config.defaultPool(), nodes)
                                .start(client, resync));
                DraDevices dra = new DraDevices();
                DeviceTaintWatcher taints = new DeviceTaintWatcher(ctx, dra);
                awaitSynced(List.of(
                        watch(
                                "resource-slices",
                                config.resourceSlices().enabled(),
                                () -> taints.startSlices(
                                        client, config.resourceSlices().version(), resync)),
                        watch(
                                "device-taint-rules",
                                config.deviceTaintRules().enabled(),
                                () -> taints.startRules(
                                        client, config.deviceTaintRules().version(), resync))));
                watch(
                        "admission-failures",
                        config.admissionFailures().enabled(),
                        () -> new AdmissionFailureWatcher(
                                        ctx,
                                        java.util.Set.copyOf(
                                                config.admissionFailures().reasons()))
                                .start(client, resync));
                if (config.pods().enabled()) {
                    PodWatcher pods = new PodWatcher(ctx, training, hosts, dra);
                    awaitSynced(List.of(
                            watch("pods", true, () -> pods.start(client, resync, PodScheme.PYTORCHJOB)),
                            watch(
                                    "trainjob-pods",
                                    config.trainjobs().enabled(),
                                    () -> pods.start(client, resync, PodScheme.TRAINJOB))));
                } else {
                    watch("pods", false, null);
                }
                watch("events", config.events().enabled(), () -> new EventWatcher(ctx, training).start(client, resync));
                scheduleRecheck(client, resync);
            }
            if (discover) {
                watch(
                        "dcgm-exporter-endpoints",
                        true,
                        () -> new DcgmEndpointWatcher(scrape.kubernetes(), scraper).start(client, resync));
            }
        } catch (RuntimeException e) {
            LOG.errorf(e, "Kubernetes connector could not start");
            status.put("client", new KindStatus("client", "error", e.getMessage()));
        }
    }

    /** Starts one informer; returns a future completing once its first list has arrived. */
    private CompletableFuture<?> watch(String kind, boolean on, Supplier<SharedIndexInformer<?>> make) {
        if (!on) {
            status.put(
                    kind,
                    new KindStatus(
                            kind,
                            "off",
                            "lifeline.connectors.kubernetes." + CONFIG_KEYS.getOrDefault(kind, kind)
                                    + ".enabled=false"));
            return CompletableFuture.completedFuture(null);
        }
        status.put(kind, new KindStatus(kind, "starting", null));
        SharedIndexInformer<?> informer = make.get();
        informer.exceptionHandler((started, t) -> {
            LOG.warnf("Kubernetes %s: %s; retrying", kind, t.getMessage());
            setStatus(kind, new KindStatus(kind, "error", t.getMessage()));
            return !stopped;
        });
        informers.add(informer);
        return informer.start().toCompletableFuture().whenComplete((v, e) -> {
            if (e == null) {
                setStatus(kind, new KindStatus(kind, "watching", null));
                LOG.infof("Kubernetes %s: watching", kind);
            } else {
                setStatus(kind, new KindStatus(kind, "error", e.getMessage()));
            }
        });
    }

    /** Starts a custom kind's informer if its CRD exists; records why not otherwise. */
    private CompletableFuture<?> custom(
            KubernetesClient client,
            String kind,
            boolean on,
            String crd,
            Function<KubernetesClient, SharedIndexInformer<?>> make) {
        if (!on) {
            return watch(kind, false, null);
        }
        Boolean present = crdPresent(client, kind, crd);
        if (present == null) {
            return CompletableFuture.completedFuture(null);
        }
        if (!present) {
            KindStatus before = status.get(kind);
            if (before == null || !"crd-missing".equals(before.state())) {
                LOG.infof(
                        "Kubernetes %s: CRD %s not installed, not watched (looked for again every %s)",
                        kind, crd, config.crdRecheck());
            }
            status.put(kind, new KindStatus(kind, "crd-missing", "CustomResourceDefinition " + crd + " not found"));
            return CompletableFuture.completedFuture(null);
        }
        return watch(kind, true, () -> make.apply(client));
    }

    /** Whether a CRD exists; null (and an error status) when the API server could not say. */
    private Boolean crdPresent(KubernetesClient client, String kind, String crd) {
        try {
            return client.apiextensions()
                            .v1()
                            .customResourceDefinitions()
                            .withName(crd)
                            .get()
                    != null;
        } catch (RuntimeException e) {
            LOG.warnf(
                    "Kubernetes %s: cannot look up CRD %s (%s); looked for again every %s",
                    kind, crd, e.getMessage(), config.crdRecheck());
            status.put(kind, new KindStatus(kind, "error", "CRD lookup failed: " + e.getMessage()));
            return null;
        }
    }

    @SuppressWarnings("FutureReturnValueIgnored") // recheck() catches and logs its own failures
    private void scheduleRecheck(KubernetesClient client, long resync) {
        long every = Math.max(1000, config.crdRecheck().toMillis());
        recheck = new ScheduledThreadPoolExecutor(1, Threads.daemon("lifeline-kubernetes-crd-recheck"));
        recheck.scheduleWithFixedDelay(() -> recheck(client, resync), every, every, TimeUnit.MILLISECONDS);
    }

    private synchronized void recheck(KubernetesClient client, long resync) {
        if (stopped) {
            return;
        }
        try {
            recheckKind(
                    client,
                    "pytorchjobs",
                    PyTorchJobWatcher.CRD,
                    c -> new PyTorchJobWatcher(ctx, training, jobs).start(c, resync));
            recheckKind(
                    client,
                    "trainjobs",
                    TrainJobWatcher.CRD,
                    c -> new TrainJobWatcher(ctx, training, jobs).start(c, resync));
            recheckKind(client, "jobsets", JobSetWatcher.CRD, c -> new JobSetWatcher(ctx, training).start(c, resync));
            recheckKind(
                    client,
                    "kueue-workloads",
                    KueueWorkloadWatcher.CRD,
                    c -> new KueueWorkloadWatcher(ctx).start(c, resync));
            recheckKind(
                    client, "volcano-jobs", VolcanoJobWatcher.CRD, c -> new VolcanoJobWatcher(ctx).start(c, resync));
        } catch (RuntimeException e) {
            LOG.debugf("CRD recheck failed: %s", e.getMessage());
        }
    }

    @SuppressWarnings("FutureReturnValueIgnored") // the informer's future records its outcome in the kind's status
    private void recheckKind(
            KubernetesClient client, String kind, String crd, Function<KubernetesClient, SharedIndexInformer<?>> make) {
        KindStatus s = status.get(kind);
        boolean waiting = s != null
                && ("crd-missing".equals(s.state())
                        || "error".equals(s.state())
                                && s.detail() != null
                                && s.detail().startsWith("CRD lookup failed"));
        if (waiting) {
            custom(client, kind, true, crd, make);
        }
    }

    private void setStatus(String kind, KindStatus s) {
        status.put(kind, s);
    }

    private static void awaitSynced(List<CompletableFuture<?>> futures) {
        try {
            CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(SYNC_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.debugf("Not every informer synced in %d s (%s); going on", SYNC_WAIT_SECONDS, e.toString());
        }
    }

    @PreDestroy
    void stop() {
        stopped = true;
        if (recheck != null) {
            recheck.shutdownNow();
        }
        for (SharedIndexInformer<?> i : informers) {
            try {
                i.stop();
            } catch (RuntimeException e) {
                LOG.debugf("Stopping an informer: %s", e.getMessage());
            }
        }
    }
}
