package io.lifeline.eventlog;

import io.agroal.api.AgroalDataSource;
import io.lifeline.config.IngestConfig;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Keeps the event log's daily partitions: creates them ahead of time and drops whole partitions past the
 * retention age, so retention never deletes row by row under ingest. Very late events sit in the default
 * partition, which is trimmed in small batches.
 */
@ApplicationScoped
public class PartitionMaintenance {

    private static final Logger LOG = Logger.getLogger(PartitionMaintenance.class);
    private static final DateTimeFormatter SUFFIX = DateTimeFormatter.ofPattern("yyyyMMdd");
    private static final String PREFIX = "event_log_p";
    private static final int DEFAULT_DELETE_BATCH = 10_000;

    private final AgroalDataSource dataSource;
    private final IngestConfig config;
    private final Clock clock;

    PartitionMaintenance(AgroalDataSource dataSource, IngestConfig config, Clock clock) {
        this.dataSource = dataSource;
        this.config = config;
        this.clock = clock;
    }

    @Scheduled(every = "1h", delayed = "1h", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scheduled() {
        try {
            run();
        } catch (SQLException e) {
            LOG.warnf("Event log partition maintenance failed, will retry within the hour: %s", e.getMessage());
        }
    }

    /** Creates missing partitions for yesterday through the configured days ahead, then applies retention. */
    public void run() throws SQLException {
        LocalDate today = LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC);
        try (Connection c = dataSource.getConnection();
                Statement st = c.createStatement()) {
            for (int d = -1; d <= config.log().partitionsAhead(); d++) {
                LocalDate day = today.plusDays(d);
                String name = PREFIX + SUFFIX.format(day);
                st.execute("CREATE TABLE IF NOT EXISTS " + name + " PARTITION OF event_log FOR VALUES FROM ('" + day
                        + "T00:00:00Z') TO ('" + day.plusDays(1) + "T00:00:00Z')");
            }
        }
        applyRetention();
    }

    /** Drops daily partitions wholly older than the retention age and trims the default partition. */
    public int applyRetention() throws SQLException {
        Instant cutoff = clock.instant().minus(config.log().retention());
        LocalDate cutoffDay = LocalDate.ofInstant(cutoff, ZoneOffset.UTC);
        int dropped = 0;
        try (Connection c = dataSource.getConnection()) {
            for (String name : partitions(c)) {
                LocalDate day = LocalDate.parse(name.substring(PREFIX.length()), SUFFIX);
                if (day.plusDays(1).isAfter(cutoffDay)) {
                    continue;
                }
                try (Statement st = c.createStatement()) {
                    st.execute("DROP TABLE IF EXISTS " + name);
                    dropped++;
                    LOG.infof(
                            "Dropped event log partition %s (older than %s)",
                            name, config.log().retention());
                }
            }
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM event_log_default WHERE ctid IN "
                    + "(SELECT ctid FROM event_log_default WHERE time < ? LIMIT " + DEFAULT_DELETE_BATCH + ")")) {
                ps.setObject(1, cutoff.atOffset(ZoneOffset.UTC));
                int n;
                do {
                    n = ps.executeUpdate();
                } while (n == DEFAULT_DELETE_BATCH);
            }
            // The stored timelines, incidents and checkpoints follow the log: what replay could no longer rebuild is
            // not
            // kept either; nor are the ids of the events the log no longer holds (a redelivery that old is taken anew).
            for (String table : List.of("job_timeline", "job_records", "event_ids")) {
                try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + table + " WHERE ctid IN "
                        + "(SELECT ctid FROM " + table + " WHERE time < ? LIMIT " + DEFAULT_DELETE_BATCH + ")")) {
                    ps.setObject(1, cutoff.atOffset(ZoneOffset.UTC));
                    int n;
                    do {
                        n = ps.executeUpdate();
                    } while (n == DEFAULT_DELETE_BATCH);
                }
            }
        }
        return dropped;
    }

    /** Names of the daily partitions that exist now. */
    public List<String> partitions(Connection c) throws SQLException {
        List<String> names = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT child.relname FROM pg_inherits "
                        + "JOIN pg_class parent ON pg_inherits.inhparent = parent.oid "
                        + "JOIN pg_class child ON pg_inherits.inhrelid = child.oid "
                        + "WHERE parent.relname = 'event_log' AND child.relname LIKE 'event_log_p%' ORDER BY 1");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        return names;
    }
}
