package io.lifeline.store;

import io.agroal.api.AgroalDataSource;
import io.lifeline.codec.EventCodec;
import io.lifeline.codec.InvalidEventException;
import io.lifeline.domain.event.Event;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
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
    private static final long MAX_BACKOFF_MILLIS = 5_000;

    /** Where the rows read go, in seq order: the model's queue. May push back with a {@link RetryLaterException}. */
    public interface Sink {
        /** {@code events.get(i)} is null for a stored row that no longer decodes; its seq is {@code seqs[i]}. */
        void accept(List<Event> events, long[] seqs);
    }

    private final AgroalDataSource dataSource;
    private final EventCodec codec;
    private final AtomicLong followed = new AtomicLong();
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
     * rows were handed over. Throws on a database error: at start-up there is nothing to fall back on.
     */
    public long catchUp(long from, Sink sink) throws SQLException {
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
        }
    }

    /** Follows the log live from where {@link #catchUp} stopped, on its own thread (idempotent). */
    public synchronized void follow(Sink sink) {
        if (running) {
            return;
        }
        running = true;
        thread = new Thread(() -> run(sink), "lifeline-log-follower");
        thread.setDaemon(true);
        thread.start();
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
        ChangeNotifications notices = new ChangeNotifications(dataSource, EventLogWriter.CHANNEL, n -> wake.release(),
                wake::release);
        long backoff = 100;
        try {
            while (running) {
                try (Connection c = dataSource.getConnection()) {
                    while (running) {
                        int read = readOnce(c, sink);
                        followed.addAndGet(read);
                        healthy = true;
                        backoff = 100;
                        if (read < BATCH) {
                            wake.tryAcquire(POLL_MILLIS, TimeUnit.MILLISECONDS);
                            wake.drainPermits();
                        }
                    }
                } catch (SQLException | RuntimeException e) {
                    if (!running) {
                        return;
                    }
                    healthy = false;
                    LOG.warnf("Following the event log failed at seq %d, retrying in %d ms: %s", cursor, backoff,
                            e.getMessage());
                    Thread.sleep(backoff);
                    backoff = Math.min(backoff * 2, MAX_BACKOFF_MILLIS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            notices.close();
        }
    }

    /** Reads the next rows after the cursor and hands them over; moves the cursor only once they are taken. */
    private int readOnce(Connection c, Sink sink) throws SQLException {
        List<Event> events = new ArrayList<>();
        List<Long> seqs = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT seq, event_id, source, type, subject, time, data::text"
                + " FROM event_log WHERE seq > ? ORDER BY seq LIMIT " + BATCH)) {
            ps.setLong(1, cursor);
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
            return codec.decodeAttributes(rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                    rs.getObject(6, OffsetDateTime.class).toInstant().toString(), codec.parse(rs.getBytes(7)));
        } catch (InvalidEventException e) {
            LOG.warnf("Stored event %s of %s (seq %d) no longer decodes, skipped: %s", rs.getString(2), rs.getString(5),
                    rs.getLong(1), e.getMessage());
            return null;
        }
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
