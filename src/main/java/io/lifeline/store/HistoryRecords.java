package io.lifeline.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agroal.api.AgroalDataSource;
import io.lifeline.config.IngestConfig;
import io.lifeline.domain.job.HistoryRecord;
import io.lifeline.domain.job.HistorySlice.Ordered;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Jobs' incidents and checkpoints in PostgreSQL ({@code job_records}), beyond the newest ones the model keeps in
 * memory: a projection holding the latest version of each, keyed by (kind, job, incarnation, id).
 *
 * <p>Writes are group commits off the model thread, like {@link TimelineLog}: {@link #upsert} only queues, and a
 * writer thread upserts whatever queued while the previous transaction ran as one multi-row statement (the latest
 * version of a record queued twice wins). The replay at start-up hands every record over again and rewrites the same
 * rows. While the database is unavailable the writer retries with back-off; past {@code lifeline.ingest.buffer-events}
 * waiting records it drops the oldest and counts them ({@link #dropped()}); the next start-up's replay writes them.
 *
 * <p>Reads are keyset pages by job from the newest back, on the index {@code (kind, job, incarnation, ordinal)}; the
 * record is stored as the JSON of its API view.
 */
@ApplicationScoped
public class HistoryRecords {

    private static final Logger LOG = Logger.getLogger(HistoryRecords.class);
    private static final String UPSERT = """
            INSERT INTO job_records (kind, job, incarnation, id, ordinal, time, body)
            SELECT k, j, i, d, o, t::timestamptz, b::jsonb
            FROM unnest(?::text[], ?::text[], ?::bigint[], ?::text[], ?::bigint[], ?::text[], ?::text[]) AS r(k, j, i, d, o, t, b)
            ON CONFLICT (kind, job, incarnation, id) DO UPDATE
            SET ordinal = EXCLUDED.ordinal, time = EXCLUDED.time, body = EXCLUDED.body""";
    private static final String PAGE = """
            SELECT ordinal, body FROM job_records
            WHERE kind = ? AND job = ? AND incarnation = ? AND ordinal < ?
            ORDER BY ordinal DESC LIMIT ?""";
    private static final long MAX_BACKOFF_MILLIS = 5_000;

    private final AgroalDataSource dataSource;
    private final ObjectMapper json;
    private final int capacity;
    private final int maxBatch;
    /** {@link HistoryRecord} rows and {@link CompletableFuture} barriers, in order. */
    private final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();
    private final AtomicInteger buffered = new AtomicInteger();
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;

    HistoryRecords(AgroalDataSource dataSource, ObjectMapper json, IngestConfig config) {
        this.dataSource = dataSource;
        this.json = json;
        this.capacity = config.bufferEvents();
        this.maxBatch = config.writeBatchEvents();
        this.thread = new Thread(this::run, "lifeline-records-writer");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** Queues records for storage; never blocks (see the class comment for what happens when the buffer is full). */
    public void upsert(List<HistoryRecord> records) {
        for (HistoryRecord r : records) {
            if (buffered.incrementAndGet() > capacity && dropOldest()) {
                dropped.incrementAndGet();
            }
            queue.add(r);
        }
    }

    private boolean dropOldest() {
        for (Object o : queue) {
            if (o instanceof HistoryRecord && queue.remove(o)) {
                buffered.decrementAndGet();
                return true;
            }
        }
        return false;
    }

    /** Completes once every record queued before this call is stored. */
    public CompletableFuture<Void> flushed() {
        CompletableFuture<Void> f = new CompletableFuture<>();
        if (!running) {
            f.completeExceptionally(new StoreUnavailableException("job history (shutting down)", null));
            return f;
        }
        queue.add(f);
        return f;
    }

    /**
     * Stored records of one kind and incarnation of a job with an ordinal below {@code below}, newest first, at most
     * {@code limit}, read back as {@code type}.
     */
    public <T> List<Ordered<T>> page(HistoryRecord.Kind kind, String job, long incarnation, long below, int limit,
                                     Class<T> type) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(PAGE)) {
            ps.setString(1, kind.name());
            ps.setString(2, job);
            ps.setLong(3, incarnation);
            ps.setLong(4, below);
            ps.setInt(5, limit);
            List<Ordered<T>> out = new ArrayList<>(Math.min(limit, 1024));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Ordered<>(rs.getLong(1), json.readValue(rs.getString(2), type)));
                }
            }
            return out;
        } catch (SQLException e) {
            throw new StoreUnavailableException("job history", e);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored " + kind + " of " + job + " cannot be read", e);
        }
    }

    /** Records stored since start-up (inserted or updated). */
    public long written() {
        return written.get();
    }

    /** Records dropped because the buffer was full while the database was unavailable. */
    public long dropped() {
        return dropped.get();
    }

    /** Records waiting to be written. */
    public int buffered() {
        return buffered.get();
    }

    private void run() {
        List<HistoryRecord> batch = new ArrayList<>();
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
    private static void take(Object o, List<HistoryRecord> batch, List<CompletableFuture<Void>> barriers) {
        if (o instanceof HistoryRecord r) {
            batch.add(r);
        } else {
            barriers.add((CompletableFuture<Void>) o);
        }
    }

    private void writeWithRetry(List<HistoryRecord> batch) throws InterruptedException {
        long backoff = 50;
        while (true) {
            try {
                write(batch);
                return;
            } catch (SQLException | RuntimeException e) {
                if (e instanceof IllegalArgumentException
                        || e instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().startsWith("22")) {
                    // The content, not the connection: retrying would stop every job's history.
                    LOG.warnf("History write of %d records refused, skipped: %s", batch.size(), e.getMessage());
                    return;
                }
                if (!running && backoff >= MAX_BACKOFF_MILLIS) {
                    LOG.warnf("Shutting down with %d history records unwritten (replay writes them): %s", batch.size(),
                            e.getMessage());
                    return;
                }
                LOG.warnf("History write of %d records failed, retrying in %d ms: %s", batch.size(), backoff,
                        e.getMessage());
                Thread.sleep(backoff);
                backoff = Math.min(backoff * 2, MAX_BACKOFF_MILLIS);
            }
        }
    }

    private void write(List<HistoryRecord> batch) throws SQLException {
        // One statement may not change a row twice: the latest version of each record wins.
        Map<String, HistoryRecord> latest = new LinkedHashMap<>();
        for (HistoryRecord r : batch) {
            latest.put(r.kind() + "\u0000" + r.job() + "\u0000" + r.incarnation() + "\u0000" + r.id(), r);
        }
        int n = latest.size();
        String[] kinds = new String[n];
        String[] jobs = new String[n];
        Long[] incarnations = new Long[n];
        String[] ids = new String[n];
        Long[] ordinals = new Long[n];
        String[] times = new String[n];
        String[] bodies = new String[n];
        int i = 0;
        for (HistoryRecord r : latest.values()) {
            kinds[i] = r.kind().name();
            jobs[i] = r.job();
            incarnations[i] = r.incarnation();
            ids[i] = r.id();
            ordinals[i] = r.ordinal();
            times[i] = r.time().toString();
            try {
                bodies[i] = json.writeValueAsString(r.view());
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException("cannot write " + r.kind() + " " + r.id(), e);
            }
            i++;
        }
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement(UPSERT)) {
                ps.setArray(1, c.createArrayOf("text", kinds));
                ps.setArray(2, c.createArrayOf("text", jobs));
                ps.setArray(3, c.createArrayOf("bigint", incarnations));
                ps.setArray(4, c.createArrayOf("text", ids));
                ps.setArray(5, c.createArrayOf("bigint", ordinals));
                ps.setArray(6, c.createArrayOf("text", times));
                ps.setArray(7, c.createArrayOf("text", bodies));
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
