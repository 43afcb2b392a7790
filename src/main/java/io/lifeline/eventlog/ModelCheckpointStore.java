package io.lifeline.eventlog;

import io.agroal.api.AgroalDataSource;
import io.lifeline.domain.SavedModel;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.sql.Array;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.jboss.logging.Logger;

/**
 * Checkpoints of the in-memory model in PostgreSQL ({@code model_checkpoint}): the saved model in the bytes of
 * {@link ModelCheckpointCodec}, with the {@link AppliedPosition} in the event log it had reached. Only the newest
 * {@code keep} are kept; older ones are deleted in the transaction that writes a new one. Start-up reads the newest one
 * that decodes. Every method fails with a {@link StoreUnavailableException} when PostgreSQL cannot be asked.
 */
@ApplicationScoped
public class ModelCheckpointStore {

    private static final Logger LOG = Logger.getLogger(ModelCheckpointStore.class);

    static final String INSERT = "INSERT INTO model_checkpoint"
            + " (taken_at, format, applied_seq, applied_ahead, body) VALUES (?, ?, ?, ?, ?) RETURNING id";
    /** All but the newest {@code keep}. */
    static final String DELETE_OLDER =
            "DELETE FROM model_checkpoint WHERE id NOT IN (SELECT id FROM model_checkpoint ORDER BY id DESC LIMIT ?)";

    static final String IDS_OF_FORMAT = "SELECT id FROM model_checkpoint WHERE format = ? ORDER BY id DESC";
    static final String IDS = "SELECT id FROM model_checkpoint ORDER BY id DESC";
    static final String ONE = "SELECT taken_at, applied_seq, applied_ahead, body FROM model_checkpoint WHERE id = ?";

    private final Jdbc jdbc;
    private final ModelCheckpointCodec codec = new ModelCheckpointCodec();

    @Inject
    ModelCheckpointStore(AgroalDataSource dataSource) {
        this((DataSource) dataSource);
    }

    ModelCheckpointStore(DataSource dataSource) {
        this.jdbc = new Jdbc(dataSource, "the model checkpoints");
    }

    /**
     * A checkpoint read back.
     *
     * @param id        its row
     * @param takenAt   when it was taken
     * @param position  how far into the log the model had applied events
     * @param model     the saved model
     * @param bytes     the size of its encoded body
     */
    public record Loaded(long id, Instant takenAt, AppliedPosition position, SavedModel model, int bytes) {}

    /** Encodes a saved model (off the model thread: this takes a while for a large fleet). */
    public byte[] encode(SavedModel model) {
        return codec.encode(model);
    }

    /**
     * Stores an encoded checkpoint and deletes all but the newest {@code keep} (at least one: this one).
     *
     * @return its id
     */
    public long write(byte[] body, AppliedPosition position, Instant takenAt, int keep) {
        return jdbc.inTransaction(c -> {
            long id = Jdbc.list(
                            c,
                            INSERT,
                            ps -> {
                                ps.setObject(1, takenAt.atOffset(ZoneOffset.UTC));
                                ps.setInt(2, ModelCheckpointCodec.FORMAT);
                                ps.setLong(3, position.cursor());
                                ps.setArray(4, seqs(c, position.ahead()));
                                ps.setBytes(5, body);
                            },
                            rs -> rs.getLong(1))
                    .get(0);
            Jdbc.update(c, DELETE_OLDER, ps -> ps.setInt(1, Math.max(1, keep)));
            return id;
        });
    }

    /**
     * The newest stored checkpoint of this release's format that decodes; a newer one that does not is skipped (and
     * logged), so a damaged checkpoint costs a longer replay, never a start. Empty when there is none.
     */
    public Optional<Loaded> newest() {
        List<Long> ids = jdbc.list(IDS_OF_FORMAT, rs -> rs.getLong(1), ModelCheckpointCodec.FORMAT);
        for (long id : ids) {
            Optional<Loaded> loaded = jdbc.one(ONE, rs -> decoded(id, rs), id);
            if (loaded.isPresent()) {
                return loaded;
            }
        }
        return Optional.empty();
    }

    /** The stored checkpoints' ids, newest first (for tests and operators). */
    public List<Long> ids() {
        return jdbc.list(IDS, rs -> rs.getLong(1));
    }

    /** The checkpoint in the current row, or null when it does not decode (logged). */
    private Loaded decoded(long id, ResultSet rs) throws SQLException {
        Instant takenAt = rs.getObject(1, OffsetDateTime.class).toInstant();
        AppliedPosition position = AppliedPosition.of(rs.getLong(2), longs(rs.getArray(3)));
        byte[] body = rs.getBytes(4);
        try {
            return new Loaded(id, takenAt, position, codec.decode(body), body.length);
        } catch (IOException | RuntimeException e) {
            LOG.warnf("Model checkpoint %d of %s does not decode, skipped: %s", id, takenAt, e.toString());
            return null;
        }
    }

    private static Array seqs(Connection c, long[] seqs) throws SQLException {
        Long[] boxed = new Long[seqs.length];
        for (int i = 0; i < seqs.length; i++) {
            boxed[i] = seqs[i];
        }
        return c.createArrayOf("bigint", boxed);
    }

    private static long[] longs(Array a) throws SQLException {
        if (a == null) {
            return new long[0];
        }
        Object[] values = (Object[]) a.getArray();
        long[] out = new long[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = ((Number) values[i]).longValue();
        }
        return out;
    }
}
