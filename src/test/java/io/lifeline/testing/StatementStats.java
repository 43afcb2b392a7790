package io.lifeline.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Where the test database's time goes during a benchmark phase, by statement ({@code pg_stat_statements}): reset at
 * the phase's start, printed at its end. Only when the server was started with {@code -Dbench.pg.statements}
 * ({@link PostgresResource}); otherwise every call does nothing.
 */
public final class StatementStats {

    private static final boolean ENABLED = Boolean.getBoolean("bench.pg.statements");

    private StatementStats() {}

    /** Forgets what was counted so far. */
    public static void reset() {
        if (!ENABLED) {
            return;
        }
        try (Connection c = DriverManager.getConnection(PostgresResource.jdbcUrl(), "postgres", "");
                Statement st = c.createStatement()) {
            st.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
            st.execute("SELECT pg_stat_statements_reset()");
        } catch (SQLException e) {
            System.out.println("[bench] statement statistics unavailable: " + e.getMessage());
        }
    }

    /** The statements that took most time since {@link #reset}, per event of the phase. */
    public static String top(long events, int limit) {
        if (!ENABLED) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        try (Connection c = DriverManager.getConnection(PostgresResource.jdbcUrl(), "postgres", "");
                Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery("SELECT total_exec_time, calls, rows, regexp_replace(query, '\\s+', ' ', 'g')"
                                + " FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT " + limit)) {
            while (rs.next()) {
                String q = rs.getString(4);
                sb.append(String.format(
                        "  %7.2f us/event %8d calls %9d rows  %s%n",
                        rs.getDouble(1) * 1000 / events,
                        rs.getLong(2),
                        rs.getLong(3),
                        q.length() > 110 ? q.substring(0, 110) : q));
            }
        } catch (SQLException e) {
            sb.append("  statement statistics unavailable: ")
                    .append(e.getMessage())
                    .append('\n');
        }
        return sb.toString();
    }
}
