package io.lifeline.runtime;

import io.lifeline.codec.trace.TraceReaders;
import io.lifeline.config.WhatIfConfig;
import io.lifeline.domain.job.Jobs;
import io.lifeline.domain.replay.ExposureRates;
import io.lifeline.domain.replay.InterruptionRates;
import io.lifeline.domain.replay.ReplayCancelledException;
import io.lifeline.domain.replay.Trace;
import io.lifeline.domain.replay.TraceFormat;
import io.lifeline.domain.replay.TracePlayer;
import io.lifeline.domain.replay.WhatIf;
import io.lifeline.domain.replay.WhatIfJob;
import io.lifeline.domain.replay.WhatIfJobs;
import io.lifeline.domain.replay.WhatIfLimits;
import io.lifeline.domain.replay.WhatIfReport;
import io.lifeline.domain.replay.WhatIfRequest;
import io.lifeline.platform.Threads;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs what-ifs (docs/whatif.md) for the REST API and the dashboard: the job's inputs are read on the model thread
 * (a few small views), the replays run on this service's own threads, at most {@code lifeline.whatif.max-concurrent}
 * at once, each stopped at {@code lifeline.whatif.deadline} or when its caller cancels the returned stage.
 */
@ApplicationScoped
public class WhatIfService {

    private final ModelRuntime model;
    private final SpotPricing pricing;
    private final WhatIfConfig config;
    private final Clock clock;
    private final ExecutorService threads;
    private final Semaphore slots;

    WhatIfService(ModelRuntime model, SpotPricing pricing, WhatIfConfig config, Clock clock) {
        this.model = model;
        this.pricing = pricing;
        this.config = config;
        this.clock = clock;
        this.threads =
                Executors.newFixedThreadPool(Math.max(1, config.maxConcurrent()), Threads.daemon("lifeline-whatif"));
        this.slots = new Semaphore(Math.max(1, config.maxConcurrent()));
    }

    @PreDestroy
    void stop() {
        threads.shutdownNow();
    }

    private WhatIfLimits limits() {
        return new WhatIfLimits(
                config.maxScenarios(),
                config.maxEventsPerScenario(),
                config.defaultCheckpointCost().toMillis() / 1000.0);
    }

    public int maxTraceBytes() {
        return config.maxTraceBytes();
    }

    /** A what-if of a job of the live model; empty when the job is unknown. */
    public CompletionStage<Optional<WhatIfReport>> job(String job, WhatIfRequest request) {
        return model.read(m -> {
                    Jobs jobs = m.jobs();
                    Optional<WhatIfJob> input = WhatIfJobs.of(jobs, job, clock.instant());
                    boolean finished = jobs.detail(job)
                            .map(d -> d.summary().state().isTerminal())
                            .orElse(false);
                    InterruptionRates rates = jobs.spot(job, pricing.prices())
                            .<InterruptionRates>map(ExposureRates::new)
                            .orElse(InterruptionRates.NONE);
                    return input.map(i -> new Input(i, finished, rates));
                })
                .thenCompose(found -> found.isEmpty()
                        ? CompletableFuture.completedFuture(Optional.<WhatIfReport>empty())
                        : replay(found.get(), request).thenApply(Optional::of));
    }

    /**
     * A what-if of a job of an uploaded trace: the trace is played into a model of its own first. {@code job} may be
     * null: the job of the trace with the most interruptions.
     */
    public CompletionStage<WhatIfReport> trace(TraceFormat format, String content, String job, WhatIfRequest request) {
        return submit(stop -> {
            Trace trace = TraceReaders.read(format, content);
            List<String> names = trace.jobs();
            if (names.isEmpty()) {
                throw new IllegalArgumentException("the trace holds no job"
                        + (trace.rejected().isEmpty()
                                ? ""
                                : ": " + trace.rejected().get(0).line() + ": "
                                        + trace.rejected().get(0).reason()));
            }
            TracePlayer player = new TracePlayer(trace.events().get(0).time());
            player.apply(trace.events(), stop::get);
            Jobs jobs = player.jobs();
            String name = job != null
                    ? job
                    : names.stream()
                            .max(Comparator.comparingInt((String n) -> jobs.detail(n)
                                            .map(d -> d.summary().interruptions())
                                            .orElse(0))
                                    .thenComparing(Comparator.reverseOrder()))
                            .orElseThrow();
            if (!names.contains(name)) {
                throw new IllegalArgumentException("job " + name + " is not in the trace (it holds " + names.size()
                        + " jobs, for example " + names.get(0) + ")");
            }
            Instant end = trace.events().get(trace.events().size() - 1).time();
            WhatIfJob input = WhatIfJobs.of(jobs, name, end).orElseThrow();
            boolean finished =
                    jobs.detail(name).map(d -> d.summary().state().isTerminal()).orElse(false);
            WhatIfReport r = WhatIf.run(
                    input, finished, request, pricing.prices(), InterruptionRates.NONE, limits(), stop::get, clock);
            if (!trace.rejected().isEmpty()) {
                List<String> notes = new java.util.ArrayList<>(r.notes());
                trace.rejected().stream()
                        .limit(20)
                        .forEach(x -> notes.add("trace line " + x.line() + " refused: " + x.reason()));
                r = new WhatIfReport(
                        r.job(),
                        r.start(),
                        r.end(),
                        r.gpus(),
                        r.nodes(),
                        r.pool(),
                        r.mtbiSeconds(),
                        r.currentIntervalSeconds(),
                        r.advisedIntervalSeconds(),
                        r.rows(),
                        notes,
                        r.elapsedMillis());
            }
            return r;
        });
    }

    private record Input(WhatIfJob job, boolean finished, InterruptionRates rates) {}

    private CompletionStage<WhatIfReport> replay(Input in, WhatIfRequest request) {
        return submit(stop ->
                WhatIf.run(in.job(), in.finished(), request, pricing.prices(), in.rates(), limits(), stop::get, clock));
    }

    private interface Work {
        WhatIfReport run(AtomicBoolean stop);
    }

    @SuppressWarnings("FutureReturnValueIgnored") // orTimeout() completes out itself, and out is returned
    private CompletionStage<WhatIfReport> submit(Work work) {
        if (!slots.tryAcquire()) {
            CompletableFuture<WhatIfReport> busy = new CompletableFuture<>();
            busy.completeExceptionally(new io.lifeline.eventlog.RetryLaterException(
                    "as many what-ifs as lifeline.whatif.max-concurrent allows are replaying: try again shortly"));
            return busy;
        }
        AtomicBoolean stop = new AtomicBoolean();
        CompletableFuture<WhatIfReport> out = new CompletableFuture<>();
        // A cancelled or timed-out stage stops the replay at its next look at the flag.
        out.whenComplete((r, e) -> stop.set(true));
        long deadline = config.deadline().toMillis();
        out.orTimeout(deadline, TimeUnit.MILLISECONDS);
        try {
            threads.execute(() -> {
                try {
                    out.complete(work.run(stop));
                } catch (ReplayCancelledException e) {
                    out.completeExceptionally(new WhatIfDeadlineException(deadline));
                } catch (RuntimeException e) {
                    out.completeExceptionally(e);
                } finally {
                    slots.release();
                }
            });
        } catch (RuntimeException e) {
            slots.release();
            throw e;
        }
        return out.exceptionally(e -> {
            Throwable cause =
                    e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
            if (cause instanceof java.util.concurrent.TimeoutException) {
                throw new WhatIfDeadlineException(deadline);
            }
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(cause);
        });
    }
}
