package io.lifeline.eventlog;

import io.lifeline.platform.Backoff;
import io.lifeline.platform.Threads;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.jboss.logging.Logger;

/**
 * The writer of a projection that may lag behind the event log (a job's timeline, its incidents and checkpoints):
 * {@link #append} only queues, never blocks; one thread writes whatever queued while the previous transaction ran,
 * as one batch of at most {@code maxBatch}. While the database is unavailable it retries with back-off; past
 * {@code capacity} waiting items it drops the oldest and counts them (the projection is rebuilt from the event log
 * at the next start-up, so nothing is lost for good). A batch the database refuses for its content (SQL state class
 * 22, or an {@link IllegalArgumentException} from the batch writer) is skipped, not retried for ever.
 *
 * @param <T> the queued item
 */
final class GroupCommitQueue<T> {

    /** Writes one batch in one transaction. */
    interface BatchWriter<T> {
        void write(List<T> batch) throws SQLException;
    }

    private static final Logger LOG = Logger.getLogger(GroupCommitQueue.class);
    private static final Backoff RETRY = Backoff.exponentialMillis(50, 5_000);
    /** How long a batch waits for more items after its first. */
    private static final long LINGER_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private final String what;
    private final Class<T> type;
    private final int capacity;
    private final int maxBatch;
    private final BatchWriter<T> writer;
    /** Items and {@link CompletableFuture} barriers, in order. */
    private final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();

    private final AtomicInteger buffered = new AtomicInteger();
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;

    /**
     * @param what  what is written, for logs and errors ("timeline entries")
     */
    GroupCommitQueue(String what, String threadName, Class<T> type, int capacity, int maxBatch, BatchWriter<T> writer) {
        this.what = what;
        this.type = type;
        this.capacity = capacity;
        this.maxBatch = maxBatch;
        this.writer = writer;
        this.thread = Threads.start(threadName, this::run);
    }

    void append(List<? extends T> items) {
        for (T item : items) {
            if (buffered.incrementAndGet() > capacity && dropOldest()) {
                dropped.incrementAndGet();
            }
            queue.add(item);
        }
    }

    private boolean dropOldest() {
        for (Object o : queue) {
            if (type.isInstance(o) && queue.remove(o)) {
                buffered.decrementAndGet();
                return true;
            }
        }
        return false;
    }

    /** Completes once every item queued before this call is written. */
    CompletableFuture<Void> flushed() {
        CompletableFuture<Void> f = new CompletableFuture<>();
        if (!running) {
            f.completeExceptionally(new StoreUnavailableException(what + " (shutting down)", null));
            return f;
        }
        queue.add(f);
        return f;
    }

    long written() {
        return written.get();
    }

    long dropped() {
        return dropped.get();
    }

    int buffered() {
        return buffered.get();
    }

    private void run() {
        List<T> batch = new ArrayList<>();
        List<CompletableFuture<Void>> barriers = new ArrayList<>();
        while (running || !queue.isEmpty()) {
            try {
                Object first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                take(first, batch, barriers);
                // Lingers a little for more: the projection may lag, and each transaction has a fixed cost (its
                // commit, the index pages it touches) that a larger batch shares. A reader waiting for a flush ends it.
                long until = System.nanoTime() + LINGER_NANOS;
                Object next;
                while (batch.size() < maxBatch && barriers.isEmpty()) {
                    long left = until - System.nanoTime();
                    next = left > 0 ? queue.poll(left, TimeUnit.NANOSECONDS) : queue.poll();
                    if (next == null) {
                        break;
                    }
                    take(next, batch, barriers);
                }
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
    private void take(Object o, List<T> batch, List<CompletableFuture<Void>> barriers) {
        if (type.isInstance(o)) {
            batch.add(type.cast(o));
        } else {
            barriers.add((CompletableFuture<Void>) o);
        }
    }

    private void writeWithRetry(List<T> batch) throws InterruptedException {
        int failures = 0;
        while (true) {
            try {
                writer.write(batch);
                return;
            } catch (SQLException | RuntimeException e) {
                if (e instanceof IllegalArgumentException
                        || e instanceof SQLException sql
                                && sql.getSQLState() != null
                                && sql.getSQLState().startsWith("22")) {
                    // The content, not the connection: retrying would stop every job's history. Nothing of it is lost
                    // to the event log, which the model (and this projection) is rebuilt from.
                    LOG.warnf("Write of %d %s refused, skipped: %s", batch.size(), what, e.getMessage());
                    return;
                }
                long backoff = RETRY.delayMillis(++failures);
                if (!running && backoff >= RETRY.max().toMillis()) {
                    LOG.warnf(
                            "Shutting down with %d %s unwritten (the replay writes them): %s",
                            batch.size(), what, e.getMessage());
                    return;
                }
                LOG.warnf("Write of %d %s failed, retrying in %d ms: %s", batch.size(), what, backoff, e.getMessage());
                Thread.sleep(backoff);
            }
        }
    }

    /**
     * Runs one statement whose parameters are whole columns (PostgreSQL arrays, typically under {@code unnest}) in one
     * transaction: the shape of every batch write here. The commit does not wait for its flush to disk: a projection
     * is written again from the event log by the replay at start-up, and the next synchronous commit (the event log's,
     * a model checkpoint's) flushes it with everything before it.
     *
     * @param types    the SQL element type of each column ("text", "bigint")
     * @param columns  the columns, in parameter order
     */
    static void executeColumns(DataSource dataSource, String sql, String[] types, Object[]... columns)
            throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                try (PreparedStatement async = c.prepareStatement("SET LOCAL synchronous_commit TO off")) {
                    async.execute();
                }
                for (int i = 0; i < columns.length; i++) {
                    ps.setArray(i + 1, c.createArrayOf(types[i], columns[i]));
                }
                ps.executeUpdate();
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        }
    }

    /** Writes what is queued (bounded by the retry back-off) and stops. */
    void stop() {
        running = false;
        try {
            thread.join(20_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
