package io.lifeline.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.jboss.logging.Logger;

/**
 * One replica leads: the one holding a PostgreSQL session advisory lock. The lock lives as long as the session that
 * took it, so a replica that dies (or loses its database connection) lets another take over at its next try, with no
 * lease to tune and nothing to clean up. Each time a replica becomes leader it draws the next fencing token
 * ({@link #term()}, table {@code leader_term}), so that work stamped by a replaced leader can be told apart.
 */
public final class LeaderElection implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(LeaderElection.class);
    /** "lifeline" as a number: the lock every replica competes for. */
    static final long LOCK_KEY = 0x6c6966656c696e65L;

    private final DataSource dataSource;
    private final String identity;
    private final Consumer<Boolean> onChange;
    private final ScheduledExecutorService timer;
    private Connection session;
    private volatile boolean leader;
    private volatile long term;

    /**
     * @param onChange told true when this replica becomes leader, false when it stops being one (on its timer thread)
     */
    public LeaderElection(DataSource dataSource, String identity, Consumer<Boolean> onChange) {
        this.dataSource = dataSource;
        this.identity = identity;
        this.onChange = onChange;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "lifeline-leader-" + identity);
            t.setDaemon(true);
            return t;
        });
    }

    /** Tries now, then every {@code periodMillis}. */
    public void start(long periodMillis) {
        timer.scheduleWithFixedDelay(this::tick, 0, periodMillis, TimeUnit.MILLISECONDS);
    }

    public boolean isLeader() {
        return leader;
    }

    /** The fencing token of this replica's current leadership; 0 when it does not lead. */
    public long term() {
        return leader ? term : 0;
    }

    public String identity() {
        return identity;
    }

    synchronized void tick() {
        try {
            if (leader) {
                check();
            } else {
                tryAcquire();
            }
        } catch (SQLException e) {
            lose("database session lost: " + e.getMessage());
        }
    }

    private void tryAcquire() throws SQLException {
        if (session == null || session.isClosed()) {
            session = dataSource.getConnection();
            session.setAutoCommit(true);
        }
        try (PreparedStatement ps = session.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
            ps.setLong(1, LOCK_KEY);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next() && rs.getBoolean(1)) {
                    term = nextTerm();
                    leader = true;
                    LOG.infof("Replica %s is the leader (term %d)", identity, term);
                    onChange.accept(true);
                }
            }
        }
    }

    /** Draws the next fencing token; only the lock holder gets here, so the increments never race. */
    private long nextTerm() throws SQLException {
        try (PreparedStatement ps = session.prepareStatement("INSERT INTO leader_term (name, term) VALUES ('lifeline', 1)"
                + " ON CONFLICT (name) DO UPDATE SET term = leader_term.term + 1 RETURNING term");
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private void check() throws SQLException {
        try (PreparedStatement ps = session.prepareStatement(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted"
                        + " AND objid = ?")) {
            ps.setLong(1, LOCK_KEY & 0xffffffffL);
            ps.setQueryTimeout(5);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || rs.getInt(1) == 0) {
                    lose("advisory lock no longer held");
                }
            }
        }
    }

    private void lose(String why) {
        // Stop acting first, then let another replica in: never two leaders at once, even for a moment.
        if (leader) {
            leader = false;
            LOG.warnf("Replica %s is no longer the leader: %s", identity, why);
            onChange.accept(false);
        }
        if (session != null) {
            try (java.sql.Statement st = session.createStatement()) {
                // The connection goes back to a pool, where its session lives on: give the lock up explicitly.
                st.execute("SELECT pg_advisory_unlock_all()");
            } catch (SQLException ignored) {
                // A broken session holds nothing any more.
            }
            try {
                session.close();
            } catch (SQLException ignored) {
                // The session is already unusable; closing is only tidying up.
            }
            session = null;
        }
    }

    /** Gives the lock up (by ending the session) and stops trying. */
    @Override
    public synchronized void close() {
        timer.shutdownNow();
        lose("stopping");
    }
}
