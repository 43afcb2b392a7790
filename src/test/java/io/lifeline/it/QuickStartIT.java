package io.lifeline.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The quick start as a new user runs it: the packaged application with no configuration starts its embedded
 * PostgreSQL, becomes ready, takes events, and keeps them across a stop and a start.
 */
class QuickStartIT {

    @Test
    void startsWithEmbeddedDefaultsAndKeepsHistoryAcrossRestart() throws Exception {
        Path work = Files.createTempDirectory("lifeline-quickstart");
        Path log = work.resolve("lifeline.log");
        String id = "restart-" + System.nanoTime();
        String event = "{\"specversion\":\"1.0\",\"id\":\"" + id + "\",\"source\":\"it/quickstart\","
                + "\"type\":\"node.registered\",\"subject\":\"it-node-1\",\"time\":\""
                + Instant.now().truncatedTo(ChronoUnit.SECONDS) + "\",\"data\":{\"pool\":\"spot-a\","
                + "\"capacityType\":\"spot\",\"gpuCount\":8}}";
        List<ProcessHandle> postgres;
        try (LifelineProcess first = LifelineProcess.start(work, log, "-Dlifeline.demo.enabled=false")) {
            first.awaitReady(Duration.ofSeconds(120));
            // The first start writes an admin token to a file only this user can read, in the working directory.
            Path tokenFile = work.resolve(".lifeline/admin-token");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile)))
                    .isEqualTo("rw-------");
            assertThat(first.post("/api/v1/events", "application/cloudevents+json", event)
                            .statusCode())
                    .isEqualTo(401);
            first.useToken(Files.readString(tokenFile).trim());
            assertThat(first.post("/api/v1/events", "application/cloudevents+json", event)
                            .statusCode())
                    .isEqualTo(200);
            // pg_ctl daemonises the server, so find it by its data directory rather than as a child process.
            postgres = ProcessHandle.allProcesses()
                    .filter(p -> p.info().commandLine().orElse("").contains(work.toString()))
                    .filter(p -> p.info().command().orElse("").contains("postgres"))
                    .toList();
            assertThat(postgres).as("embedded PostgreSQL runs under Lifeline").isNotEmpty();
            assertThat(first.stop()).isIn(0, 130, 143);
        }
        org.awaitility.Awaitility.await()
                .atMost(Duration.ofSeconds(15))
                .untilAsserted(() -> assertThat(postgres)
                        .as("no PostgreSQL process left after stop")
                        .noneMatch(ProcessHandle::isAlive));
        assertThat(Files.exists(work.resolve(".lifeline/pgdata/PG_VERSION"))).isTrue();

        try (LifelineProcess second = LifelineProcess.start(work, log, "-Dlifeline.demo.enabled=false")) {
            second.awaitReady(Duration.ofSeconds(120));
            second.useToken(
                    Files.readString(work.resolve(".lifeline/admin-token")).trim());
            String body = second.get("/api/v1/events?subject=it-node-1").body();
            assertThat(body).contains("\"id\":\"" + id + "\"");
            assertThat(second.stop()).isIn(0, 130, 143);
            String token =
                    Files.readString(work.resolve(".lifeline/admin-token")).trim();
            assertThat(Files.readString(log))
                    .as("the log names the token file, never the token")
                    .contains(".lifeline/admin-token")
                    .doesNotContain(token);
        } finally {
            try (Stream<String> lines = Files.lines(log)) {
                lines.filter(l -> l.contains("ERROR")).limit(20).forEach(System.out::println);
            }
        }
    }
}
