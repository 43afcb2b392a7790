package io.lifeline.store;

import io.agroal.api.AgroalDataSource;
import io.lifeline.config.IngestConfig;
import io.lifeline.domain.job.JobTimelineEntry;
import io.lifeline.domain.job.TimelineCursor;
import io.lifeline.domain.job.TimelineEntry;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Jobs' whole timelines in PostgreSQL ({@code job_timeline}), beyond the entries the model keeps in memory.
 *
 * <p>Writes are group commits off the model thread: {@link #append} only queues, and a writer thread inserts
 * whatever queued while the previous transaction ran as one multi-row insert. Rows are keyed by (job, incarnation,
 * seq) and inserted with {@code ON CONFLICT DO NOTHING}, so the replay at start-up, which hands every entry over
 * again, writes only what is missing (all of it, the first time a log stored by an earlier release is replayed).
 * While the database is unavailable the writer retries with back-off; past {@code lifeline.ingest.buffer-events}
 * waiting entries it drops the oldest and counts them ({@link #dropped()}): the model never waits for history, and
 * the next start-up's replay writes the gap.
 *
 * <p>Reads are keyset pages by job in the API's cursor order, on the index {@code (job, incarnation, time_ms, seq)}.
 */
@ApplicationScoped
public class TimelineLog {

    private static final Logger LOG = Logger.getLogger(TimelineLog.class);
    private static final String INSERT = """
            INSERT INTO job_timeline (job, incarnation, seq, time_ms, time, kind, type, summary, incident_id)
            SELECT * FROM unnest(?::text[], ?::bigint[], ?::bigint[], ?::bigint[], ?::text[]::timestamptz[], ?::text[],
                                 ?::text[], ?::text[], ?::text[])
            ON CONFLICT DO NOTHING""";
    private static final String PAGE = """
            SELECT seq, time, kind, type, summary, incident_id FROM job_timeline
            WHERE job = ? AND incarnation = ? AND seq < ? AND (time_ms > ? OR (time_ms = ? AND seq > ?))
              AND time >= ? AND time < ?
            ORDER BY time_ms, seq LIMIT ?""";
    private static final OffsetDateTime MIN = OffsetDateTime.of(1, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);
    private static final OffsetDateTime MAX = OffsetDateTime.of(9999, 12, 31, 0, 0, 0, 0, ZoneOffset.UTC);
    private static final long MAX_BACKOFF_MILLIS = 5_000;

    private final AgroalDataSource dataSource;
    private final int capacity;
    private final int maxBatch;
    /** {@link JobTimelineEntry} rows and {@link CompletableFuture} barriers, in order. */
    private final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();
    private final AtomicInteger buffered = new AtomicInteger();
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;

    TimelineLog(AgroalDataSource dataSource, IngestConfig config) {
        this.dataSource = dataSource;
        this.capacity = config.bufferEvents();
        this.maxBatch = config.writeBatchEvents();
        this.thread = new Thread(this::run, "lifeline-timeline-writer");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** Queues entries for storage; never blocks (see the class comment for what happens when the buffer is full). */
    public void append(List<JobTimelineEntry> entries) {
        for (JobTimelineEntry e : entries) {
            if (buffered.incrementAndGet() > capacity && dropOldest()) {
                dropped.incrementAndGet();
            }
            queue.add(e);
        }
    }

    private boolean dropOldest() {
        for (Object o : queue) {
            if (o instanceof JobTimelineEntry && queue.remove(o)) {
                buffered.decrementAndGet();
                return true;
            }
        }
        return false;
    }

    /** Completes once every entry queued before this call is stored. */
    public CompletableFuture<Void> flushed() {
        CompletableFuture<Void> f = new CompletableFuture<>();
        if (!running) {
            f.completeExceptionally(new StoreUnavailableException("timeline history (shutting down)", null));
            return f;
        }
        queue.add(f);
        return f;
    }

    /**
     * Stored entries of one incarnation of a job, in cursor order: after {@code after}, with a sequence below
     * {@code belowSeq} (those no longer in memory), {@code from <= time < to} (null bounds are open), at most
     * {@code limit}.
     */
    public List<TimelineEntry> page(String job, long incarnation, TimelineCursor after, long belowSeq, Instant from,
                                    Instant to, int limit) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(PAGE)) {
            ps.setString(1, job);
            ps.setLong(2, incarnation);
            ps.setLong(3, belowSeq);
            ps.setLong(4, after.millis());
            ps.setLong(5, after.millis());
            ps.setLong(6, after.seq());
            ps.setObject(7, from == null ? MIN : from.atOffset(ZoneOffset.UTC));
            ps.setObject(8, to == null ? MAX : to.atOffset(ZoneOffset.UTC));
            ps.setInt(9, limit);
            List<TimelineEntry> out = new ArrayList<>(Math.min(limit, 1024));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new TimelineEntry(rs.getLong(1), rs.getObject(2, OffsetDateTime.class).toInstant(),
                            TimelineEntry.Kind.valueOf(rs.getString(3)), rs.getString(4), rs.getString(5),
                            rs.getString(6)));
                }
            }
            return out;
        } catch (SQLException e) {
            throw new StoreUnavailableException("timeline history", e);
        }
    }

    /** Entries stored since start-up (inserted or already there). */
    public long written() {
        return written.get();
    }

    /** Entries dropped because the buffer was full while the database was unavailable. */
    public long dropped() {
        return dropped.get();
    }

    /** Entries waiting to be written. */
    public int buffered() {
        return buffered.get();
    }

    private void run() {
        List<JobTimelineEntry> batch = new ArrayList<>();
        List<CompletableFuture<Void>> barriers = new ArrayList<>();
        while (running || !queue.isEmpty()) {
            try {
                Object first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                take(first, batch, barriers);
                Object next;
                while (batch.size() < maxBatch && (next = queue.poll()) != null) {
                    take(next, batch, barriers);
                }
                if (!batch.isEmpty()) {
                    writeWithRetry(batch);
                    buffered.addAndGet(-batch.size());
                    written.addAndGet(batch.size());
                }
                barriers.forEach(b -> b.complete(null));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } finally {
                batch.clear();
                barriers.clear();
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static void take(Object o, List<JobTimelineEntry> batch, List<CompletableFuture<Void>> barriers) {
        if (o instanceof JobTimelineEntry e) {
            batch.add(e);
        } else {
            barriers.add((CompletableFuture<Void>) o);
        }
    }

    private void writeWithRetry(List<JobTimelineEntry> batch) throws InterruptedException {
        long backoff = 50;
        while (true) {
            try {
                insert(batch);
                return;
            } catch (SQLException | RuntimeException e) {
                if (e instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().startsWith("22")) {
                    // The content, not the connection: retrying would stop every job's history. Nothing of it is lost
                    // to the event log, which the model is rebuilt from.
                    LOG.warnf("Timeline write of %d entries refused, skipped: %s", batch.size(), e.getMessage());
                    return;
                }
                if (!running && backoff >= MAX_BACKOFF_MILLIS) {
                    LOG.warnf("Shutting down with %d timeline entries unwritten (replay writes them): %s", batch.size(),
                            e.getMessage());
                    return;
                }
                LOG.warnf("Timeline write of %d entries failed, retrying in %d ms: %s", batch.size(), backoff,
                        e.getMessage());
                Thread.sleep(backoff);
                backoff = Math.min(backoff * 2, MAX_BACKOFF_MILLIS);
            }
        }
    }

    private void insert(List<JobTimelineEntry> batch) throws SQLException {
        int n = batch.size();
        String[] jobs = new String[n];
        Long[] incarnations = new Long[n];
        Long[] seqs = new Long[n];
        Long[] millis = new Long[n];
        String[] times = new String[n];
        String[] kinds = new String[n];
        String[] types = new String[n];
        String[] summaries = new String[n];
        String[] incidents = new String[n];
        for (int i = 0; i < n; i++) {
            JobTimelineEntry r = batch.get(i);
            TimelineEntry e = r.entry();
            jobs[i] = r.job();
            incarnations[i] = r.incarnation();
            seqs[i] = e.seq();
            millis[i] = e.time().toEpochMilli();
            times[i] = e.time().toString();
            kinds[i] = e.kind().name();
            types[i] = e.type();
            summaries[i] = e.summary() == null ? "" : e.summary();
            incidents[i] = e.incidentId();
        }
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement(INSERT)) {
                ps.setArray(1, c.createArrayOf("text", jobs));
                ps.setArray(2, c.createArrayOf("bigint", incarnations));
                ps.setArray(3, c.createArrayOf("bigint", seqs));
                ps.setArray(4, c.createArrayOf("bigint", millis));
                ps.setArray(5, c.createArrayOf("text", times));
                ps.setArray(6, c.createArrayOf("text", kinds));
                ps.setArray(7, c.createArrayOf("text", types));
                ps.setArray(8, c.createArrayOf("text", summaries));
                ps.setArray(9, c.createArrayOf("text", incidents));
                ps.executeUpdate();
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        }
    }

    /** Writes what is queued (bounded by the retry back-off) and stops. */
    @PreDestroy
    void stop() {
        running = false;
        try {
            thread.join(20_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
