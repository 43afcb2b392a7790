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
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
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
 * The checkpoint-aware priority boost on Kueue Workloads (KEP-7990), and the same decision as a preemption cost on KAI
 * Scheduler and Volcano PodGroups ({@link PodGroupMarks}): every {@code lifeline.priority-boost.interval},
 * on the leader while the Kubernetes connector is on, each Workload gets {@code kueue.x-k8s.io/priority-boost} while its
 * job's work at risk is at or above the threshold and loses it once a checkpoint brings it under
 * ({@link PriorityBoostPolicy}). A pass is one list of the Workloads (and of each scheduler's PodGroups that is
 * turned on) and one model read for all their jobs; only a changed boost or mark is written, and each change is
 * audited and counted. A checkpoint of a boosted job starts a pass at once,
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

    /**
     * One PodGroup's marks written or removed.
     *
     * @param job        the PodGroup's job
     * @param scheduler  {@code kai} or {@code volcano}
     * @param podGroup   {@code namespace/name}
     * @param before     what it carried of Lifeline's, in words
     * @param after      what it carries now, in words
     * @param high       whether the preemption cost is high now
     * @param reason     why (the decision's words)
     */
    public record PodGroupChange(
            String job, String scheduler, String podGroup, String before, String after, boolean high, String reason) {}

    /**
     * What one pass changed.
     *
     * @param workloads  Kueue Workloads whose boost changed
     * @param podGroups  PodGroups whose marks changed
     */
    public record Pass(List<Change> workloads, List<PodGroupChange> podGroups) {}

    private final KubeConfig kube;
    private final PriorityBoostConfig config;
    private final Instance<KubernetesClient> clients;
    private final ModelRuntime runtime;
    private final Leadership leadership;
    private final ActionStore audit;
    private final Clock clock;
    private final Map<String, Counter> changes = new HashMap<>();
    private final Map<String, Counter> marks = new HashMap<>();
    /** Jobs with a Workload Lifeline boosted, as of the last pass: their checkpoints start a pass at once. */
    private final Set<String> boostedJobs = ConcurrentHashMap.newKeySet();

    private final AtomicBoolean early = new AtomicBoolean();
    private volatile int boostedWorkloads;
    private PriorityBoostPolicy policy;
    private ScheduledExecutorService timer;
    private WorkloadOperator workloads;
    private List<PodGroupOperator> podGroups;

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
        for (String scheduler : new String[] {"kai", "volcano"}) {
            for (String change : new String[] {"set", "removed", "failed"}) {
                marks.put(
                        scheduler + "/" + change,
                        Counter.builder("lifeline_podgroup_preemption_marks")
                                .description("PodGroup preemption-cost marks written (set: the cost is high), taken off"
                                        + " (removed) or not written (failed)")
                                .tag("scheduler", scheduler)
                                .tag("change", change)
                                .register(registry));
            }
        }
        Gauge.builder("lifeline_workload_priority_boosted", this, p -> p.boostedWorkloads)
                .description("Kueue Workloads carrying Lifeline's priority boost after the last pass")
                .register(registry);
    }

    @SuppressWarnings("FutureReturnValueIgnored") // passSafely() catches and logs its own failures
    synchronized void onOpened(@Observes IngestOpened opened) {
        if (!kube.enabled()
                || !(config.enabled()
                        || config.kai().enabled()
                        || config.volcano().enabled())
                || timer != null) {
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
                "Checkpoint-aware preemption cost (Kueue Workloads %s, KAI PodGroups %s, Volcano PodGroups %s):"
                        + " boost %d while the work at risk is at or above the threshold, every %s",
                config.enabled() ? "on" : "off",
                config.kai().enabled() ? "on" : "off",
                config.volcano().enabled() ? "on" : "off",
                config.value(),
                config.interval());
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
            Pass done = pass();
            if (!done.workloads().isEmpty() || !done.podGroups().isEmpty()) {
                LOG.debugf(
                        "Priority boost: %d Workloads and %d PodGroups changed",
                        done.workloads().size(), done.podGroups().size());
            }
        } catch (RuntimeException e) {
            // The next pass tries again; an exception must not cancel the schedule.
            LOG.warnf("Kueue Workload priority boost: pass failed: %s", e.getMessage());
        }
    }

    /** One pass now, whatever the schedule (on the leader only); the Workload boosts it changed. */
    public synchronized List<Change> passNow() {
        return pass().workloads();
    }

    /** One pass now, whatever the schedule (on the leader only): the Workloads and PodGroups it changed. */
    public synchronized Pass pass() {
        if (!leadership.isLeader()) {
            return new Pass(List.of(), List.of());
        }
        if (workloads == null) {
            workloads = new WorkloadOperator(clients.get());
            podGroups = new ArrayList<>();
            if (config.kai().enabled()) {
                podGroups.add(new PodGroupOperator(clients.get(), PodGroupOperator.KAI, "kai"));
            }
            if (config.volcano().enabled()) {
                podGroups.add(new PodGroupOperator(clients.get(), PodGroupOperator.VOLCANO, "volcano"));
            }
        }
        Map<String, List<GenericKubernetesResource>> byJob = config.enabled() ? workloads.byJob() : Map.of();
        Map<PodGroupOperator, Map<String, List<GenericKubernetesResource>>> groups = new LinkedHashMap<>();
        Set<String> jobs = new HashSet<>(byJob.keySet());
        for (PodGroupOperator op : podGroups) {
            Map<String, List<GenericKubernetesResource>> of = op.byJob();
            groups.put(op, of);
            jobs.addAll(of.keySet());
        }
        Map<String, FreshnessView> freshness = jobs.isEmpty() ? Map.of() : freshness(jobs);
        if (freshness == null) {
            return new Pass(List.of(), List.of());
        }
        // One decision per job, whichever scheduler objects carry it.
        Map<String, Decision> decisions = new HashMap<>();
        for (String job : jobs) {
            decisions.put(job, policy().decide(freshness.get(job)));
        }
        List<Change> done = new ArrayList<>();
        List<PodGroupChange> marked = new ArrayList<>();
        Set<String> boosted = new HashSet<>();
        int count = 0;
        for (Map.Entry<String, List<GenericKubernetesResource>> e : byJob.entrySet()) {
            // What writing its Workloads logs (a refused patch, an audit not written) names the job.
            try (LogContext about = LogContext.job(e.getKey())) {
                count += publish(e.getKey(), e.getValue(), decisions.get(e.getKey()), done, boosted);
            }
        }
        for (Map.Entry<PodGroupOperator, Map<String, List<GenericKubernetesResource>>> g : groups.entrySet()) {
            for (Map.Entry<String, List<GenericKubernetesResource>> e :
                    g.getValue().entrySet()) {
                try (LogContext about = LogContext.job(e.getKey())) {
                    mark(g.getKey(), e.getKey(), e.getValue(), decisions.get(e.getKey()), marked, boosted);
                }
            }
        }
        boostedJobs.retainAll(boosted);
        boostedJobs.addAll(boosted);
        boostedWorkloads = count;
        return new Pass(done, marked);
    }

    /** Writes one job's preemption-cost marks on its PodGroups of one scheduler where they differ. */
    private void mark(
            PodGroupOperator op,
            String job,
            List<GenericKubernetesResource> groups,
            Decision d,
            List<PodGroupChange> marked,
            Set<String> high) {
        Duration protectFor =
                "volcano".equals(op.scheduler()) ? config.volcano().protectFor() : null;
        for (GenericKubernetesResource pg : groups) {
            Map<String, String> before = pg.getMetadata().getAnnotations();
            Map<String, String> patch =
                    PodGroupMarks.patch(before, pg.getMetadata().getLabels(), d, protectFor);
            if (d.boosted()) {
                high.add(job);
            }
            if (patch == null) {
                continue;
            }
            if (!op.annotate(pg, patch)) {
                marks.get(op.scheduler() + "/failed").increment();
                continue;
            }
            String name =
                    pg.getMetadata().getNamespace() + "/" + pg.getMetadata().getName();
            PodGroupChange c = new PodGroupChange(
                    job,
                    op.scheduler(),
                    name,
                    PodGroupMarks.describe(name, before),
                    PodGroupMarks.describe(name, PodGroupMarks.applied(before, patch)),
                    d.boosted(),
                    d.reason());
            marked.add(c);
            marks.get(op.scheduler() + "/" + (c.high() ? "set" : "removed")).increment();
            audit(c);
        }
    }

    private void audit(PodGroupChange c) {
        try {
            audit.audit(new AuditEntry(
                    0,
                    clock.instant(),
                    ACTOR,
                    "podgroup.preemption_cost." + (c.high() ? "set" : "removed"),
                    c.job(),
                    null,
                    c.scheduler() + ": " + c.reason(),
                    c.before(),
                    c.after()));
        } catch (RuntimeException e) {
            LOG.warnf(
                    "Preemption cost: the change on %s PodGroup %s was not audited: %s",
                    c.scheduler(), c.podGroup(), e.toString());
        }
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
