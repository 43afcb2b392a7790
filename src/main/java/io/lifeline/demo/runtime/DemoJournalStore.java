package io.lifeline.demo.runtime;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The demo's journal in PostgreSQL ({@code demo_run}, {@code demo_call}), beside the history it continues. */
@ApplicationScoped
public class DemoJournalStore implements DemoJournal {

    private final AgroalDataSource dataSource;

    public DemoJournalStore(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    @Override
    public Optional<Stored> load() {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            String scenario;
            Instant start;
            Mark mark = null;
            try (PreparedStatement ps = c.prepareStatement(
                            "SELECT scenario, started_at, settled, through, last_event FROM demo_run WHERE id = 1");
                    ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    c.commit();
                    return Optional.empty();
                }
                scenario = rs.getString(1);
                start = rs.getTimestamp(2).toInstant();
                long settled = rs.getLong(3);
                if (!rs.wasNull()) {
                    mark = new Mark(settled, rs.getTimestamp(4).toInstant(), rs.getString(5));
                }
            }
            List<Entry> calls = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT seq, at, op, args FROM demo_call ORDER BY seq");
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String[] args = (String[]) rs.getArray(4).getArray();
                    calls.add(new Entry(
                            rs.getLong(1),
                            rs.getTimestamp(2).toInstant(),
                            new SimCall(SimCall.Op.of(rs.getString(3)), Arrays.asList(args))));
                }
            }
            c.commit();
            return Optional.of(new Stored(scenario, start, mark, calls));
        } catch (SQLException e) {
            throw new IllegalStateException("reading the demo journal failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void begin(String scenario, Instant start) {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement del = c.prepareStatement("DELETE FROM demo_call");
                    PreparedStatement run =
                            c.prepareStatement("INSERT INTO demo_run (id, scenario, started_at) VALUES (1, ?, ?)"
                                    + " ON CONFLICT (id) DO UPDATE SET scenario = excluded.scenario, started_at = excluded.started_at,"
                                    + " settled = NULL, through = NULL, last_event = NULL")) {
                del.executeUpdate();
                run.setString(1, scenario);
                run.setTimestamp(2, Timestamp.from(start));
                run.executeUpdate();
                c.commit();
            } catch (SQLException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("starting the demo journal failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void write(List<Entry> calls, Mark mark) {
        if (calls.isEmpty() && mark == null) {
            return;
        }
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                if (!calls.isEmpty()) {
                    try (PreparedStatement ps = c.prepareStatement("INSERT INTO demo_call (seq, at, op, args)"
                            + " VALUES (?, ?, ?, ?) ON CONFLICT (seq) DO NOTHING")) {
                        for (Entry e : calls) {
                            Array args = c.createArrayOf("text", e.call().args().toArray());
                            ps.setLong(1, e.seq());
                            ps.setTimestamp(2, Timestamp.from(e.at()));
                            ps.setString(3, e.call().op().wire());
                            ps.setArray(4, args);
                            ps.addBatch();
                        }
                        ps.executeBatch();
                    }
                }
                if (mark != null) {
                    try (PreparedStatement ps = c.prepareStatement(
                            "UPDATE demo_run SET settled = ?, through = ?, last_event = ? WHERE id = 1")) {
                        ps.setLong(1, mark.settled());
                        ps.setTimestamp(2, Timestamp.from(mark.through()));
                        ps.setString(3, mark.lastEvent());
                        ps.executeUpdate();
                    }
                }
                c.commit();
            } catch (SQLException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("writing the demo journal failed: " + e.getMessage(), e);
        }
    }
}
