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

/** Streams the stored event log, oldest first (event time, then arrival), to rebuild the model after a restart. */
@ApplicationScoped
public class EventLogReplay {

    private static final Logger LOG = Logger.getLogger(EventLogReplay.class);
    private static final int FETCH = 5_000;

    private final AgroalDataSource dataSource;
    private final EventCodec codec;

    EventLogReplay(AgroalDataSource dataSource, EventCodec codec) {
        this.dataSource = dataSource;
        this.codec = codec;
    }

    /** Hands every stored event to {@code sink} in batches; returns how many were replayed. */
    public long replay(Consumer<List<Event>> sink) throws SQLException {
        long n = 0;
        try (Connection c = dataSource.getConnection()) {
            // A cursor (fetch size + no auto-commit) keeps memory flat however long the log is.
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT event_id, source, type, subject, time, data::text FROM event_log ORDER BY time, seq")) {
                ps.setFetchSize(FETCH);
                try (ResultSet rs = ps.executeQuery()) {
                    List<Event> batch = new ArrayList<>(FETCH);
                    while (rs.next()) {
                        try {
                            // Instant.toString always writes the seconds, which RFC 3339 requires (OffsetDateTime's
                            // drops them when zero).
                            String time = rs.getObject(5, java.time.OffsetDateTime.class).toInstant().toString();
                            batch.add(codec.decodeAttributes(rs.getString(1), rs.getString(2), rs.getString(3),
                                    rs.getString(4), time, codec.parse(rs.getBytes(6))));
                        } catch (InvalidEventException e) {
                            LOG.warnf("Stored event %s of %s no longer decodes, skipped: %s", rs.getString(1),
                                    rs.getString(4), e.getMessage());
                        }
                        if (batch.size() == FETCH) {
                            n += batch.size();
                            sink.accept(batch);
                            batch = new ArrayList<>(FETCH);
                        }
                    }
                    n += batch.size();
                    if (!batch.isEmpty()) {
                        sink.accept(batch);
                    }
                }
            } finally {
                c.rollback();
            }
        }
        return n;
    }
}
