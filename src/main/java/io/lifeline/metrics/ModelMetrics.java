package io.lifeline.metrics;

import io.lifeline.domain.fleet.NodeLifecycle;
import io.lifeline.domain.gpu.GpuHealth;
import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.metrics.SeriesFamily.Kind;
import io.lifeline.metrics.SeriesSnapshot.JobSample;
import io.lifeline.metrics.SeriesSnapshot.PoolGpus;
import io.lifeline.platform.Threads;
import io.lifeline.runtime.ModelRuntime;
import io.lifeline.runtime.ModelSnapshot;
import io.lifeline.runtime.ModelSnapshots;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Publishes the model-derived series. Every {@code lifeline.metrics.snapshot-interval} the series are set, on this
 * class's own thread, from the latest {@link ModelSnapshot} the model thread published ({@link ModelSnapshots}):
 * metrics never touch the model thread. A scrape only reads the published values. Series of jobs and nodes that
 * left the model are removed at the next refresh.
 */
@ApplicationScoped
public class ModelMetrics {

    /** Label naming a job ({@code namespace/name}); {@code job} itself is Prometheus' target label. */
    public static final String JOB = "job_name";
    /** Label naming a job's namespace; {@code namespace} itself is the target's namespace under a ServiceMonitor. */
    public static final String NAMESPACE = "job_namespace";

    /** GPU-hours are published in GPU-seconds: Prometheus names carry base units. */
    private static final double SECONDS_PER_HOUR = 3600.0;

    private static final double MILLIS_PER_SECOND = 1000.0;
    private static final Logger LOG = Logger.getLogger(ModelMetrics.class);

    private final ModelSnapshots snapshots;
    private final MetricsConfig config;
    private final Clock clock;
    private final Map<String, SeriesFamily> families = new HashMap<>();
    private final Map<String, JobCounters> counters = new HashMap<>();
    private final EvictionStopMetrics evictionStops;
    private final ScheduledExecutorService executor;
    private volatile Instant lastSnapshot;
    private volatile double lastDurationSeconds;
    private volatile long failures;
    private volatile int jobsWithoutSeries;

