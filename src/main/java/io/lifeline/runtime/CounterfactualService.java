package io.lifeline.runtime;

import io.lifeline.config.WhatIfConfig;
import io.lifeline.domain.job.JobFilter;
import io.lifeline.domain.job.JobSummary;
import io.lifeline.domain.job.Jobs;
import io.lifeline.domain.replay.Counterfactual;
import io.lifeline.domain.replay.JobCounterfactual;
import io.lifeline.domain.replay.WhatIfJob;
import io.lifeline.domain.replay.WhatIfJobs;
import io.lifeline.domain.replay.WhatIfLimits;
import io.lifeline.platform.Threads;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Keeps the recent jobs' counterfactuals (their history replayed with the notice policy on and off, docs/whatif.md)
 * ready for the Overview and the API: every {@code lifeline.whatif.counterfactual-refresh} on a thread of its own, at
 * most {@code lifeline.whatif.counterfactual-jobs} jobs. The model thread only collects the inputs; the replays run
 * here, and a reader only takes the latest result.
 */
@ApplicationScoped
public class CounterfactualService {

    private static final Logger LOG = Logger.getLogger(CounterfactualService.class);

    /** The jobs' counterfactuals and when they were computed (null before the first time). */
    public record Latest(Instant computedAt, List<JobCounterfactual> jobs) {

        public Latest {
            jobs = List.copyOf(jobs);
        }
    }

    private record Input(WhatIfJob job, boolean finished) {}

    private final ModelRuntime model;
    private final WhatIfConfig config;
    private final Clock clock;
    private final ScheduledExecutorService thread;
    private volatile Latest latest = new Latest(null, List.of());
    private volatile boolean stopping;

    CounterfactualService(ModelRuntime model, WhatIfConfig config, Clock clock) {
        this.model = model;
        this.config = config;
        this.clock = clock;
        this.thread = Executors.newSingleThreadScheduledExecutor(Threads.daemon("lifeline-counterfactual"));
    }

    @SuppressWarnings("FutureReturnValueIgnored") // refreshQuietly() logs its own failures
    void onStart(@Observes StartupEvent e) {
        long every = Math.max(1000, config.counterfactualRefresh().toMillis());
        // A first answer soon after start: the demo's visitor should see it within a couple of minutes.
        thread.scheduleWithFixedDelay(this::refreshQuietly, Math.min(every, 20_000), every, TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    void stop() {
        stopping = true;
        thread.shutdownNow();
    }

    /** The newest result; never waits. */
    public Latest latest() {
        return latest;
    }

    /** Computes the counterfactuals now, on this service's thread; for tests and an impatient caller. */
    public java.util.concurrent.CompletableFuture<Latest> refresh() {
        return java.util.concurrent.CompletableFuture.supplyAsync(this::compute, thread);
    }

    private void refreshQuietly() {
        try {
            compute();
        } catch (RuntimeException ex) {
            LOG.warnf(ex, "fleet counterfactual not refreshed");
        }
    }

    private Latest compute() {
        Instant now = clock.instant();
        List<Input> inputs;
        try {
            inputs = model.read(m -> inputs(m.jobs(), now)).get(30, TimeUnit.SECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return latest;
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException ex) {
            throw new IllegalStateException("the model did not answer", ex);
        }
        WhatIfLimits limits = new WhatIfLimits(
                config.maxScenarios(),
                config.maxEventsPerScenario(),
                config.defaultCheckpointCost().toMillis() / 1000.0);
        long deadline = System.nanoTime() + config.deadline().toNanos();
        List<JobCounterfactual> out = new ArrayList<>(inputs.size());
        for (Input in : inputs) {
            if (stopping || System.nanoTime() > deadline) {
                break;
            }
            try {
                out.add(Counterfactual.of(
                        in.job(), in.finished(), limits, () -> stopping || System.nanoTime() > deadline));
            } catch (io.lifeline.domain.replay.ReplayCancelledException ex) {
                LOG.debugf("fleet counterfactual stopped at its deadline after %d jobs", out.size());
                break;
            }
        }
        Latest l = new Latest(now, out);
        latest = l;
        return l;
    }

    /** On the model thread: the running jobs, then those ended within the recent window, newest first; bounded. */
    private List<Input> inputs(Jobs jobs, Instant now) {
        Instant since = now.minus(config.counterfactualRecent());
        List<JobSummary> pick = new ArrayList<>();
        for (JobSummary s : jobs.list(JobFilter.all())) {
            if (!s.state().isTerminal()
                    || s.finishedAt() != null && s.finishedAt().isAfter(since)) {
                pick.add(s);
            }
        }
        pick.sort(Comparator.comparing((JobSummary s) -> s.state().isTerminal())
                .thenComparing(s -> s.finishedAt() == null ? Instant.MAX : s.finishedAt(), Comparator.reverseOrder())
                .thenComparing(JobSummary::name));
        List<Input> out = new ArrayList<>();
        for (JobSummary s : pick.subList(0, Math.min(pick.size(), Math.max(0, config.counterfactualJobs())))) {
            WhatIfJobs.of(jobs, s.name(), now)
                    .ifPresent(j -> out.add(new Input(j, s.state().isTerminal())));
        }
        return out;
    }

    /** The refresh period, for callers that say how old the figure may be. */
    public Duration period() {
        return config.counterfactualRefresh();
    }
}
