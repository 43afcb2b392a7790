package io.lifeline.eventlog;

import io.agroal.api.AgroalDataSource;
import io.lifeline.config.IngestConfig;
import io.lifeline.domain.job.JobTimelineEntry;
import io.lifeline.domain.job.TimelineCursor;
import io.lifeline.domain.job.TimelineEntry;
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
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Jobs' whole timelines in PostgreSQL ({@code job_timeline}), beyond the entries the model keeps in memory.
 *
 * <p>Writes are group commits off the model thread: {@link #append} only queues, and a writer thread inserts
 * whatever queued while the previous transaction ran as one multi-row insert. Rows are keyed by (job, incarnation,
 * seq) and inserted with {@code ON CONFLICT DO NOTHING}, so the replay at start-up, which hands every entry over
 * again, writes only what is missing (all of it, the first time a log stored by an earlier release is replayed).
 * While the database is unavailable the writer retries with back-off; past {@code lifeline.ingest.buffer-events}
 * waiting entries it drops the oldest and counts them ({@link #dropped()}): the model never waits for history, and
 * the next start-up's replay writes the gap.
 *
 * <p>Reads are keyset pages by job in the API's cursor order, on the index {@code (job, incarnation, time_ms, seq)}.
 */
@ApplicationScoped
public class TimelineLog {

    private static final String INSERT = """
            INSERT INTO job_timeline (job, incarnation, seq, time_ms, time, kind, type, summary, incident_id)
            SELECT * FROM unnest(?::text[], ?::bigint[], ?::bigint[], ?::bigint[], ?::text[]::timestamptz[], ?::text[],
                                 ?::text[], ?::text[], ?::text[])
            ON CONFLICT DO NOTHING""";
    private static final String PAGE = """
            SELECT seq, time, kind, type, summary, incident_id FROM job_timeline
            WHERE job = ? AND incarnation = ? AND seq < ? AND (time_ms > ? OR (time_ms = ? AND seq > ?))
              AND time >= ? AND time < ?
            ORDER BY time_ms, seq LIMIT ?""";
    private static final OffsetDateTime MIN = OffsetDateTime.of(1, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);
    private static final OffsetDateTime MAX = OffsetDateTime.of(9999, 12, 31, 0, 0, 0, 0, ZoneOffset.UTC);

    private final AgroalDataSource dataSource;
    private final GroupCommitQueue<JobTimelineEntry> writer;

    TimelineLog(AgroalDataSource dataSource, IngestConfig config) {
        this.dataSource = dataSource;
        this.writer = new GroupCommitQueue<>(
                "timeline entries",
                "lifeline-timeline-writer",
                JobTimelineEntry.class,
                config.bufferEvents(),
                config.writeBatchEvents(),
                this::insert);
    }

    /** Queues entries for storage; never blocks (see the class comment for what happens when the buffer is full). */
    public void append(List<JobTimelineEntry> entries) {
        writer.append(entries);
    }

    /** Completes once every entry queued before this call is stored. */
    public CompletableFuture<Void> flushed() {
        return writer.flushed();
    }

    /**
     * Stored entries of one incarnation of a job, in cursor order: after {@code after}, with a sequence below
     * {@code belowSeq} (those no longer in memory), {@code from <= time < to} (null bounds are open), at most
     * {@code limit}.
     */
    public List<TimelineEntry> page(
            String job, long incarnation, TimelineCursor after, long belowSeq, Instant from, Instant to, int limit) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(PAGE)) {
            ps.setString(1, job);
            ps.setLong(2, incarnation);
            ps.setLong(3, belowSeq);
            ps.setLong(4, after.millis());
            ps.setLong(5, after.millis());
            ps.setLong(6, after.seq());
            ps.setObject(7, from == null ? MIN : from.atOffset(ZoneOffset.UTC));
            ps.setObject(8, to == null ? MAX : to.atOffset(ZoneOffset.UTC));
            ps.setInt(9, limit);
            List<TimelineEntry> out = new ArrayList<>(Math.min(limit, 1024));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new TimelineEntry(
                            rs.getLong(1),
                            rs.getObject(2, OffsetDateTime.class).toInstant(),
                            TimelineEntry.Kind.valueOf(rs.getString(3)),
                            rs.getString(4),
                            rs.getString(5),
                            rs.getString(6)));
                }
            }
            return out;
        } catch (SQLException e) {
            throw new StoreUnavailableException("timeline history", e);
        }
    }

    /** Entries stored since start-up (inserted or already there). */
    public long written() {
        return writer.written();
    }

    /** Entries dropped because the buffer was full while the database was unavailable. */
    public long dropped() {
        return writer.dropped();
    }

    /** Entries waiting to be written. */
    public int buffered() {
        return writer.buffered();
    }

    private void insert(List<JobTimelineEntry> batch) throws SQLException {
        int n = batch.size();
        String[] jobs = new String[n];
        Long[] incarnations = new Long[n];
        Long[] seqs = new Long[n];
        Long[] millis = new Long[n];
        String[] times = new String[n];
        String[] kinds = new String[n];
        String[] types = new String[n];
        String[] summaries = new String[n];
        String[] incidents = new String[n];
        for (int i = 0; i < n; i++) {
            JobTimelineEntry r = batch.get(i);
            TimelineEntry e = r.entry();
            jobs[i] = r.job();
            incarnations[i] = r.incarnation();
            seqs[i] = e.seq();
            millis[i] = e.time().toEpochMilli();
            times[i] = e.time().toString();
            kinds[i] = e.kind().name();
            types[i] = e.type();
            summaries[i] = e.summary() == null ? "" : e.summary();
            incidents[i] = e.incidentId();
        }
        GroupCommitQueue.executeColumns(
                dataSource,
                INSERT,
                new String[] {"text", "bigint", "bigint", "bigint", "text", "text", "text", "text", "text"},
                jobs,
                incarnations,
                seqs,
                millis,
                times,
                kinds,
                types,
                summaries,
                incidents);
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