    ModelMetrics(
            ModelRuntime runtime, ModelSnapshots snapshots, MetricsConfig config, Clock clock, MeterRegistry registry) {
        this.snapshots = snapshots;
        this.config = config;
        this.clock = clock;
        this.evictionStops = new EvictionStopMetrics(registry);
        family(registry, "lifeline_job_checkpoint_age_seconds", "Age of the job's newest good checkpoint", Kind.GAUGE);
        family(
                registry,
                "lifeline_job_checkpoint_freshness_objective_seconds",
                "Checkpoint age above which the job's freshness objective is breached",
                Kind.GAUGE);
        family(
                registry,
                "lifeline_job_checkpoint_freshness_breached",
                "1 when the job is active and its checkpoint age exceeds the objective",
                Kind.GAUGE);
        family(
                registry,
                "lifeline_job_work_at_risk_gpu_seconds",
                "GPUs held times checkpoint age, in GPU-seconds (divide by 3600 for GPU-hours)",
                Kind.GAUGE);
        family(registry, "lifeline_job_world_size", "Ranks of the job now", Kind.GAUGE);
        family(registry, "lifeline_job_world_size_min", "Elastic minimum of the job in ranks", Kind.GAUGE);
        family(registry, "lifeline_job_world_size_max", "Elastic maximum of the job in ranks", Kind.GAUGE);
        family(registry, "lifeline_job_gpus", "GPUs the job holds now", Kind.GAUGE);
        family(
                registry,
                "lifeline_job_ettr_ratio",
                "Effective training time ratio: productive / (wall - waiting)",
                Kind.GAUGE);
        family(registry, "lifeline_job_ettr_of_wall_ratio", "Productive time / wall time since submission", Kind.GAUGE);
        family(registry, "lifeline_job_state", "1 for the job's current lifecycle state", Kind.GAUGE);
        family(registry, "lifeline_job_open_incidents", "Open incidents of the job (0 or 1)", Kind.GAUGE);
        family(
                registry,
                "lifeline_job_restart_budget_exhausted",
                "1 when restarts exceed the elastic policy's budget",
                Kind.GAUGE);
        family(registry, "lifeline_job_node_info", "1 for each node hosting ranks of the job", Kind.GAUGE);
        family(
                registry,
                "lifeline_job_lost_gpu_seconds",
                "GPU-seconds lost to interruptions (rework + recovery), by cause (divide by 3600 for GPU-hours)",
                Kind.COUNTER);
        family(registry, "lifeline_job_interruptions", "Interruptions of the job, by cause", Kind.COUNTER);
        family(registry, "lifeline_job_restarts", "Interruptions of the job that needed a restart", Kind.COUNTER);
        family(
                registry,
                "lifeline_job_notice_interruptions",
                "Interruptions announced by a notice, by whether a checkpoint completed before the stop",
                Kind.COUNTER);
        family(
                registry,
                "lifeline_job_elapsed_seconds",
                "Wall time since the job's submission (to its end once ended)",
                Kind.COUNTER);
        family(
                registry,
                "lifeline_job_goodput_seconds",
                "Wall time the job spent on training progress that survived",
                Kind.COUNTER);
        family(
                registry,
                "lifeline_job_badput_seconds",
                "Wall time the job spent on anything but surviving progress, by kind (checkpoint saves, lost rework, "
                        + "recovery phases, rescale, startup, waiting)",
                Kind.COUNTER);
        family(
                registry,
                "lifeline_job_stragglers",
                "Ranks of the job persistently slower than their peers now",
                Kind.GAUGE);
        family(
                registry,
                "lifeline_job_straggler_slowdown",
                "A straggling rank's step time over the median of its peers, by node and rank",
                Kind.GAUGE);
        family(
                registry,
                "lifeline_job_straggler_lost_gpu_seconds",
                "GPU-seconds the job lost running at its stragglers' pace (divide by 3600 for GPU-hours)",
                Kind.COUNTER);
        family(registry, "lifeline_jobs", "Jobs by lifecycle state", Kind.GAUGE);
        family(registry, "lifeline_open_incidents", "Open incidents by cause", Kind.GAUGE);
        family(registry, "lifeline_nodes", "Nodes by lifecycle state", Kind.GAUGE);
        family(registry, "lifeline_nodes_cordoned", "Live nodes marked unschedulable", Kind.GAUGE);
        family(registry, "lifeline_nodes_notice_active", "Live nodes with a pending interruption notice", Kind.GAUGE);
        family(registry, "lifeline_gpus", "GPUs of live nodes by pool and health verdict", Kind.GAUGE);
        family(
                registry,
                "lifeline_node_gpu_health",
                "1 for each live node whose worst GPU verdict is not healthy",
                Kind.GAUGE);
        family(
                registry,
                "lifeline_node_lemon_score",
                "Interruptions of the node within the lemon window (when > 0)",
                Kind.GAUGE);
        Gauge.builder("lifeline_metrics_snapshot_age_seconds", this, ModelMetrics::snapshotAgeSeconds)
                .description("Age of the model snapshot the model-derived series were last set from")
                .register(registry);
        Gauge.builder("lifeline_metrics_snapshot_duration_seconds", this, m -> m.lastDurationSeconds)
                .description("How long the last refresh of the model-derived series took (off the model thread)")
                .register(registry);
        Gauge.builder("lifeline_metrics_jobs_without_series", this, m -> m.jobsWithoutSeries)
                .description("Jobs whose own series (lifeline_job_*) are left out: beyond "
                        + "lifeline.metrics.max-job-series-per-namespace or lifeline.metrics.max-job-series")
                .register(registry);
        FunctionCounter.builder("lifeline_metrics_snapshot_failures", this, m -> m.failures)
                .description("Refreshes of the model-derived series that failed or timed out")
                .register(registry);
        Gauge.builder("lifeline_model_snapshot_hold_seconds", snapshots, s -> s.lastHoldNanos() / 1e9)
                .description("How long the latest model snapshot held the model thread")
                .register(registry);
        Gauge.builder("lifeline_model_snapshot_hold_max_seconds", snapshots, s -> s.longestHoldNanos() / 1e9)
                .description("The longest any model snapshot held the model thread since start")
                .register(registry);
        FunctionCounter.builder("lifeline_model_snapshots", snapshots, ModelSnapshots::taken)
                .description("Model snapshots taken")
                .register(registry);
        Gauge.builder("lifeline_model_queue_batches", runtime, ModelRuntime::queued)
                .description("Event batches waiting for the model thread")
                .register(registry);
        Gauge.builder("lifeline_model_queue_events", runtime, ModelRuntime::queuedEvents)
                .description("Events waiting for the model thread (bounded by lifeline.ingest.apply-queue-events)")
                .register(registry);
        Gauge.builder("lifeline_model_queue_bytes", runtime, ModelRuntime::queuedBytes)
                .description("Estimated heap bytes of the events waiting for the model thread "
                        + "(bounded by lifeline.ingest.apply-queue-bytes)")
                .register(registry);
        FunctionCounter.builder("lifeline_model_applied_events", runtime, ModelRuntime::appliedCount)
                .description("Events applied to the in-memory model")
                .register(registry);
        FunctionCounter.builder("lifeline_model_failed_events", runtime, ModelRuntime::failedCount)
                .description("Events the model could not apply")
                .register(registry);
        this.executor = Executors.newSingleThreadScheduledExecutor(Threads.daemon("lifeline-metrics"));
    }

