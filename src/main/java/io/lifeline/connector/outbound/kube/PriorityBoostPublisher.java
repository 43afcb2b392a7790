package io.lifeline.connector.outbound.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lifeline.action.store.ActionStore;
import io.lifeline.action.view.AuditEntry;
import io.lifeline.config.KubeConfig;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.job.checkpoint.FreshnessView;
import io.lifeline.domain.job.checkpoint.PriorityBoostPolicy;
import io.lifeline.domain.job.checkpoint.PriorityBoostPolicy.Decision;
import io.lifeline.eventlog.Leadership;
import io.lifeline.platform.LogContext;
import io.lifeline.platform.Threads;
import io.lifeline.runtime.IngestOpened;
import io.lifeline.runtime.LiveModel;
import io.lifeline.runtime.ModelRuntime;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * The checkpoint-aware priority boost on Kueue Workloads (KEP-7990): every {@code lifeline.priority-boost.interval},
 * on the leader while the Kubernetes connector is on, each Workload gets {@code kueue.x-k8s.io/priority-boost} while its
 * job's work at risk is at or above the threshold and loses it once a checkpoint brings it under
 * ({@link PriorityBoostPolicy}). A pass is one list of the Workloads and one model read for all their jobs; only a
 * changed boost is written, and each change is audited and counted. A checkpoint of a boosted job starts a pass at once,
 * so the boost drops right after it rather than up to an interval later.
 */
@ApplicationScoped
public class PriorityBoostPublisher {

    static final String ACTOR = "priority-boost";
    private static final Logger LOG = Logger.getLogger(PriorityBoostPublisher.class);
    private static final long READ_TIMEOUT_SECONDS = 10;

    /**
     * One boost written or removed.
     *
     * @param job       the Workload's job
     * @param workload  {@code namespace/name}
     * @param before    the boost Lifeline had written, or null
     * @param after     the boost now, or null
     * @param reason    why (the decision's words)
     */
    public record Change(String job, String workload, Integer before, Integer after, String reason) {}

    private final KubeConfig kube;
    private final PriorityBoostConfig config;
    private final Instance<KubernetesClient> clients;
    private final ModelRuntime runtime;
    private final Leadership leadership;
    private final ActionStore audit;
    private final Clock clock;
    private final Map<String, Counter> changes = new HashMap<>();
    /** Jobs with a Workload Lifeline boosted, as of the last pass: their checkpoints start a pass at once. */
    private final Set<String> boostedJobs = ConcurrentHashMap.newKeySet();

    private final AtomicBoolean early = new AtomicBoolean();
    private volatile int boostedWorkloads;
    private PriorityBoostPolicy policy;
    private ScheduledExecutorService timer;
    private WorkloadOperator workloads;

    PriorityBoostPublisher(
            KubeConfig kube,
            PriorityBoostConfig config,
            Instance<KubernetesClient> clients,
            ModelRuntime runtime,
            Leadership leadership,
            ActionStore audit,
            MeterRegistry registry,
            Clock clock) {
        this.kube = kube;
        this.config = config;
        this.clients = clients;
        this.runtime = runtime;
        this.leadership = leadership;
        this.audit = audit;
        this.clock = clock;
        for (String change : new String[] {"set", "removed", "failed"}) {
            changes.put(
                    change,
                    Counter.builder("lifeline_workload_priority_boosts")
                            .description(
                                    "Kueue Workload priority boosts written (set), taken off (removed) or not written (failed)")
                            .tag("change", change)
                            .register(registry));
        }
        Gauge.builder("lifeline_workload_priority_boosted", this, p -> p.boostedWorkloads)
                .description("Kueue Workloads carrying Lifeline's priority boost after the last pass")
                .register(registry);
    }

    @SuppressWarnings("FutureReturnValueIgnored") // passSafely() catches and logs its own failures
    synchronized void onOpened(@Observes IngestOpened opened) {
        if (!kube.enabled() || !config.enabled() || timer != null) {
            return;
        }
        try {
            policy();
        } catch (IllegalArgumentException e) {
            LOG.errorf("Kueue Workload priority boost stays off: lifeline.priority-boost.* %s", e.getMessage());
            return;
        }
        long every = Math.max(1000, config.interval().toMillis());
        timer = new ScheduledThreadPoolExecutor(1, Threads.daemon("lifeline-priority-boost"));
        timer.scheduleWithFixedDelay(this::passSafely, every, every, TimeUnit.MILLISECONDS);
        runtime.addApplyListener(this::onApplied);
        LOG.infof(
                "Kueue Workload priority boost: %d while the work at risk is at or above the threshold, every %s",
                config.value(), config.interval());
    }

