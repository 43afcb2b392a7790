package io.lifeline.eventlog;

import io.lifeline.platform.Threads;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.jboss.logging.Logger;

/**
 * One replica leads: the one holding the lease in {@code leader_term}, renewed every check period and timed by the
 * database's clock. A replica that dies, is paused or loses the database stops renewing, and another takes the lease
 * over once it has expired. Each new holding draws the next fencing token ({@link #term()}): the action store refuses
 * writes stamped with a term that is not the current one under a live lease ({@link Fence}), so a leader that was
 * paused past its lease cannot act on what its successor now owns.
 *
 * <p>A leader also stops believing it leads on its own clock: {@link #isLeader()} turns false once a lease's length
 * has passed since the last renewal was sent, even when its thread has not run since (a paused process), because the
 * database's expiry can only come later than that.
 */
public final class LeaderElection implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(LeaderElection.class);
    private static final String CLAIM = """
            UPDATE leader_term SET holder = ?,
                term = CASE WHEN holder = ? AND expires_at > now() THEN term ELSE term + 1 END,
                expires_at = now() + ? * interval '1 millisecond'
            WHERE name = 'lifeline' AND (holder = ? OR holder IS NULL OR expires_at IS NULL OR expires_at <= now())
            RETURNING term""";

    private final DataSource dataSource;
    private final String identity;
    private final Duration lease;
    private final Consumer<Boolean> onChange;
    private final ScheduledExecutorService timer;
    private volatile boolean leader;
    private volatile long term;
    private volatile long validUntilNanos;

    /**
     * @param lease    how long a holding lasts without renewal; renewals come every {@code periodMillis} of
     *                 {@link #start}, which must be well below it
     * @param onChange told true when this replica becomes leader, false when it stops being one (on its timer thread)
     */
    public LeaderElection(DataSource dataSource, String identity, Duration lease, Consumer<Boolean> onChange) {
        this.dataSource = dataSource;
        this.identity = identity;
        this.lease = lease;
        this.onChange = onChange;
        this.timer = Executors.newSingleThreadScheduledExecutor(Threads.daemon("lifeline-leader-" + identity));
    }

    /** Tries now, then every {@code periodMillis}. */
    @SuppressWarnings("FutureReturnValueIgnored") // tick() turns every failure into a lost lease
    public void start(long periodMillis) {
        timer.scheduleWithFixedDelay(this::tick, 0, periodMillis, TimeUnit.MILLISECONDS);
    }

    /** Whether this replica leads now: it holds the lease and its last renewal is less than a lease old. */
    public boolean isLeader() {
        return leader && System.nanoTime() < validUntilNanos;
    }

    /** The fencing token of this replica's current leadership; 0 when it does not lead. */
    public long term() {
        return isLeader() ? term : 0;
    }

    public String identity() {
        return identity;
    }

    synchronized void tick() {
        long sent = System.nanoTime();
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(true);
            try (PreparedStatement init = c.prepareStatement(
                    "INSERT INTO leader_term (name, term) VALUES ('lifeline', 0) ON CONFLICT (name) DO NOTHING")) {
                init.setQueryTimeout(5);
                init.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement(CLAIM)) {
                ps.setString(1, identity);
                ps.setString(2, identity);
                ps.setLong(3, lease.toMillis());
                ps.setString(4, identity);
                ps.setQueryTimeout(5);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        held(rs.getLong(1), sent);
                    } else {
                        lose("another replica holds the lease");
                    }
                }
            }
        } catch (SQLException | RuntimeException e) {
            lose("lease not renewed: " + e.getMessage());
        }
    }

    private void held(long newTerm, long sentNanos) {
        boolean was = isLeader();
        if (was && newTerm != term) {
            // The lease lapsed and was taken again: the old term's work is fenced out, start afresh.
            lose("lease lapsed before renewal");
            was = false;
        }
        term = newTerm;
        validUntilNanos = sentNanos + lease.toNanos();
        leader = true;
        if (!was) {
            LOG.infof("Replica %s is the leader (term %d)", identity, term);
            onChange.accept(true);
        }
    }

    private void lose(String why) {
        if (leader) {
            leader = false;
            LOG.warnf("Replica %s is no longer the leader: %s", identity, why);
            onChange.accept(false);
        }
    }

    /** Gives the lease up at once (so another replica takes over without waiting for it to expire) and stops. */
    @Override
    public synchronized void close() {
        timer.shutdownNow();
        boolean held = leader;
        lose("stopping");
        if (held) {
            try (Connection c = dataSource.getConnection();
                    PreparedStatement ps = c.prepareStatement(
                            "UPDATE leader_term SET expires_at = now() WHERE name = 'lifeline' AND holder = ?")) {
                ps.setString(1, identity);
                ps.setQueryTimeout(5);
                ps.executeUpdate();
            } catch (SQLException e) {
                LOG.debugf("Lease not given up explicitly (it expires on its own): %s", e.getMessage());
            }
        }
    }
}
