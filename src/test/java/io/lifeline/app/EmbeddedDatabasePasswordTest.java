package io.lifeline.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The quick start's embedded PostgreSQL trusts no local connection: without the generated password (scram-sha-256,
 * kept with mode 600 next to the data directory) a login is refused, over TCP and on the local socket alike; a data
 * directory an earlier version made (every local connection trusted) gets a password on its next start and keeps
 * its data.
 */
class EmbeddedDatabasePasswordTest {

    @TempDir
    Path tmp;

    @Test
    void aLoginWithoutThePasswordIsRefused() throws Exception {
        Path dataDir = tmp.resolve(".lifeline").resolve("pgdata");
        try (EmbeddedDatabase db = EmbeddedDatabase.start(dataDir, true)) {
            assertThatThrownBy(() -> DriverManager.getConnection(db.jdbcUrl(), "postgres", "")
                            .close())
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("password");
            assertThatThrownBy(() -> DriverManager.getConnection(db.jdbcUrl(), "postgres", "not-the-password")
                            .close())
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("password authentication failed");
            try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.username(), db.password());
                    Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT rolpassword LIKE 'SCRAM-SHA-256$%' FROM pg_authid "
                            + "WHERE rolname = 'postgres'")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getBoolean(1))
                        .as("the password is stored as a SCRAM verifier")
                        .isTrue();
            }
            Path passwordFile = tmp.resolve(".lifeline").resolve("pgdata.password");
            assertThat(passwordFile).isEqualTo(EmbeddedDatabase.passwordFile(dataDir));
            assertThat(Files.readString(passwordFile).strip())
                    .isEqualTo(db.password())
                    .hasSizeGreaterThan(40);
            assertThat(mode(passwordFile)).isEqualTo("rw-------");
            assertThat(mode(tmp.resolve(".lifeline"))).isEqualTo("rwx------");
            assertThat(mode(dataDir)).isEqualTo("rwx------");
            // The local socket too: no line of the client authentication trusts anyone.
            assertThat(Files.readAllLines(dataDir.resolve("pg_hba.conf")).stream()
                            .filter(l -> !l.isBlank() && !l.startsWith("#")))
                    .hasSize(3)
                    .allSatisfy(l -> assertThat(l).endsWith("scram-sha-256"));
        }
        // The same password opens it again.
        try (EmbeddedDatabase db = EmbeddedDatabase.start(dataDir, true);
                Connection c = DriverManager.getConnection(db.jdbcUrl(), db.username(), db.password())) {
            assertThat(c.isValid(5)).isTrue();
            assertThatThrownBy(() -> DriverManager.getConnection(db.jdbcUrl(), "postgres", "")
                            .close())
                    .isInstanceOf(SQLException.class);
        }
    }

    @Test
    void aDataDirectoryThatTrustedEveryoneGetsAPasswordAndKeepsItsData() throws Exception {
        Path dataDir = tmp.resolve("pgdata");
        // As earlier versions made it: initdb -A trust, no password on the superuser.
        try (EmbeddedPostgres old = EmbeddedPostgres.builder()
                        .setDataDirectory(dataDir)
                        .setCleanDataDirectory(false)
                        .start();
                Connection c = DriverManager.getConnection(
                        "jdbc:postgresql://localhost:" + old.getPort() + "/postgres", "postgres", "");
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE marker (v text)");
            s.execute("INSERT INTO marker VALUES ('kept')");
        }
        assertThat(EmbeddedDatabase.passwordFile(dataDir)).doesNotExist();
        try (EmbeddedDatabase db = EmbeddedDatabase.start(dataDir, true)) {
            assertThatThrownBy(() -> DriverManager.getConnection(db.jdbcUrl(), "postgres", "")
                            .close())
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("password");
            try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.username(), db.password());
                    Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT v FROM marker")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("kept");
            }
            assertThat(mode(EmbeddedDatabase.passwordFile(dataDir))).isEqualTo("rw-------");
        }
    }

    private static String mode(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }
}
