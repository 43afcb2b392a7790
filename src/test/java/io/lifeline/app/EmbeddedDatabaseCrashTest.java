package io.lifeline.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The quick start's embedded database in a JVM of its own, killed with SIGKILL as a crash or the OOM killer would:
 * its PostgreSQL server must not outlive it, and the next start on the same data directory must find every
 * acknowledged write.
 */
class EmbeddedDatabaseCrashTest {

    private static final Duration SERVER_GONE_WITHIN = Duration.ofSeconds(30);
    private static final Duration CHILD_TIMEOUT = Duration.ofSeconds(120);

    @TempDir
    Path tmp;

    @Test
    void aKilledJvmTakesItsServerAlongAndTheNextStartFindsTheData() throws Exception {
        Path dataDir = tmp.resolve("pgdata");
        Child first = Child.start(dataDir, "write", "written-before-the-kill");
        long postmaster = Long.parseLong(first.awaitLine("READY ").substring("READY ".length()));
        ProcessHandle server = ProcessHandle.of(postmaster).orElseThrow();
        List<ProcessHandle> serverProcesses =
                Stream.concat(Stream.of(server), server.descendants()).toList();
        assertTrue(serverProcesses.size() > 1, "a postmaster and its helper processes");

        first.process.destroyForcibly();
        assertTrue(first.process.waitFor(30, TimeUnit.SECONDS));

        long deadline = System.nanoTime() + SERVER_GONE_WITHIN.toNanos();
        while (serverProcesses.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertEquals(
                List.of(),
                serverProcesses.stream()
                        .filter(ProcessHandle::isAlive)
                        .map(ProcessHandle::pid)
                        .toList(),
                "server processes still running " + SERVER_GONE_WITHIN.toSeconds() + " s after the JVM was killed");

        Child second = Child.start(dataDir, "read");
        assertEquals(0, second.awaitExit(), second.output());
        assertTrue(second.output().contains("ROW written-before-the-kill"), second.output());
    }

    @Test
    void everyAcknowledgedCommitSurvivesAKillOfTheWholeServer() throws Exception {
        Path dataDir = tmp.resolve("pgdata");
        boolean byDefault = EmbeddedDatabase.parseSynchronousCommit(null);
        long acknowledged = 0;
        try (EmbeddedDatabase db = EmbeddedDatabase.start(dataDir, byDefault)) {
            ProcessHandle server = ProcessHandle.of(
                            PostmasterPidFile.read(dataDir).orElseThrow().pid())
                    .orElseThrow();
            try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.username(), db.password());
                    Statement s = c.createStatement()) {
                s.execute("CREATE TABLE acknowledged (id bigint)");
                long until = System.nanoTime() + Duration.ofSeconds(2).toNanos();
                while (System.nanoTime() < until) {
                    s.execute("INSERT INTO acknowledged VALUES (" + (acknowledged + 1) + ")");
                    acknowledged++;
                }
                // Right after the last acknowledgement, every process of the server at once: the OOM killer taking
                // the whole process group, or the machine losing power as far as the server can tell.
                Stream.concat(server.descendants(), Stream.of(server)).forEach(ProcessHandle::destroyForcibly);
            }
            while (server.isAlive()) {
                Thread.sleep(20);
            }
        }
        try (EmbeddedDatabase db = EmbeddedDatabase.start(dataDir, byDefault);
                Connection c = DriverManager.getConnection(db.jdbcUrl(), db.username(), db.password());
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*), coalesce(max(id), 0) FROM acknowledged")) {
            assertTrue(rs.next());
            assertEquals(
                    List.of(acknowledged, acknowledged),
                    List.of(rs.getLong(1), rs.getLong(2)),
                    "rows found after the crash (count, highest id) against commits acknowledged");
        }
    }

    /** A JVM running {@link QuickStartDatabaseProcess}, its output collected line by line. */
    private static final class Child {

        final Process process;
        final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        final List<String> all = new ArrayList<>();

        private Child(Process process) {
            this.process = process;
            Thread reader = new Thread(this::read, "child-output");
            reader.setDaemon(true);
            reader.start();
        }

        static Child start(Path dataDir, String... args) throws IOException {
            List<String> cmd = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx256m",
                    "-Djava.util.logging.manager=org.jboss.logmanager.LogManager",
                    "-Dlifeline.database.embedded-dir=" + dataDir,
                    "-cp",
                    System.getProperty("java.class.path"),
                    QuickStartDatabaseProcess.class.getName()));
            cmd.addAll(List.of(args));
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
            pb.environment().remove("QUARKUS_DATASOURCE_JDBC_URL");
            pb.environment().remove("LIFELINE_DATABASE_EMBEDDED_SYNCHRONOUS_COMMIT");
            return new Child(pb.start());
        }

        private void read() {
            try (BufferedReader r =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    synchronized (all) {
                        all.add(line);
                    }
                    lines.add(line);
                }
            } catch (IOException e) {
                // the child is gone
            }
        }

        String awaitLine(String prefix) throws InterruptedException {
            long deadline = System.nanoTime() + CHILD_TIMEOUT.toNanos();
            while (System.nanoTime() < deadline) {
                String line = lines.poll(200, TimeUnit.MILLISECONDS);
                if (line != null && line.startsWith(prefix)) {
                    return line;
                }
                if (line == null && !process.isAlive() && lines.isEmpty()) {
                    break;
                }
            }
            process.destroyForcibly();
            return fail("no line starting with '" + prefix + "' from the child:\n" + output());
        }

        int awaitExit() throws InterruptedException {
            if (!process.waitFor(CHILD_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                fail("the child did not exit:\n" + output());
            }
            Thread.sleep(100);
            return process.exitValue();
        }

        String output() {
            synchronized (all) {
                return String.join("\n", all);
            }
        }
    }
}
