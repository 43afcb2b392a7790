package io.lifeline.app;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jboss.logging.Logger;

/**
 * A real PostgreSQL server started in-process for the zero-configuration default. Its data directory is
 * kept, so history survives restarts.
 */
public final class EmbeddedDatabase implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(EmbeddedDatabase.class);

    private final EmbeddedPostgres postgres;
    private final Path dataDir;

    private EmbeddedDatabase(EmbeddedPostgres postgres, Path dataDir) {
        this.postgres = postgres;
        this.dataDir = dataDir;
    }

    /** Starts (or reopens) the server on a free loopback port with its data in {@code dataDir}. */
    public static EmbeddedDatabase start(Path dataDir) {
        try {
            Files.createDirectories(dataDir);
            // A server killed hard leaves its pid file behind; it would refuse to start on a stale one.
            Path pid = dataDir.resolve("postmaster.pid");
            if (Files.exists(pid) && !processAlive(pid)) {
                Files.delete(pid);
            }
            EmbeddedPostgres pg = EmbeddedPostgres.builder()
                    .setDataDirectory(dataDir)
                    .setCleanDataDirectory(false)
                    .setPort(0)
                    // Lifeline stops it itself, after the application's last write (see LifelineMain).
                    .setRegisterShutdownHook(false)
                    .start();
            LOG.infof("Embedded PostgreSQL started on port %d with data in %s", pg.getPort(), dataDir.toAbsolutePath());
            return new EmbeddedDatabase(pg, dataDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the embedded PostgreSQL in " + dataDir.toAbsolutePath(), e);
        }
    }

    private static boolean processAlive(Path pidFile) throws IOException {
        String first = Files.readAllLines(pidFile).stream().findFirst().orElse("").trim();
        try {
            return ProcessHandle.of(Long.parseLong(first)).map(ProcessHandle::isAlive).orElse(false);
        } catch (NumberFormatException e) {
            return false;
        }
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://localhost:" + postgres.getPort() + "/postgres";
    }

    public String username() {
        return "postgres";
    }

    public Path dataDir() {
        return dataDir;
    }

    @Override
    public void close() {
        try {
            postgres.close();
        } catch (IOException e) {
            LOG.warn("Embedded PostgreSQL did not stop cleanly", e);
        }
    }
}
