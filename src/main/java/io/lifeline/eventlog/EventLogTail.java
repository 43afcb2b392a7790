package io.lifeline.eventlog;

import io.agroal.api.AgroalDataSource;
import io.lifeline.codec.EventCodec;
import io.lifeline.codec.InvalidEventException;
import io.lifeline.domain.event.Event;
import io.lifeline.platform.Backoff;
import io.lifeline.platform.Threads;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Reception;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Follows the event log in {@code seq} order, the order its writers committed in: at start-up from the beginning (or
 * a checkpoint) until it has caught up, then live, woken by the writers' notices ({@link ChangeNotifications}) and
 * polling every second in case one is missed. This is how every replica sees the events every other replica stored: each replica applies
 * the whole log, whichever replica received an event. One thread; a failure (the database gone) is retried with
 * back-off from the same position, so nothing is skipped.
 */
@ApplicationScoped
public class EventLogTail {

    private static final Logger LOG = Logger.getLogger(EventLogTail.class);
    static final int BATCH = 5_000;
    private static final long POLL_MILLIS = 1_000;
    /** How long the follower lets a notice's commit settle before it reads. */
    private static final long SETTLE_MILLIS = 10;

    private static final Backoff RETRY = Backoff.exponentialMillis(100, 5_000);

    /** Where the rows read go, in seq order: the model's queue. May push back with a {@link RetryLaterException}. */
    public interface Sink {
        /** {@code events.get(i)} is null for a stored row that no longer decodes; its seq is {@code seqs[i]}. */
        void accept(List<Event> events, long[] seqs);

        /**
         * The follower moved past every row up to {@code through}: those above the rows handed over were stored by
         * this replica and queued for its model already ({@link #appliedHere}), or are none. Only called for ranges
         * {@link #appliedHere} was told of.
         */
        default void passed(long through) {}
    }

    private final AgroalDataSource dataSource;
    private final EventCodec codec;
    private final AtomicLong followed = new AtomicLong();
    private final AtomicLong passed = new AtomicLong();
    private final OwnRanges own = new OwnRanges();
    private final Semaphore wake = new Semaphore(0);
    private volatile long cursor;
    private volatile boolean healthy = true;
    private volatile boolean running;
    private Thread thread;

    EventLogTail(AgroalDataSource dataSource, EventCodec codec) {
        this.dataSource = dataSource;
        this.codec = codec;
    }

    /**
     * Hands every row after {@code from} to {@code sink} until a read comes back short (caught up); returns how many
     * rows were handed over.
     *
     * @throws StoreUnavailableException on a database error: at start-up there is nothing to fall back on
     */
    public long catchUp(long from, Sink sink) {
        cursor = from;
        long n = 0;
        try (Connection c = dataSource.getConnection()) {
            while (true) {
                int read = readOnce(c, sink);
                n += read;
                if (read < BATCH) {
                    return n;
                }
            }
        } catch (SQLException e) {
            throw new StoreUnavailableException("the event log", e);
        }
    }

    /** Follows the log live from where {@link #catchUp} stopped, on its own thread (idempotent). */
    public synchronized void follow(Sink sink) {
        if (running) {
            return;
        }
        running = true;
        thread = Threads.start("lifeline-log-follower", () -> run(sink));
    }

    /**
     * Seqs {@code from..to} were stored by this replica and are queued for its model, ahead of anything the follower
     * hands over from now on: the follower moves past them without reading them back. They are committed, and so is
     * every row below {@code from}: a writer takes the commit-order lock before its rows get their seqs
     * ({@link EventLogWriter}), so a row with a lower seq was committed (or rolled back) before these were written.
     */
    public void appliedHere(long from, long to) {
        own.add(from, to);
    }

    /** Rows of this replica's the live follower moved past without reading them back, since start. */
    public long passed() {
        return passed.get();
    }

    /** The last seq handed over. */
    public long cursor() {
        return cursor;
    }

    /** Whether the last read succeeded. */
    public boolean healthy() {
        return healthy;
    }

    /** Rows handed over by the live follower since start. */
    public long followed() {
        return followed.get();
    }

