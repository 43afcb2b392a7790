package io.lifeline.eventlog;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The one way Lifeline runs SQL written by hand: a connection from the pool, at most one transaction on it, and a
 * failure of the database as a {@link StoreUnavailableException} that names the store (HTTP 503 at the edge). A store
 * keeps its SQL, including a fenced conditional write, as named statements of its own and hands them to this class;
 * everything around a statement (connection, commit, rollback, the catch) lives here once.
 *
 * <p>The static methods take a connection a {@link #withConnection} or {@link #inTransaction} body was given, so
 * several statements share one round trip budget and one transaction; they let {@link SQLException} through to the
 * helper, which maps it once.
 */
public final class Jdbc {

    /** Work on one connection. */
    @FunctionalInterface
    public interface Work<T> {
        T apply(Connection c) throws SQLException;
    }

    /** Sets a statement's parameters. */
    @FunctionalInterface
    public interface Binder {
        void bind(PreparedStatement ps) throws SQLException;
    }

    /** Reads the current row of a result. */
    @FunctionalInterface
    public interface Row<T> {
        T read(ResultSet rs) throws SQLException;
    }

    private final DataSource dataSource;
    private final String what;

    /**
     * @param what the store in the words of an error message, e.g. {@code "the action store"}
     */
    public Jdbc(DataSource dataSource, String what) {
        this.dataSource = dataSource;
        this.what = what;
    }

    /** Runs {@code work} on a pooled connection in autocommit: each statement commits on its own. */
    public <T> T withConnection(Work<T> work) {
        try (Connection c = dataSource.getConnection()) {
            return work.apply(c);
        } catch (SQLException e) {
            throw unavailable(e);
        }
    }

    /** Runs {@code work} in one transaction: committed when it returns, rolled back when it throws. */
    public <T> T inTransaction(Work<T> work) {
        return withConnection(c -> transaction(c, work));
    }

    /** One statement in autocommit; the number of rows it changed. */
    public int update(String sql, Object... args) {
        return withConnection(c -> update(c, sql, args));
    }

    /** One statement in autocommit, parameters set by {@code binder}; the number of rows it changed. */
    public int update(String sql, Binder binder) {
        return withConnection(c -> update(c, sql, binder));
    }

    /** Every row of a query. */
    public <T> List<T> list(String sql, Row<T> row, Object... args) {
        return withConnection(c -> list(c, sql, row, args));
    }

    /** The first row of a query, if any. */
    public <T> Optional<T> one(String sql, Row<T> row, Object... args) {
        return withConnection(c -> one(c, sql, row, args));
    }

    /** The failure of this store, for a store that met a {@link SQLException} outside the methods above. */
    public StoreUnavailableException unavailable(SQLException e) {
        return new StoreUnavailableException(what, e);
    }

    // ----------------------------------------------------------------------------------------- on a given connection

    /** Runs {@code work} in one transaction on {@code c}, which is left in the commit mode it had. */
    public static <T> T transaction(Connection c, Work<T> work) throws SQLException {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try {
            T result = work.apply(c);
            c.commit();
            return result;
        } catch (Throwable t) {
            try {
                c.rollback();
            } catch (SQLException suppressed) {
                t.addSuppressed(suppressed);
            }
            throw t;
        } finally {
            c.setAutoCommit(auto);
        }
    }

    public static int update(Connection c, String sql, Object... args) throws SQLException {
        return update(c, sql, ps -> bind(ps, args));
    }

    public static int update(Connection c, String sql, Binder binder) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            binder.bind(ps);
            return ps.executeUpdate();
        }
    }

    public static <T> List<T> list(Connection c, String sql, Row<T> row, Object... args) throws SQLException {
        return list(c, sql, ps -> bind(ps, args), row);
    }

    public static <T> List<T> list(Connection c, String sql, Binder binder, Row<T> row) throws SQLException {
        List<T> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            binder.bind(ps);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(row.read(rs));
                }
            }
        }
        return out;
    }

    public static <T> Optional<T> one(Connection c, String sql, Row<T> row, Object... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, args);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.ofNullable(row.read(rs)) : Optional.empty();
            }
        }
    }

    /** Sets parameters in order; an {@link Instant} is written as a timestamp, a null as an untyped null. */
    public static void bind(PreparedStatement ps, Object... args) throws SQLException {
        for (int i = 0; i < args.length; i++) {
            Object a = args[i];
            ps.setObject(i + 1, a instanceof Instant t ? Timestamp.from(t) : a);
        }
    }

    /** A nullable timestamp column as an instant. */
    public static Instant instant(ResultSet rs, int column) throws SQLException {
        Timestamp t = rs.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }

    /** A nullable timestamp column as an instant. */
    public static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp t = rs.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }
}
