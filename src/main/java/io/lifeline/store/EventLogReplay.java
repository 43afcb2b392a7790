package io.lifeline.store;

import io.agroal.api.AgroalDataSource;
import io.lifeline.codec.EventCodec;
import io.lifeline.codec.InvalidEventException;
import io.lifeline.domain.event.Event;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * Streams the stored event log to rebuild the model after a restart: the whole log, oldest first (event time, then
 * arrival), or only the events after a model checkpoint's position, in log order ({@code seq}).
 */
@ApplicationScoped
public class EventLogReplay {

    private static final Logger LOG = Logger.getLogger(EventLogReplay.class);
    private static final int FETCH = 5_000;
    private static final String COLUMNS = "seq, event_id, source, type, subject, time, data::text";

    private final AgroalDataSource dataSource;
    private final EventCodec codec;

    EventLogReplay(AgroalDataSource dataSource, EventCodec codec) {
        this.dataSource = dataSource;
        this.codec = codec;
    }

    /**
     * What a replay handed over.
     *
     * @param events      events handed to the sink
     * @param highestSeq  the highest seq read (stored events that no longer decode included), or the position it
     *                    started after when it read nothing newer
     */
    public record Replayed(long events, long highestSeq) {
    }

    /** A batch of replayed events with the seq of its last event (in log order, the position the batch reaches). */
    public interface Sink {
        void accept(List<Event> batch, long lastSeq);
    }

    /** Hands every stored event to {@code sink} in batches, oldest first. */
    public Replayed replay(Consumer<List<Event>> sink) throws SQLException {
        return stream("SELECT " + COLUMNS + " FROM event_log ORDER BY time, seq", 0, null, (batch, seq) -> sink.accept(batch));
    }

    /**
     * Hands the stored events with a seq above {@code seq}, except those in {@code skip} (applied already), to
     * {@code sink} in batches, in seq order: after a model checkpoint, exactly the events it had not applied.
     */
    public Replayed replayAfter(long seq, long[] skip, Sink sink) throws SQLException {
        return stream("SELECT " + COLUMNS + " FROM event_log WHERE seq > ? AND NOT (seq = ANY (?)) ORDER BY seq", seq, skip,
                sink);
    }

    private Replayed stream(String sql, long after, long[] skip, Sink sink) throws SQLException {
        long n = 0;
        long highest = after;
        try (Connection c = dataSource.getConnection()) {
            // A cursor (fetch size + no auto-commit) keeps memory flat however long the log is.
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                if (skip != null) {
                    ps.setLong(1, after);
                    Long[] boxed = new Long[skip.length];
                    for (int i = 0; i < skip.length; i++) {
                        boxed[i] = skip[i];
                    }
                    ps.setArray(2, c.createArrayOf("bigint", boxed));
                }
                ps.setFetchSize(FETCH);
                try (ResultSet rs = ps.executeQuery()) {
                    List<Event> batch = new ArrayList<>(FETCH);
                    while (rs.next()) {
                        long seq = rs.getLong(1);
                        highest = Math.max(highest, seq);
                        try {
                            batch.add(codec.decodeAttributes(rs.getString(2), rs.getString(3), rs.getString(4),
                                    rs.getString(5), rs.getObject(6, java.time.OffsetDateTime.class).toString(),
                                    codec.parse(rs.getBytes(7))));
                        } catch (InvalidEventException e) {
                            LOG.warnf("Stored event %s of %s no longer decodes, skipped: %s", rs.getString(2),
                                    rs.getString(5), e.getMessage());
                        }
                        if (batch.size() == FETCH) {
                            n += batch.size();
                            sink.accept(batch, highest);
                            batch = new ArrayList<>(FETCH);
                        }
                    }
                    n += batch.size();
                    if (!batch.isEmpty()) {
                        sink.accept(batch, highest);
                    }
                }
            } finally {
                c.rollback();
            }
        }
        return new Replayed(n, highest);
    }
}
