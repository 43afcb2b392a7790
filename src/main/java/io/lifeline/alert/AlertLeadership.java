package io.lifeline.alert;

import io.agroal.api.AgroalDataSource;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.jboss.logging.Logger;

/**
 * Decides which replica evaluates and delivers alerts: the one holding a PostgreSQL session advisory lock on a
 * connection it keeps open. If that replica dies, its session ends, the lock is released and another replica takes
 * it at its next try. Every replica still serves the alert API from the store.
 */
@ApplicationScoped
public class AlertLeadership {

    private static final Logger LOG = Logger.getLogger(AlertLeadership.class);
    /** "llt_alrt" as a number: the advisory lock key of alert evaluation. */
    private static final long LOCK = 0x6c6c745f616c7274L;

    private final AgroalDataSource dataSource;
    private Connection held;
    private boolean stopped;

    AlertLeadership(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Whether this replica leads alerting now; tries to become leader when nobody is. */
    public synchronized boolean isLeader() {
        if (stopped) {
            return false;
        }
        if (held != null) {
            try {
                if (held.isValid(2)) {
                    return true;
                }
            } catch (SQLException e) {
                // Treated as lost below.
            }
            LOG.warn("Lost the alerting lock's database session; another replica may take over");
            closeQuietly();
        }
        Connection c = null;
        try {
            c = dataSource.getConnection();
            c.setAutoCommit(true);
            try (PreparedStatement ps = c.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
                ps.setLong(1, LOCK);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next() && rs.getBoolean(1)) {
                        held = c;
                        LOG.info("This replica now evaluates and delivers alerts");
                        return true;
                    }
                }
            }
            c.close();
            return false;
        } catch (SQLException e) {
            if (c != null) {
                try {
                    c.close();
                } catch (SQLException ignored) {
                    // The connection is unusable anyway.
                }
            }
            return false;
        }
    }

    @PreDestroy
    synchronized void release() {
        stopped = true;
        if (held == null) {
            return;
        }
        try (PreparedStatement ps = held.prepareStatement("SELECT pg_advisory_unlock(?)")) {
            ps.setLong(1, LOCK);
            ps.execute();
        } catch (SQLException e) {
            // Closing the session releases the lock as well.
        }
        closeQuietly();
    }

    private void closeQuietly() {
        try {
            held.close();
        } catch (SQLException e) {
            // Nothing to do: the session is gone.
        }
        held = null;
    }
}
