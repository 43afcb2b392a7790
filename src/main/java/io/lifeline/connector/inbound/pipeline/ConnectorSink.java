package io.lifeline.connector.inbound.pipeline;

import io.lifeline.codec.Refusal;
import io.lifeline.domain.event.Event;
import io.lifeline.eventlog.RetryLaterException;
import io.lifeline.ingest.IngestGateway;
import io.lifeline.ingest.IngestReceipt;
import io.lifeline.ingest.NotAppliedLog;
import io.lifeline.platform.Backoff;
import io.lifeline.platform.Threads;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.jboss.logging.Logger;

/**
 * Hands events of watched sources (the Kubernetes informers, XIDs of a scrape the pipeline pushed back) to the
 * pipeline without making the source wait for the store, and without losing them when the pipeline pushes back:
 * one sender thread submits them in batches, in order, and retries a batch the pipeline refused until it is
 * taken. The queue is bounded ({@value #CAPACITY} events); a source that outruns a stalled pipeline waits in
 * {@link #send} (an informer then simply lags behind the API server) instead of growing memory.
 */
@ApplicationScoped
public class ConnectorSink {

    static final int CAPACITY = 20_000;
    private static final int MAX_BATCH = 1_000;
    /** While the pipeline pushes back: 100 ms doubling to 5 s. */
    private static final Backoff PUSHED_BACK = Backoff.exponentialMillis(100, 5_000);

    private static final Logger LOG = Logger.getLogger(ConnectorSink.class);

    private record Pending(String connector, Event event) {}

    private final IngestGateway gateway;
    private final ConnectorMetrics metrics;
    private final BlockingQueue<Pending> queue = new ArrayBlockingQueue<>(CAPACITY);
    private final LongAdder submitted = new LongAdder();
    private volatile boolean running = true;
    private Thread sender;

    ConnectorSink(IngestGateway gateway, ConnectorMetrics metrics) {
        this.gateway = gateway;
        this.metrics = metrics;
    }

    /**
     * Queues events for the gateway (an event it refuses, dated too far ahead, is counted and dropped there).
     * Waits while the queue is full. Returns false when shutting down or interrupted.
     */
    public boolean send(String connector, List<Event> events) {
        ensureStarted();
        for (Event e : events) {
            try {
                while (!queue.offer(new Pending(connector, e), 1, TimeUnit.SECONDS)) {
                    if (!running) {
                        return false;
                    }
                }
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /**
     * What a polling source does when the pipeline did not take a submission: samples come again with the next
     * poll, but a lifecycle event (an XID) is reported once, so after a push-back ({@link RetryLaterException}) the
     * lifecycle events are queued here to be retried. Returns the cause.
     */
    public Throwable keepLifecycle(String connector, List<Event> events, Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (cause instanceof RetryLaterException) {
            List<Event> lifecycle = new ArrayList<>();
            for (Event e : events) {
                if (!e.isTelemetry()) {
                    lifecycle.add(e);
                }
            }
            if (!lifecycle.isEmpty()) {
                send(connector, lifecycle);
            }
        }
        return cause;
    }

    /** Events waiting to be submitted. */
    public int pending() {
        return queue.size();
    }

    /** Events the pipeline has taken from this sink so far. */
    public long submitted() {
        return submitted.sum();
    }

    private synchronized void ensureStarted() {
        if (sender == null) {
            sender = Threads.start("lifeline-connector-sink", this::run);
        }
    }

    private void run() {
        List<Pending> batch = new ArrayList<>(MAX_BATCH);
        while (running || !queue.isEmpty()) {
            try {
                Pending first = queue.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, MAX_BATCH - 1);
                deliver(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                LOG.errorf(e, "Dropped %d connector events after an unexpected error", batch.size());
            } finally {
                batch.clear();
            }
        }
    }

    /** Submits a batch until the pipeline takes it; gives up only when shutting down. */
    private void deliver(List<Pending> batch) throws InterruptedException {
        List<Event> events = new ArrayList<>(batch.size());
        for (Pending p : batch) {
            events.add(p.event());
        }
        int pushedBack = 0;
        while (true) {
            try {
                IngestReceipt r = gateway.submit(events).toCompletableFuture().join();
                for (Refusal x : r.rejected()) {
                    Pending p = batch.get(x.index());
                    metrics.rejectedAtIngest(p.connector(), ConnectorMetrics.TIME_IN_FUTURE);
                    LOG.debugf(
                            "%s: dropped %s of %s: %s",
                            p.connector(), x.id(), p.event().subject(), x.reason());
                }
                // Not waited for: the next batch goes on, and what the model did not apply is written down.
                List<Pending> sent = List.copyOf(batch);
                r.applied()
                        .thenAccept(a -> NotAppliedLog.record(
                                "connector", events, a, i -> sent.get(i).connector()));
                submitted.add(events.size() - r.rejected().size());
                return;
            } catch (CompletionException e) {
                Throwable cause = e.getCause() != null ? e.getCause() : e;
                if (!(cause instanceof RetryLaterException) || !running) {
                    LOG.warnf(
                            "Dropped %d connector events (first %s of %s): %s",
                            events.size(), events.get(0).id(), events.get(0).subject(), cause.getMessage());
                    return;
                }
                long backoff = PUSHED_BACK.delayMillis(++pushedBack);
                LOG.debugf(
                        "Pipeline pushed back %s connector events (%s); retrying in %s ms",
                        (Object) events.size(), cause.getMessage(), backoff);
                Thread.sleep(backoff);
            }
        }
    }

    @PreDestroy
    void stop() {
        running = false;
        Thread t = sender;
        if (t != null) {
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
