package io.lifeline.runtime;

import io.lifeline.domain.job.JobTimelineEntry;
import io.lifeline.domain.job.TimelinePage;
import io.lifeline.domain.job.TimelineSlice;
import io.lifeline.domain.job.checkpoint.CheckpointHistory;
import io.lifeline.domain.job.checkpoint.CheckpointView;
import io.lifeline.domain.job.history.HistoryRecord;
import io.lifeline.domain.job.history.HistorySlice;
import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.domain.page.Page;
import io.lifeline.eventlog.HistoryRecords;
import io.lifeline.eventlog.ShutdownOrder;
import io.lifeline.eventlog.StoreUnavailableException;
import io.lifeline.eventlog.TimelineLog;
import io.lifeline.platform.Threads;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Reception;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A job's whole timeline: the entries the model keeps in memory (the last {@code maxTimelineEntries} per job) and the
 * older ones stored in PostgreSQL, paged with one cursor as if they were one list.
 *
 * <p>Writing: after each applied event the model hands over its new timeline entries ({@code Jobs.drainTimeline}),
 * on the model thread and without I/O; {@link TimelineLog} stores them in batches. Reading: the model thread answers
 * what memory holds ({@code Jobs.timelineSlice}); only when entries that left the ring could be on the page does the
 * read wait for the entries queued so far to be stored and ask PostgreSQL, off the model thread, by job and cursor.
 *
 * <p>Incidents and checkpoints go the same way, except that they change after they are created: the model hands over
 * the ones that changed ({@code Jobs.drainRecords}), {@link HistoryRecords} keeps the latest version of each, and
 * pages go from the newest back ({@code Jobs.incidentSlice}, {@code Jobs.checkpointSlice}).
 */
@ApplicationScoped
public class JobHistory {

    private static final long FLUSH_TIMEOUT_SECONDS = 10;

    private final ModelRuntime model;
    private final TimelineLog log;
    private final HistoryRecords records;
    private final ThreadPoolExecutor readers = new ThreadPoolExecutor(
            2, 2, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(256), Threads.daemon("lifeline-history-read"));
    private volatile boolean started;

    JobHistory(ModelRuntime model, TimelineLog log, HistoryRecords records) {
        this.model = model;
        this.log = log;
        this.records = records;
    }

    /** Starts handing the model's new timeline entries to the store; call before the replay so it rebuilds history. */
    public synchronized void start() {
        if (started) {
            return;
        }
        started = true;
        model.addApplyListener((e, outcome, m) -> {
            List<JobTimelineEntry> fresh = m.jobs().drainTimeline();
            if (!fresh.isEmpty()) {
                log.append(fresh);
            }
            List<HistoryRecord> changed = m.jobs().drainRecords();
            if (!changed.isEmpty()) {
                records.upsert(changed);
            }
        });
    }

    /**
     * A page of a job's timeline in time order, continuing into stored entries where memory ends; empty when the job
     * is unknown. The parameters are those of {@code Jobs.timeline}.
     */
    public CompletionStage<Optional<TimelinePage>> timeline(
            String job, Instant from, Instant to, String cursor, int limit) {
        return model.read(m -> m.jobs().timelineSlice(job, from, to, cursor, limit))
                .thenCompose(found -> {
                    if (found.isEmpty() || !found.get().needsStored()) {
                        return CompletableFuture.completedFuture(found.map(s -> s.page(List.of())));
                    }
                    TimelineSlice s = found.get();
                    return log.flushed()
                            .orTimeout(FLUSH_TIMEOUT_SECONDS, TimeUnit.SECONDS)
                            .exceptionally(t -> {
                                throw t instanceof TimeoutException || t.getCause() instanceof TimeoutException
                                        ? new StoreUnavailableException("timeline history", t)
                                        : asRuntime(t);
                            })
                            .thenApplyAsync(
                                    v -> Optional.of(s.page(log.page(
                                            s.job(),
                                            s.incarnation(),
                                            s.cursor(),
                                            s.storedBelowSeq(),
                                            from,
                                            to,
                                            s.limit() + 1))),
                                    readers);
                });
    }

    /**
     * A page of a job's incidents from the newest back, each page oldest first, continuing into stored incidents where
     * memory ends; empty when the job is unknown.
     *
     * @param cursor  {@link Page#nextCursor()} of the previous page, or null for the newest
     */
    public CompletionStage<Optional<Page<IncidentView>>> incidents(String job, String cursor, int limit) {
        return model.read(m -> m.jobs().incidentSlice(job, cursor, limit))
                .thenCompose(found -> withStored(found, IncidentView.class));
    }

    /**
     * Like {@link #incidents}, for a job's checkpoints: the job's checkpoint history as memory holds it (verification,
     * newest good, lineage, recent restores) with the page's checkpoints in place of memory's, and the cursor.
     */
    public CompletionStage<Optional<CheckpointPage>> checkpoints(String job, String cursor, int limit) {
        return model.read(m -> m.jobs()
                        .checkpointSlice(job, cursor, limit)
                        .flatMap(s -> m.jobs().checkpoints(job).map(h -> new Read(s, h))))
                .thenCompose(found -> withStored(found.map(Read::slice), CheckpointView.class)
                        .thenApply(page -> page.map(p -> {
                            CheckpointHistory h = found.get().history();
                            return new CheckpointPage(
                                    new CheckpointHistory(
                                            h.job(),
                                            h.verifies(),
                                            h.newestGood(),
                                            h.lineageParent(),
                                            p.items(),
                                            h.restores()),
                                    p.nextCursor());
                        })));
    }

    private record Read(HistorySlice<CheckpointView> slice, CheckpointHistory history) {}

    /**
     * A page of a job's checkpoints.
     *
     * @param history     the checkpoint history, its checkpoints those of the page (oldest first)
     * @param nextCursor  pass it back for older checkpoints, or null when there are none
     */
    public record CheckpointPage(CheckpointHistory history, String nextCursor) {}

    private <T> CompletionStage<Optional<Page<T>>> withStored(Optional<HistorySlice<T>> found, Class<T> type) {
        if (found.isEmpty() || !found.get().needsStored()) {
            return CompletableFuture.completedFuture(found.map(s -> s.page(List.of())));
        }
        HistorySlice<T> s = found.get();
        return records.flushed()
                .orTimeout(FLUSH_TIMEOUT_SECONDS, TimeUnit.SECONDS)
                .exceptionally(t -> {
                    throw t instanceof TimeoutException || t.getCause() instanceof TimeoutException
                            ? new StoreUnavailableException("job history", t)
                            : asRuntime(t);
                })
                .thenApplyAsync(
                        v -> Optional.of(s.page(records.page(
                                s.kind(),
                                s.job(),
                                s.incarnation(),
                                Math.min(s.before(), s.storedBelow()),
                                s.limit() + 1,
                                type))),
                        readers);
    }

    private static RuntimeException asRuntime(Throwable t) {
        Throwable c = t instanceof java.util.concurrent.CompletionException && t.getCause() != null ? t.getCause() : t;
        return c instanceof RuntimeException r ? r : new StoreUnavailableException("timeline history", c);
    }

    /** Stops with the other {@link ShutdownOrder#BACKGROUND} work, before the connection pool closes. */
    void onStop(@Observes(notifyObserver = Reception.IF_EXISTS) @Priority(ShutdownOrder.BACKGROUND) ShutdownEvent ev) {
        stop();
    }

    @PreDestroy
    void stop() {
        readers.shutdownNow();
    }
}
