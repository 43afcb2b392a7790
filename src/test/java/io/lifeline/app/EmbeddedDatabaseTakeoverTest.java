package io.lifeline.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a start of the embedded database does with a server, or its lock file, left behind on its directory. */
class EmbeddedDatabaseTakeoverTest {

    @TempDir
    Path tmp;

    private final List<String> log = new ArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            synchronized (log) {
                log.add(record.getLevel() + " "
                        + String.format(
                                record.getMessage().replace("%d", "%s"),
                                record.getParameters() == null ? new Object[0] : record.getParameters()));
            }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };

    @BeforeEach
    void captureLog() {
        Logger.getLogger(EmbeddedDatabase.class.getName()).addHandler(capture);
    }

    @AfterEach
    void releaseLog() {
        Logger.getLogger(EmbeddedDatabase.class.getName()).removeHandler(capture);
    }

    @Test
    void aStartStopsAServerLeftRunningOnItsDirectoryAndKeepsItsData() throws Exception {
        Path dataDir = tmp.resolve("pgdata");
        Path pgCtl;
        try (EmbeddedDatabase db = EmbeddedDatabase.start(dataDir, true)) {
            execute(db, "CREATE TABLE marker (v text)", "INSERT INTO marker VALUES ('before')");
            long pid = PostmasterPidFile.read(dataDir).orElseThrow().pid();
            pgCtl = Path.of(ProcessHandle.of(pid).orElseThrow().info().command().orElseThrow())
                    .resolveSibling("pg_ctl");
        }
        // A server nobody watches, as a run killed before its watchdog started (or an older Lifeline) leaves one.
        List<String> cmd = new ArrayList<>();
        if (ProcessHandle.current().info().user().orElse("").equals("root")) {
            cmd.addAll(List.of("unshare", "-U")); // pg_ctl refuses root; the library starts it the same way
        }
        cmd.addAll(List.of(
                pgCtl.toString(),
                "-D",
                dataDir.toString(),
                "-o",
                "-p " + freePort(),
                "-l",
                tmp.resolve("orphan.log").toString(),
                "-w",
                "start"));
        Process pgCtlStart = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        assertTrue(pgCtlStart.waitFor(60, TimeUnit.SECONDS) && pgCtlStart.exitValue() == 0, "orphan started");
        ProcessHandle orphan = ProcessHandle.of(
                        PostmasterPidFile.read(dataDir).orElseThrow().pid())
                .orElseThrow();
        assertTrue(orphan.isAlive());

        try (EmbeddedDatabase db = EmbeddedDatabase.start(dataDir, true)) {
            assertFalse(orphan.isAlive(), "the orphaned server was stopped");
            assertEquals(List.of("before"), strings(db, "SELECT v FROM marker"));
        }
        String messages = messages();
        assertTrue(
                messages.contains(
                        "WARN Found a PostgreSQL server (pid " + orphan.pid() + ") still running on " + dataDir),
                messages);
        assertTrue(messages.contains("Stopped the earlier PostgreSQL server (pid " + orphan.pid() + ")"), messages);
    }

    @Test
    void aLockFileWhoseServerIsGoneIsRemoved() throws Exception {
        Path dataDir = tmp.resolve("pgdata");
        EmbeddedDatabase.start(dataDir, true).close();
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Files.writeString(dataDir.resolve(PostmasterPidFile.NAME), gone.pid() + "\n" + dataDir + "\n");

        EmbeddedDatabase.start(dataDir, true).close();

        assertTrue(
                messages()
                        .contains("Removed a stale postmaster.pid from " + dataDir + ": the PostgreSQL server it "
                                + "names (pid " + gone.pid() + ") is no longer running"),
                messages());
    }

    @Test
    void aDirectoryInUseByALiveRunIsNotTouched() throws Exception {
        Path dataDir = tmp.resolve("pgdata");
        try (EmbeddedDatabase db = EmbeddedDatabase.start(dataDir, true)) {
            IllegalStateException refused =
                    assertThrows(IllegalStateException.class, () -> EmbeddedDatabase.start(dataDir, true));
            assertTrue(
                    refused.getMessage()
                            .contains("is in use by another Lifeline (pid "
                                    + ProcessHandle.current().pid() + ")"),
                    refused.getMessage());
            assertEquals(List.of("1"), strings(db, "SELECT 1"), "the running server still answers");
        }
    }

    @Test
    void commitsAreFlushedToDiskUnlessConfiguredOtherwise() throws Exception {
        try (EmbeddedDatabase db = EmbeddedDatabase.start(tmp.resolve("on"), true)) {
            assertEquals(
                    List.of("on", "on"),
                    strings(
                            db,
                            "SELECT current_setting('synchronous_commit') UNION ALL "
                                    + "SELECT current_setting('fsync')"));
        }
        try (EmbeddedDatabase db = EmbeddedDatabase.start(tmp.resolve("on"), false)) {
            assertEquals(
                    List.of("off", "on"),
                    strings(
                            db,
                            "SELECT current_setting('synchronous_commit') UNION ALL "
                                    + "SELECT current_setting('fsync')"));
        }
        assertTrue(EmbeddedDatabase.parseSynchronousCommit(null));
        assertFalse(EmbeddedDatabase.parseSynchronousCommit("off"));
        assertThrows(IllegalArgumentException.class, () -> EmbeddedDatabase.parseSynchronousCommit("local"));
    }

    private String messages() {
        synchronized (log) {
            return String.join("\n", log);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    static Connection connect(EmbeddedDatabase db) throws SQLException {
        return DriverManager.getConnection(db.jdbcUrl(), db.username(), db.password());
    }

    private static void execute(EmbeddedDatabase db, String... statements) throws SQLException {
        try (Connection c = connect(db);
                Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }

    private static List<String> strings(EmbeddedDatabase db, String query) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = connect(db);
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(query)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
