package io.lifeline.connector.outbound.kube;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.lifeline.config.KubeConfig;
import io.lifeline.connector.outbound.kube.WorkloadOperator.JobCost;
import io.lifeline.domain.job.checkpoint.FreshnessView;
import io.lifeline.platform.Threads;
import io.lifeline.runtime.IngestOpened;
import io.lifeline.runtime.ModelRuntime;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jboss.logging.Logger;

/**
 * Every {@code lifeline.workload-cost.interval}, while the Kubernetes connector is on, writes each job's checkpoint
 * age and GPU-hours at risk (from the model's freshness view) on its Kueue Workloads, so that a scheduler can weigh
 * what preempting it would lose (Kueue #477). One model read per pass for all jobs; writes only moved figures.
 */
@ApplicationScoped
public class WorkloadCostPublisher {

    private static final Logger LOG = Logger.getLogger(WorkloadCostPublisher.class);
    private static final long READ_TIMEOUT_SECONDS = 10;

    private final KubeConfig kube;
    private final WorkloadCostConfig config;
    private final Instance<KubernetesClient> clients;
    private final ModelRuntime runtime;
    private ScheduledExecutorService timer;
    private WorkloadOperator workloads;

    WorkloadCostPublisher(
            KubeConfig kube, WorkloadCostConfig config, Instance<KubernetesClient> clients, ModelRuntime runtime) {
        this.kube = kube;
        this.config = config;
        this.clients = clients;
        this.runtime = runtime;
    }

    @SuppressWarnings("FutureReturnValueIgnored") // passSafely() catches and logs its own failures
    synchronized void onOpened(@Observes IngestOpened opened) {
        if (!kube.enabled() || !config.enabled() || timer != null) {
            return;
        }
        long every = Math.max(1000, config.interval().toMillis());
        timer = new ScheduledThreadPoolExecutor(1, Threads.daemon("lifeline-workload-cost"));
        timer.scheduleWithFixedDelay(this::passSafely, every, every, TimeUnit.MILLISECONDS);
        LOG.infof("Kueue Workload cost annotations: every %s", config.interval());
    }

    private void passSafely() {
        try {
            int written = publishNow();
            if (written > 0) {
                LOG.debugf("Kueue Workload cost annotations written on %d Workloads", written);
            }
        } catch (RuntimeException e) {
            // The next pass tries again; an exception must not cancel the schedule.
            LOG.warnf("Kueue Workload cost annotations: pass failed: %s", e.getMessage());
        }
    }

    /** One pass now, whatever the schedule; the number of Workloads annotated. */
    public int publishNow() {
        synchronized (this) {
            if (workloads == null) {
                workloads = new WorkloadOperator(clients.get());
            }
        }
        return workloads.publish(this::costs);
    }

    private Map<String, JobCost> costs(Set<String> jobs) {
        try {
            return runtime.read(m -> {
                        Map<String, JobCost> out = new HashMap<>();
                        for (String job : jobs) {
                            Optional<FreshnessView> f = m.jobs().freshness(job);
                            if (f.isPresent() && f.get().ageMillis() != null) {
                                out.put(
                                        job,
                                        new JobCost(
                                                f.get().ageMillis() / 1000,
                                                f.get().workAtRiskGpuHours()));
                            }
                        }
                        return out;
                    })
                    .get(READ_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Map.of();
        } catch (ExecutionException | TimeoutException e) {
            LOG.debugf("Kueue Workload cost annotations: model read failed: %s", e.toString());
            return Map.of();
        }
    }

    @PreDestroy
    synchronized void stop() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
