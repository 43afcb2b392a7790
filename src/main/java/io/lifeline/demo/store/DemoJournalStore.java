package io.lifeline.demo.store;

import io.agroal.api.AgroalDataSource;
import io.lifeline.demo.runtime.DemoJournal;
import io.lifeline.demo.runtime.SimCall;
import io.lifeline.eventlog.Jdbc;
import io.lifeline.eventlog.StoreUnavailableException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The demo's journal in PostgreSQL ({@code demo_run}, {@code demo_call}), beside the history it continues. Each
 * method is one transaction and fails with a {@link StoreUnavailableException} when PostgreSQL cannot be asked.
 */
@ApplicationScoped
public class DemoJournalStore implements DemoJournal {

    static final String RUN = "SELECT scenario, started_at, settled, through, last_event FROM demo_run WHERE id = 1";
    static final String CALLS = "SELECT seq, at, op, args FROM demo_call ORDER BY seq";
    static final String FORGET_CALLS = "DELETE FROM demo_call";
    static final String BEGIN_RUN = "INSERT INTO demo_run (id, scenario, started_at) VALUES (1, ?, ?)"
            + " ON CONFLICT (id) DO UPDATE SET scenario = excluded.scenario, started_at = excluded.started_at,"
            + " settled = NULL, through = NULL, last_event = NULL";
    static final String APPEND_CALL =
            "INSERT INTO demo_call (seq, at, op, args) VALUES (?, ?, ?, ?) ON CONFLICT (seq) DO NOTHING";
    static final String MARK = "UPDATE demo_run SET settled = ?, through = ?, last_event = ? WHERE id = 1";

    /** The run's row; its mark is null until the run's events first reach ingest. */
    private record Run(String scenario, Instant start, Mark mark) {}

    private final Jdbc jdbc;

    @Inject
    DemoJournalStore(AgroalDataSource dataSource) {
        this((DataSource) dataSource);
    }

    /** The journal in {@code dataSource} (tests and tools). */
    public DemoJournalStore(DataSource dataSource) {
        this.jdbc = new Jdbc(dataSource, "the demo journal");
    }

    @Override
    public Optional<Stored> load() {
        return jdbc.inTransaction(c -> {
            // One snapshot for both reads, so that the calls are those of the run and mark read.
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            Optional<Run> run = Jdbc.one(c, RUN, rs -> {
                long settled = rs.getLong(3);
                Mark mark = rs.wasNull()
                        ? null
                        : new Mark(settled, rs.getTimestamp(4).toInstant(), rs.getString(5));
                return new Run(rs.getString(1), rs.getTimestamp(2).toInstant(), mark);
            });
            if (run.isEmpty()) {
                return Optional.empty();
            }
            List<Entry> calls = Jdbc.list(c, CALLS, rs -> {
                String[] args = (String[]) rs.getArray(4).getArray();
                return new Entry(
                        rs.getLong(1),
                        rs.getTimestamp(2).toInstant(),
                        new SimCall(SimCall.Op.of(rs.getString(3)), Arrays.asList(args)));
            });
            Run r = run.get();
            return Optional.of(new Stored(r.scenario(), r.start(), r.mark(), calls));
        });
    }

    @Override
    public void begin(String scenario, Instant start) {
        jdbc.inTransaction(c -> {
            Jdbc.update(c, FORGET_CALLS);
            return Jdbc.update(c, BEGIN_RUN, ps -> {
                ps.setString(1, scenario);
                ps.setTimestamp(2, Timestamp.from(start));
            });
        });
    }

    @Override
    public void write(List<Entry> calls, Mark mark) {
        if (calls.isEmpty() && mark == null) {
            return;
        }
        jdbc.inTransaction(c -> {
            if (!calls.isEmpty()) {
                try (PreparedStatement ps = c.prepareStatement(APPEND_CALL)) {
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
                Jdbc.update(c, MARK, ps -> {
                    ps.setLong(1, mark.settled());
                    ps.setTimestamp(2, Timestamp.from(mark.through()));
                    ps.setString(3, mark.lastEvent());
                });
            }
            return null;
        });
    }
}
