package io.lifeline.eventlog;

import io.lifeline.platform.Backoff;
import io.lifeline.platform.Threads;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.jboss.logging.Logger;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Tells a replica what another one changed, through PostgreSQL's LISTEN/NOTIFY: a writer calls {@link #notify} in
 * the transaction of its change (the notice is delivered at commit, to every replica listening), and each listener
 * holds one connection that waits for notices on its own thread, so nobody polls a table to find out. A notice is
 * a hint, never the data: the listener reads what changed from the tables. While the connection is down notices
 * are missed, so {@code onConnected} runs at every (re)connection for the owner to look again at what it waits for.
 */
public final class ChangeNotifications implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ChangeNotifications.class);
    private static final int WAIT_MILLIS = 1_000;
    private static final Backoff RECONNECT = Backoff.exponentialMillis(100, 5_000);

    private final DataSource dataSource;
    private final String channel;
    private final Consumer<String> onNotice;
    private final Runnable onConnected;
    private final Thread thread;
    private volatile boolean closed;
    private volatile boolean connected;

    /**
     * Starts listening on {@code channel} (a plain identifier).
     *
     * @param onNotice    called with each notice's payload, on the listener's thread
     * @param onConnected called after each (re)connection, on the listener's thread
     */
    public ChangeNotifications(DataSource dataSource, String channel, Consumer<String> onNotice, Runnable onConnected) {
        if (!channel.matches("[a-z_][a-z0-9_]*")) {
            throw new IllegalArgumentException("channel: a lower-case identifier, got '" + channel + "'");
        }
        this.dataSource = dataSource;
        this.channel = channel;
        this.onNotice = onNotice;
        this.onConnected = onConnected;
        this.thread = Threads.start("lifeline-listen-" + channel, this::run);
    }

    /** Sends a notice on {@code channel} with the transaction of {@code c} (at once when it auto-commits). */
    public static void notify(Connection c, String channel, String payload) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_notify(?, ?)")) {
            ps.setString(1, channel);
            ps.setString(2, payload);
            ps.execute();
        }
    }

    /** Whether the listening connection is up now. */
    public boolean connected() {
        return connected;
    }

    private void run() {
        int failures = 0;
        while (!closed) {
            try (Connection c = dataSource.getConnection()) {
                c.setAutoCommit(true);
                try (Statement st = c.createStatement()) {
                    st.execute("LISTEN " + channel);
                }
                PGConnection pg = c.unwrap(PGConnection.class);
                connected = true;
                failures = 0;
                try {
                    onConnected.run();
                    while (!closed) {
                        PGNotification[] notices = pg.getNotifications(WAIT_MILLIS);
                        if (notices != null) {
                            for (PGNotification n : notices) {
                                deliver(n.getParameter());
                            }
                        }
                    }
                } finally {
                    connected = false;
                    unlisten(c);
                }
            } catch (SQLException | RuntimeException e) {
                connected = false;
                if (closed) {
                    return;
                }
                long backoff = RECONNECT.delayMillis(++failures);
                LOG.warnf(
                        "Listening for %s interrupted (%s); connecting again in %d ms",
                        channel, e.getMessage(), backoff);
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException ie) {
                    return;
                }
            }
        }
    }

    private void deliver(String payload) {
        try {
            onNotice.accept(payload);
        } catch (RuntimeException e) {
            // One notice handled badly must not end the listening for every other.
            LOG.warnf("Notice on %s (%s) not handled: %s", channel, payload, e.toString());
        }
    }

    /** The connection goes back to a pool: it must not keep listening for its next user. */
    private void unlisten(Connection c) {
        try (Statement st = c.createStatement()) {
            st.execute("UNLISTEN *");
        } catch (SQLException ignored) {
            // A broken session listens to nothing any more.
        }
    }

    /**
     * Stops listening and waits (bounded) until the connection is back in the pool, also when the caller was
     * interrupted (a follower stopping closes its listener that way): without the wait, the listener could still hold
     * its connection when the pool closes at shutdown, then try to listen again on a closed pool.
     */
    @Override
    public void close() {
        closed = true;
        boolean interrupted = Thread.interrupted();
        try {
            thread.join(WAIT_MILLIS * 3L);
        } catch (InterruptedException e) {
            interrupted = true;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
