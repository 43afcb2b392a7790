package io.lifeline.eventlog;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.action.ActionStepReading;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An upgrade as a user's database sees it: the schema of the previous release (migrations up to V4) holding an
 * action left running mid-way, then the migrations of this one. The stored action, its steps and its audit trail
 * are still there and the running step's checkpoint baseline is still understood.
 */
class SchemaUpgradeTest {

    private static EmbeddedPostgres server;
    private static DataSource db;

    @BeforeAll
    static void start() throws Exception {
        Path dir = Files.createTempDirectory("lifeline-upgrade");
        server = EmbeddedPostgres.builder()
                .setDataDirectory(dir)
                .setCleanDataDirectory(true)
                .start();
        db = server.getPostgresDatabase();
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    private static Flyway flyway(String target) {
        var c = Flyway.configure().dataSource(db).locations("classpath:db/migration");
        return (target == null ? c : c.target(target)).load();
    }

    @Test
    void historyOfThePreviousReleaseIsReadableAfterTheUpgrade() throws Exception {
        flyway("4").migrate();
        try (Connection c = db.getConnection();
                Statement st = c.createStatement()) {
            st.execute(
                    "INSERT INTO action (id, kind, target, params, reason, requested_by, state, created_at, updated_at,"
                            + " deadline) VALUES ('a-1', 'checkpoint-now', 'ml/a', '{}', 'before the upgrade', 'token:ops',"
                            + " 'running', now(), now(), now() + interval '5 minutes')");
            st.execute("INSERT INTO action_step (action_id, seq, name, state, started_at, ended_at, detail) VALUES"
                    + " ('a-1', 0, 'request checkpoint ml/a', 'done', now(), now(), 'baselineStep=42 (checkpoint_now sent)'),"
                    + " ('a-1', 1, 'await checkpoint ml/a', 'running', now(), NULL, '')");
            st.execute("INSERT INTO audit_log (time, actor, what, target, action_id, reason, before, after) VALUES"
                    + " (now(), 'token:ops', 'action.step', 'ml/a', 'a-1', NULL, 'request checkpoint ml/a', 'done')");
        }

        assertThat(flyway(null).migrate().migrationsExecuted).isPositive();

        try (Connection c = db.getConnection();
                Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery(
                    "SELECT name, state, detail, result FROM action_step" + " WHERE action_id = 'a-1' ORDER BY seq")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString("state")).isEqualTo("done");
                assertThat(rs.getString("result"))
                        .as("steps of the previous release have no typed result")
                        .isNull();
                assertThat(ActionStepReading.baselineOf(rs.getString("detail"), rs.getString("result")))
                        .isEqualTo(42);
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString("state")).isEqualTo("running");
            }
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM audit_log WHERE action_id = 'a-1'")) {
                rs.next();
                assertThat(rs.getInt(1)).isEqualTo(1);
            }
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM leader_term")) {
                rs.next();
                assertThat(rs.getInt(1))
                        .as("the fencing-token table starts empty")
                        .isZero();
            }
        }
    }
}
