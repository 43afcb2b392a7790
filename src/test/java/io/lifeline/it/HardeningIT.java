package io.lifeline.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The packaged application as users start it. The quick start keeps its state private ({@code .lifeline} 700, the
 * admin token and the database password 600), its embedded PostgreSQL refuses a login without the password, and it
 * leaves {@code /metrics} open and says so; started against a database of its own (production configuration),
 * {@code /metrics} needs a token. Anonymous visits to the dashboard get no session.
 */
class HardeningIT {

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    @Test
    void theQuickStartKeepsItsStatePrivateAndItsDatabaseLocked() throws Exception {
        Path work = Files.createTempDirectory("lifeline-hardening");
        Path log = work.resolve("lifeline.log");
        try (LifelineProcess app = LifelineProcess.start(work, log)) {
            app.awaitReady(Duration.ofSeconds(120));
            Path state = work.resolve(".lifeline");
            assertThat(mode(state)).isEqualTo("rwx------");
            assertThat(mode(state.resolve("admin-token"))).isEqualTo("rw-------");
            assertThat(mode(state.resolve("pgdata.password"))).isEqualTo("rw-------");

            String text = Files.readString(log);
            Matcher port = Pattern.compile("Embedded PostgreSQL started on port (\\d+)")
                    .matcher(text);
            assertThat(port.find()).as(text).isTrue();
            String url = "jdbc:postgresql://localhost:" + port.group(1) + "/postgres";
            assertThatThrownBy(() ->
                            DriverManager.getConnection(url, "postgres", "").close())
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("password");
            String password = Files.readString(state.resolve("pgdata.password")).strip();
            try (Connection c = DriverManager.getConnection(url, "postgres", password)) {
                assertThat(c.isValid(5)).isTrue();
            }

            // The quick start: /metrics open, and the log says so.
            assertThat(app.get("/metrics").statusCode()).isEqualTo(200);
            assertThat(text).contains("/metrics is OPEN");

            // An anonymous visit to the dashboard is sent to the sign-in page, with no session.
            HttpResponse<String> root = http.send(
                    HttpRequest.newBuilder(URI.create(app.url() + "/")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(root.statusCode()).isEqualTo(303);
            assertThat(root.headers().firstValue("Location").orElse("")).endsWith("/login");
            assertThat(root.headers().allValues("Set-Cookie")).isEmpty();
            assertThat(app.stop()).isIn(0, 130, 143);
        }
    }

    @Test
    void withItsOwnDatabaseMetricsNeedAToken() throws Exception {
        Path work = Files.createTempDirectory("lifeline-hardening-prod");
        Path log = work.resolve("lifeline.log");
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder().start();
                LifelineProcess app = LifelineProcess.start(
                        work,
                        log,
                        "-Dquarkus.datasource.jdbc.url=jdbc:postgresql://localhost:" + pg.getPort() + "/postgres",
                        "-Dquarkus.datasource.username=postgres",
                        "-Dlifeline.demo.enabled=false")) {
            app.awaitReady(Duration.ofSeconds(120));
            HttpResponse<String> anonymous = app.get("/metrics");
            assertThat(anonymous.statusCode()).isEqualTo(401);
            assertThat(anonymous.body()).doesNotContain("lifeline_jobs");
            app.useToken(Files.readString(work.resolve(".lifeline/admin-token")).trim());
            assertThat(app.get("/metrics").statusCode()).isEqualTo(200);
            assertThat(Files.readString(log)).doesNotContain("/metrics is OPEN");
            assertThat(app.stop()).isIn(0, 130, 143);
        }
    }

    private static String mode(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }
}