    private void run(Sink sink) {
        // Woken by the writers' notices (any replica's), and every second in case one was missed.
        ChangeNotifications notices =
                new ChangeNotifications(dataSource, EventLogWriter.CHANNEL, n -> wake.release(), wake::release);
        int failures = 0;
        try {
            while (running) {
                try (Connection c = dataSource.getConnection()) {
                    while (running) {
                        int read = readOnce(c, sink);
                        followed.addAndGet(read);
                        healthy = true;
                        failures = 0;
                        if (read < BATCH) {
                            if (wake.tryAcquire(POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                                // A notice arrives as the rows commit: a moment later, this replica's own rows are
                                // queued for its model and passed over instead of read back, and the notices of
                                // several commits are answered by one read.
                                Thread.sleep(SETTLE_MILLIS);
                            }
                            wake.drainPermits();
                        }
                    }
                } catch (SQLException | RuntimeException e) {
                    if (!running) {
                        return;
                    }
                    healthy = false;
                    long backoff = RETRY.delayMillis(++failures);
                    LOG.warnf(
                            "Following the event log failed at seq %d, retrying in %d ms: %s",
                            cursor, backoff, e.getMessage());
                    Thread.sleep(backoff);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            notices.close();
        }
    }

    /**
     * Reads the next rows after the cursor and hands them over, moving past this replica's own rows (see
     * {@link #appliedHere}) without reading them; moves the cursor only once they are taken. Returns the rows read, or
     * {@link #BATCH} when more may follow at once.
     */
    private int readOnce(Connection c, Sink sink) throws SQLException {
        int read = 0;
        while (true) {
            long[] next = own.after(cursor);
            if (next != null && next[0] <= cursor + 1) {
                sink.passed(next[1]);
                passed.addAndGet(next[1] - cursor);
                cursor = next[1];
                continue;
            }
            long below = next == null ? Long.MAX_VALUE : next[0];
            int n = readRows(c, sink, below);
            read += n;
            if (n == BATCH) {
                return BATCH;
            }
            if (next == null) {
                return read;
            }
            // Every row below this replica's next own range is committed and now read: on to the range (the model
            // is told once it is passed, above).
            cursor = Math.max(cursor, below - 1);
        }
    }

    /** Reads the rows after the cursor and below {@code below}, at most {@link #BATCH}, and hands them over. */
    private int readRows(Connection c, Sink sink, long below) throws SQLException {
        List<Event> events = new ArrayList<>();
        List<Long> seqs = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT seq, event_id, source, type, subject, time, data::text"
                + " FROM event_log WHERE seq > ? AND seq < ? ORDER BY seq LIMIT " + BATCH)) {
            ps.setLong(1, cursor);
            ps.setLong(2, below);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    seqs.add(rs.getLong(1));
                    events.add(decode(rs));
                }
            }
        }
        if (events.isEmpty()) {
            return 0;
        }
        long[] s = seqs.stream().mapToLong(Long::longValue).toArray();
        sink.accept(events, s);
        cursor = s[s.length - 1];
        return events.size();
    }

    private Event decode(ResultSet rs) throws SQLException {
        try {
            return codec.decodeAttributes(
                    rs.getString(2),
                    rs.getString(3),
                    rs.getString(4),
                    rs.getString(5),
                    rs.getObject(6, OffsetDateTime.class).toInstant().toString(),
                    codec.parse(rs.getBytes(7)));
        } catch (InvalidEventException e) {
            LOG.warnf(
                    "Stored event %s of %s (seq %d) no longer decodes, skipped: %s",
                    rs.getString(2), rs.getString(5), rs.getLong(1), e.getMessage());
            return null;
        }
    }

    /** Stops with the other {@link ShutdownOrder#BACKGROUND} work, before the connection pool closes. */
    void onStop(@Observes(notifyObserver = Reception.IF_EXISTS) @Priority(ShutdownOrder.BACKGROUND) ShutdownEvent ev) {
        stop();
    }

    @PreDestroy
    void stop() {
        running = false;
        Thread t = thread;
        if (t != null) {
            t.interrupt();
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