    @SuppressWarnings("FutureReturnValueIgnored") // refreshQuietly() catches and counts its own failures
    void onStart(@Observes StartupEvent ev) {
        long every = Math.max(100, config.snapshotInterval().toMillis());
        executor.scheduleWithFixedDelay(this::refreshQuietly, 0, every, TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    void stop() {
        executor.shutdownNow();
    }

    /**
     * Sets the series from a snapshot taken now, after everything queued for the model (tests call this to see
     * what they just ingested).
     */
    public void refresh() throws Exception {
        refresh(snapshots.fresh().get(config.snapshotTimeout().toMillis(), TimeUnit.MILLISECONDS));
    }

    private void refresh(ModelSnapshot model) {
        long started = System.nanoTime();
        SeriesSnapshot s = SnapshotReader.read(model, config.jobNodeInfoEnabled());
        synchronized (this) {
            publish(s);
        }
        lastSnapshot = model.takenAt();
        lastDurationSeconds = (System.nanoTime() - started) / 1e9;
    }

    @SuppressWarnings({"ReferenceEquality", "NonAtomicVolatileUpdate"}) // EMPTY is a sentinel; one thread writes it
    private void refreshQuietly() {
        try {
            ModelSnapshot latest = snapshots.latest();
            if (latest != ModelSnapshot.EMPTY) {
                refresh(latest);
            }
        } catch (RuntimeException e) {
            failures++;
            LOG.debugf("Model snapshot for metrics failed: %s", e.toString());
        }
    }

    private double snapshotAgeSeconds() {
        Instant at = lastSnapshot;
        return at == null ? Double.NaN : Duration.between(at, clock.instant()).toMillis() / 1000.0;
    }

    private void family(MeterRegistry registry, String name, String description, Kind kind) {
        families.put(name, new SeriesFamily(registry, name, description, kind));
    }

    private void publish(SeriesSnapshot s) {
        Map<String, Map<Tags, Double>> v = new HashMap<>();
        families.keySet().forEach(n -> v.put(n, new HashMap<>()));
        Map<String, JobCounters> seen = new HashMap<>();
        Map<IncidentCause, Integer> open = new HashMap<>();
        for (IncidentCause c : IncidentCause.values()) {
            open.put(c, 0);
        }
        for (JobSample j : s.jobs()) {
            if (j.openIncidentCause() != null) {
                open.merge(j.openIncidentCause(), 1, Integer::sum);
            }
        }
        JobSeriesBudget.Choice choice =
                JobSeriesBudget.choose(s.jobs(), config.maxJobSeriesPerNamespace(), config.maxJobSeries());
        jobsWithoutSeries = choice.omitted();
        for (JobSample j : choice.chosen()) {
            Tags t = Tags.of(JOB, j.name(), NAMESPACE, j.namespace() == null ? "" : j.namespace());
            JobCounters c = counters.getOrDefault(j.name(), new JobCounters());
            c.update(j);
            c.takeNewStops().forEach(evictionStops::observe);
            seen.put(j.name(), c);
            jobSeries(v, t, j, c);
        }
        counters.clear();
        counters.putAll(seen);
        s.jobsByState().forEach((st, n) -> v.get("lifeline_jobs").put(Tags.of("state", label(st)), n.doubleValue()));
        open.forEach((c, n) -> v.get("lifeline_open_incidents").put(Tags.of("cause", label(c)), n.doubleValue()));
        for (Map.Entry<NodeLifecycle, Integer> e : s.nodesByState().entrySet()) {
            v.get("lifeline_nodes")
                    .put(Tags.of("state", label(e.getKey())), e.getValue().doubleValue());
        }
        v.get("lifeline_nodes_cordoned").put(Tags.empty(), (double) s.nodesCordoned());
        v.get("lifeline_nodes_notice_active").put(Tags.empty(), (double) s.nodesWithNotice());
        for (PoolGpus p : s.gpus()) {
            p.counts()
                    .forEach((h, n) ->
                            v.get("lifeline_gpus").put(Tags.of("pool", p.pool(), "health", label(h)), n.doubleValue()));
        }
        if (s.gpus().isEmpty()) {
            // Keep the series present (at zero) so that dashboards and rules see a fleet without GPUs yet.
            for (GpuHealth h : GpuHealth.values()) {
                v.get("lifeline_gpus").put(Tags.of("pool", SnapshotReader.UNREGISTERED_POOL, "health", label(h)), 0.0);
            }
        }
        s.unhealthyNodes()
                .forEach((node, h) ->
                        v.get("lifeline_node_gpu_health").put(Tags.of("node", node, "health", label(h)), 1.0));
        s.lemonScores()
                .forEach((node, n) -> v.get("lifeline_node_lemon_score").put(Tags.of("node", node), n.doubleValue()));
        v.forEach((name, values) -> families.get(name).publish(values));
    }

    private static void jobSeries(Map<String, Map<Tags, Double>> v, Tags t, JobSample j, JobCounters c) {
        put(v, "lifeline_job_checkpoint_age_seconds", t, j.checkpointAgeSeconds());
        put(v, "lifeline_job_checkpoint_freshness_objective_seconds", t, j.objectiveSeconds());
        put(v, "lifeline_job_checkpoint_freshness_breached", t, j.breached() ? 1.0 : 0.0);
        put(v, "lifeline_job_work_at_risk_gpu_seconds", t, j.workAtRiskGpuHours() * SECONDS_PER_HOUR);
        put(v, "lifeline_job_world_size", t, (double) j.worldSize());
        put(
                v,
                "lifeline_job_world_size_min",
                t,
                j.minWorldSize() == null ? null : j.minWorldSize().doubleValue());
        put(
                v,
                "lifeline_job_world_size_max",
                t,
                j.maxWorldSize() == null ? null : j.maxWorldSize().doubleValue());
        put(v, "lifeline_job_gpus", t, (double) j.gpus());
        put(v, "lifeline_job_ettr_ratio", t, j.ettr());
        put(v, "lifeline_job_ettr_of_wall_ratio", t, j.ettrOfWall());
        put(v, "lifeline_job_state", t.and("state", label(j.state())), 1.0);
        put(v, "lifeline_job_open_incidents", t, j.openIncidentCause() == null ? 0.0 : 1.0);
        put(v, "lifeline_job_restart_budget_exhausted", t, j.budgetExhausted() ? 1.0 : 0.0);
        for (String node : j.nodes()) {
            put(v, "lifeline_job_node_info", t.and("node", node), 1.0);
        }
        for (IncidentCause cause : IncidentCause.values()) {
            Tags tc = t.and("cause", label(cause));
            put(v, "lifeline_job_lost_gpu_seconds", tc, c.lostGpuHours().getOrDefault(cause, 0.0) * SECONDS_PER_HOUR);
            put(
                    v,
                    "lifeline_job_interruptions",
                    tc,
                    c.interruptions().getOrDefault(cause, 0).doubleValue());
        }
        put(v, "lifeline_job_restarts", t, (double) c.restarts());
        put(v, "lifeline_job_elapsed_seconds", t, c.elapsedMillis() / MILLIS_PER_SECOND);
        put(v, "lifeline_job_goodput_seconds", t, c.goodputMillis() / MILLIS_PER_SECOND);
        c.badputMillis()
                .forEach((kind, ms) ->
                        put(v, "lifeline_job_badput_seconds", t.and("kind", kind.label()), ms / MILLIS_PER_SECOND));
        stragglerSeries(v, t, j.stragglers());
        put(v, "lifeline_job_notice_interruptions", t.and("checkpointed", "true"), (double) c.noticesCheckpointed());
        put(v, "lifeline_job_notice_interruptions", t.and("checkpointed", "false"), (double)
                c.noticesNotCheckpointed());
    }

    private static void stragglerSeries(
            Map<String, Map<Tags, Double>> v, Tags t, io.lifeline.domain.job.straggler.StragglerView s) {
        if (s == null) {
            return;
        }
        put(v, "lifeline_job_stragglers", t, (double) s.stragglers().size());
        put(v, "lifeline_job_straggler_lost_gpu_seconds", t, s.gpuHoursLost() * SECONDS_PER_HOUR);
        for (io.lifeline.domain.job.straggler.Straggler r : s.stragglers()) {
            put(
                    v,
                    "lifeline_job_straggler_slowdown",
                    t.and("node", r.node() == null ? "" : r.node()).and("rank", Integer.toString(r.rank())),
                    r.slowdown());
        }
    }

    private static void put(Map<String, Map<Tags, Double>> v, String name, Tags t, Double value) {
        if (value != null && !value.isNaN()) {
            v.get(name).put(t, value);
        }
    }

    /** The label value of an enum constant: its name in lower case ({@code SPOT_RECLAIM} → {@code spot_reclaim}). */
    static String label(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }
}
