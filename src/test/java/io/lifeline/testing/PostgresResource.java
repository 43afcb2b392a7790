package io.lifeline.testing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * A real PostgreSQL server for the tests, started once per test JVM. Tests can stop it and start it again
 * (same port, same data) to play a database outage.
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
                server = EmbeddedPostgres.builder().setDataDirectory(dataDir).setCleanDataDirectory(false).start();
                port = server.getPort();
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
        EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder().setDataDirectory(dataDir)
                .setCleanDataDirectory(false).setPort(port);
        serverSettings.forEach(builder::setServerConfig);
        server = builder.start();
    }

    @Override
    public void stop() {
        // The server lives as long as the test JVM: several Quarkus applications may use it in turn.
    }
}
