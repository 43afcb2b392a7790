package io.lifeline.eventlog;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agroal.api.AgroalDataSource;
import io.lifeline.config.IngestConfig;
import io.lifeline.domain.job.history.HistoryRecord;
import io.lifeline.domain.job.history.HistorySlice.Ordered;
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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Jobs' incidents and checkpoints in PostgreSQL ({@code job_records}), beyond the newest ones the model keeps in
 * memory: a projection holding the latest version of each, keyed by (kind, job, incarnation, id).
 *
 * <p>Writes are group commits off the model thread, like {@link TimelineLog}: {@link #upsert} only queues, and a
 * writer thread upserts whatever queued while the previous transaction ran as one multi-row statement (the latest
 * version of a record queued twice wins). The replay at start-up hands every record over again and rewrites the same
 * rows. While the database is unavailable the writer retries with back-off; past {@code lifeline.ingest.buffer-events}
 * waiting records it drops the oldest and counts them ({@link #dropped()}); the next start-up's replay writes them.
 *
 * <p>Reads are keyset pages by job from the newest back, on the index {@code (kind, job, incarnation, ordinal)}; the
 * record is stored as the JSON of its API view.
 */
@ApplicationScoped
public class HistoryRecords {

    private static final String UPSERT = """
            INSERT INTO job_records (kind, job, incarnation, id, ordinal, time, body)
            SELECT k, j, i, d, o, t::timestamptz, b::jsonb
            FROM unnest(?::text[], ?::text[], ?::bigint[], ?::text[], ?::bigint[], ?::text[], ?::text[]) AS r(k, j, i, d, o, t, b)
            ON CONFLICT (kind, job, incarnation, id) DO UPDATE
            SET ordinal = EXCLUDED.ordinal, time = EXCLUDED.time, body = EXCLUDED.body""";
    private static final String PAGE = """
            SELECT ordinal, body FROM job_records
            WHERE kind = ? AND job = ? AND incarnation = ? AND ordinal < ?
            ORDER BY ordinal DESC LIMIT ?""";

    private final AgroalDataSource dataSource;
    private final ObjectMapper json;
    private final GroupCommitQueue<HistoryRecord> writer;

    HistoryRecords(AgroalDataSource dataSource, ObjectMapper json, IngestConfig config) {
        this.dataSource = dataSource;
        this.json = json;
        this.writer = new GroupCommitQueue<>(
                "history records",
                "lifeline-records-writer",
                HistoryRecord.class,
                config.bufferEvents(),
                config.writeBatchEvents(),
                this::write);
    }

    /** Queues records for storage; never blocks (see the class comment for what happens when the buffer is full). */
    public void upsert(List<HistoryRecord> records) {
        writer.append(records);
    }

    /** Completes once every record queued before this call is stored. */
    public CompletableFuture<Void> flushed() {
        return writer.flushed();
    }

    /**
     * Stored records of one kind and incarnation of a job with an ordinal below {@code below}, newest first, at most
     * {@code limit}, read back as {@code type}.
     */
    public <T> List<Ordered<T>> page(
            HistoryRecord.Kind kind, String job, long incarnation, long below, int limit, Class<T> type) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(PAGE)) {
            ps.setString(1, kind.name());
            ps.setString(2, job);
            ps.setLong(3, incarnation);
            ps.setLong(4, below);
            ps.setInt(5, limit);
            List<Ordered<T>> out = new ArrayList<>(Math.min(limit, 1024));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Ordered<>(rs.getLong(1), json.readValue(rs.getString(2), type)));
                }
            }
            return out;
        } catch (SQLException e) {
            throw new StoreUnavailableException("job history", e);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored " + kind + " of " + job + " cannot be read", e);
        }
    }

    /** Records stored since start-up (inserted or updated). */
    public long written() {
        return writer.written();
    }

    /** Records dropped because the buffer was full while the database was unavailable. */
    public long dropped() {
        return writer.dropped();
    }

    /** Records waiting to be written. */
    public int buffered() {
        return writer.buffered();
    }

    private void write(List<HistoryRecord> batch) throws SQLException {
        // One statement may not change a row twice: the latest version of each record wins.
        Map<String, HistoryRecord> latest = new LinkedHashMap<>();
        for (HistoryRecord r : batch) {
            latest.put(r.kind() + "\u0000" + r.job() + "\u0000" + r.incarnation() + "\u0000" + r.id(), r);
        }
        int n = latest.size();
        String[] kinds = new String[n];
        String[] jobs = new String[n];
        Long[] incarnations = new Long[n];
        String[] ids = new String[n];
        Long[] ordinals = new Long[n];
        String[] times = new String[n];
        String[] bodies = new String[n];
        int i = 0;
        for (HistoryRecord r : latest.values()) {
            kinds[i] = r.kind().name();
            jobs[i] = r.job();
            incarnations[i] = r.incarnation();
            ids[i] = r.id();
            ordinals[i] = r.ordinal();
            times[i] = r.time().toString();
            try {
                bodies[i] = json.writeValueAsString(r.view());
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException("cannot write " + r.kind() + " " + r.id(), e);
            }
            i++;
        }
        GroupCommitQueue.executeColumns(
                dataSource,
                UPSERT,
                new String[] {"text", "text", "bigint", "text", "bigint", "text", "text"},
                kinds,
                jobs,
                incarnations,
                ids,
                ordinals,
                times,
                bodies);
    }

    /** Stops with the other {@link ShutdownOrder#WRITERS} work, before the connection pool closes. */
    void onStop(@Observes(notifyObserver = Reception.IF_EXISTS) @Priority(ShutdownOrder.WRITERS) ShutdownEvent ev) {
        stop();
    }

    /** Writes what is queued (bounded by the retry back-off) and stops. */
    @PreDestroy
    void stop() {
        writer.stop();
    }
}
