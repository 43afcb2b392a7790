package io.lifeline.testing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * A real PostgreSQL server for the tests, started once per test JVM and removed with its data when the JVM ends. Tests
 * can stop it and start it again (same port, same data) to play a database outage. With {@code -Dbench.pg.statements}
 * the server keeps statement statistics ({@code pg_stat_statements}), which the ingest benchmark prints per phase.
 */
public class PostgresResource implements QuarkusTestResourceLifecycleManager {

    private static EmbeddedPostgres server;
    private static Path dataDir;
    private static int port;

    @Override
    public synchronized Map<String, String> start() {
        if (server == null) {
            try {
                dataDir = Files.createTempDirectory("lifeline-test-pg");
                EmbeddedPostgres.Builder builder =
                        EmbeddedPostgres.builder().setDataDirectory(dataDir).setCleanDataDirectory(false);
                if (Boolean.getBoolean("bench.pg.statements")) {
                    builder.setServerConfig("shared_preload_libraries", "pg_stat_statements");
                }
                server = builder.start();
                port = server.getPort();
                Runtime.getRuntime().addShutdownHook(new Thread(PostgresResource::removeServer, "test-pg-remove"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return Map.of("quarkus.datasource.jdbc.url", jdbcUrl(), "quarkus.datasource.username", "postgres");
    }

    public static String jdbcUrl() {
        return "jdbc:postgresql://localhost:" + port + "/postgres";
    }

    /** Stops the server, keeping its data: the database becomes unavailable. */
    public static synchronized void stopServer() throws IOException {
        server.close();
    }

    /** Starts the server again on the same port and data directory. */
    public static synchronized void restartServer() throws IOException {
        restartServer(Map.of());
    }

    /** Stops the server if it runs and starts it again (same port, same data) with these server settings added. */
    public static synchronized void restartServer(Map<String, String> serverSettings) throws IOException {
        server.close();
        EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                .setDataDirectory(dataDir)
                .setCleanDataDirectory(false)
                .setPort(port);
        serverSettings.forEach(builder::setServerConfig);
        server = builder.start();
    }

    /** At the JVM's end: stops the server and deletes its data directory (hundreds of MB after a suite). */
    private static synchronized void removeServer() {
        try {
            server.close();
        } catch (IOException | RuntimeException e) {
            // Stopped already, or going away with the JVM.
        }
        try (java.util.stream.Stream<Path> files = Files.walk(dataDir)) {
            files.sorted(java.util.Comparator.reverseOrder())
                    .forEach(f -> f.toFile().delete());
        } catch (IOException | RuntimeException e) {
            // A leftover temporary directory is no failure.
        }
    }

    @Override
    public void stop() {
        // The server lives as long as the test JVM: several Quarkus applications may use it in turn.
    }
}