    /** On the model thread: a checkpoint of a boosted job asks for a pass now (at most one waits). */
    private void onApplied(Event e, io.lifeline.domain.event.ApplyOutcome outcome, LiveModel model) {
        if (outcome.changed()
                && (e.type() == EventType.TRAINER_CHECKPOINT_COMPLETED
                        || e.type() == EventType.TRAINER_CHECKPOINT_VERIFIED)
                && boostedJobs.contains(e.subject())
                && early.compareAndSet(false, true)) {
            ScheduledExecutorService t = timer;
            if (t != null) {
                t.execute(() -> {
                    early.set(false);
                    passSafely();
                });
            }
        }
    }

    private void passSafely() {
        try {
            List<Change> done = passNow();
            if (!done.isEmpty()) {
                LOG.debugf("Kueue Workload priority boost: %d Workloads changed", done.size());
            }
        } catch (RuntimeException e) {
            // The next pass tries again; an exception must not cancel the schedule.
            LOG.warnf("Kueue Workload priority boost: pass failed: %s", e.getMessage());
        }
    }

    /** One pass now, whatever the schedule (on the leader only); the boosts it changed. */
    public synchronized List<Change> passNow() {
        if (!leadership.isLeader()) {
            return List.of();
        }
        if (workloads == null) {
            workloads = new WorkloadOperator(clients.get());
        }
        Map<String, List<GenericKubernetesResource>> byJob = workloads.byJob();
        Map<String, FreshnessView> freshness = byJob.isEmpty() ? Map.of() : freshness(byJob.keySet());
        if (freshness == null) {
            return List.of();
        }
        List<Change> done = new ArrayList<>();
        Set<String> boosted = new HashSet<>();
        int count = 0;
        for (Map.Entry<String, List<GenericKubernetesResource>> e : byJob.entrySet()) {
            Decision d = policy().decide(freshness.get(e.getKey()));
            // What writing its Workloads logs (a refused patch, an audit not written) names the job.
            try (LogContext about = LogContext.job(e.getKey())) {
                count += publish(e.getKey(), e.getValue(), d, done, boosted);
            }
        }
        boostedJobs.retainAll(boosted);
        boostedJobs.addAll(boosted);
        boostedWorkloads = count;
        return done;
    }

    /** Writes one job's boost on its Workloads where it differs; how many of them are boosted now. */
    private int publish(
            String job,
            List<GenericKubernetesResource> jobWorkloads,
            Decision d,
            List<Change> done,
            Set<String> boosted) {
        int count = 0;
        for (GenericKubernetesResource wl : jobWorkloads) {
            Integer before = WorkloadBoosts.ours(wl);
            Map<String, String> patch = WorkloadBoosts.patch(wl, d);
            Integer now = before;
            if (patch != null) {
                if (workloads.annotate(wl, patch)) {
                    now = d.boost();
                    Change c = new Change(
                            job,
                            wl.getMetadata().getNamespace() + "/"
                                    + wl.getMetadata().getName(),
                            before,
                            now,
                            d.reason());
                    done.add(c);
                    changes.get(now != null ? "set" : "removed").increment();
                    audit(c);
                } else {
                    changes.get("failed").increment();
                }
            }
            if (now != null) {
                boosted.add(job);
                count++;
            }
        }
        return count;
    }

    private PriorityBoostPolicy policy() {
        if (policy == null) {
            policy = new PriorityBoostPolicy(
                    new PriorityBoostPolicy.Settings(config.value(), config.gpuHoursThreshold(), config.ageThreshold()),
                    clock);
        }
        return policy;
    }

    private void audit(Change c) {
        try {
            audit.audit(new AuditEntry(
                    0,
                    clock.instant(),
                    ACTOR,
                    c.after() != null ? "workload.priority_boost.set" : "workload.priority_boost.removed",
                    c.job(),
                    null,
                    c.reason(),
                    boost(c.workload(), c.before()),
                    boost(c.workload(), c.after())));
        } catch (RuntimeException e) {
            LOG.warnf(
                    "Kueue Workload priority boost: the change on %s was not audited: %s", c.workload(), e.toString());
        }
    }

    private static String boost(String workload, Integer value) {
        return "workload " + workload + ": " + (value == null ? "no boost" : WorkloadBoosts.BOOST + "=" + value);
    }

    /** The model's freshness of {@code jobs} (those it knows), or null when the model did not answer. */
    private Map<String, FreshnessView> freshness(Set<String> jobs) {
        try {
            return runtime.read(m -> {
                        Map<String, FreshnessView> out = new HashMap<>();
                        for (String job : jobs) {
                            Optional<FreshnessView> f = m.jobs().freshness(job);
                            f.ifPresent(v -> out.put(job, v));
                        }
                        return out;
                    })
                    .get(READ_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (ExecutionException | TimeoutException e) {
            // Without the model's answer nothing is decided: an empty answer would take every boost off.
            LOG.debugf("Kueue Workload priority boost: model read failed: %s", e.toString());
            return null;
        }
    }

    @PreDestroy
    synchronized void stop() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
