package io.lifeline.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The packaged application stops in order: everything that uses the database from a thread of its own (the log
 * follower and its listener, the agent command listener, the action executor, the leader lease, the policies, the
 * scheduled jobs, the demo fleet and its journal) stops before the connection pool closes, and the embedded database
 * after the last write. A start that fails exits at once instead of waiting for writes that will never come.
 */
class ShutdownIT {

    /** What the log shows when something still used the database as it closed. */
    private static final List<String> CLOSED_UNDER_USE = List.of(
            "pool is closed",
            "[io.ag.pool]",
            "This connection has been closed",
            "Listening for",
            "Following the event log failed",
            "stopping the embedded database before the application finished writing",
            "demo fleet: writing its journal failed");
    /** The demo fleet's last journal write is done (it logs this after it). */
    private static final String DEMO_STOPPED = "demo fleet stopped at simulated";
    /** PostgreSQL's own line when the embedded database is asked to stop. */
    private static final String DATABASE_STOPPING = "received fast shutdown request";

    @Test
    void aStopClosesTheDatabaseAfterEverythingThatUsesIt() throws Exception {
        Path work = Files.createTempDirectory("lifeline-shutdown");
        Path log = work.resolve("lifeline.log");
        try (LifelineProcess app = LifelineProcess.start(work, log)) {
            app.awaitReady(Duration.ofSeconds(120));
            // The demo fleet runs: its events are stored and followed, the leader runs policies, alerts are evaluated.
            app.useToken(Files.readString(work.resolve(".lifeline/admin-token")).trim());
            org.awaitility.Awaitility.await()
                    .atMost(Duration.ofSeconds(60))
                    .until(() ->
                            app.get("/api/v1/events?order=desc&limit=1").body().contains("\"seq\""));
            assertThat(app.stop()).isIn(0, 130, 143);
        }
        String text = Files.readString(log);
        assertThat(text).contains("lifeline stopped in");
        assertThat(lines(log, CLOSED_UNDER_USE))
                .as("lines of %s showing the database closed under use", log)
                .isEmpty();
        // The demo writes its journal as it stops: that must happen before the database is asked to stop, not race
        // it. (The server's lines reach the log only while the application's logging is still up.)
        assertThat(text).contains(DEMO_STOPPED);
        if (text.contains(DATABASE_STOPPING)) {
            assertThat(text.indexOf(DEMO_STOPPED))
                    .as("the demo fleet stopped before the database in %s", log)
                    .isLessThan(text.indexOf(DATABASE_STOPPING));
        }
    }

    @Test
    void aStartThatFailsExitsPromptly() throws Exception {
        Path work = Files.createTempDirectory("lifeline-failed-start");
        Path log = work.resolve("lifeline.log");
        try (LifelineProcess app =
                LifelineProcess.start(work, log, "-Dlifeline.ingest.telemetry-store-interval=not-a-duration")) {
            // The embedded database is up before the configuration fails: its stop waited 150 s for the store.
            OptionalInt code = app.awaitExit(Duration.ofSeconds(90));
            assertThat(code).as("exited by itself after the failed start").isPresent();
            assertThat(code.getAsInt()).isNotZero();
        }
        assertThat(Files.readString(log)).contains("not-a-duration");
        assertThat(lines(log, CLOSED_UNDER_USE)).isEmpty();
    }

    @Test
    void aSigtermWhileStartingIsObeyedPromptly() throws Exception {
        Path work = Files.createTempDirectory("lifeline-stopped-starting");
        Path log = work.resolve("lifeline.log");
        try (LifelineProcess app = LifelineProcess.start(work, log)) {
            // The embedded database is up and the application is starting: the stop waited 150 s for its store.
            org.awaitility.Awaitility.await()
                    .atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> Files.readString(log).contains("Embedded PostgreSQL started"));
            assertThat(app.stop())
                    .as("exit code after SIGTERM (stop fails after 60 s)")
                    .isIn(0, 1, 130, 143);
        }
        assertThat(lines(log, CLOSED_UNDER_USE)).isEmpty();
    }

    private static List<String> lines(Path log, List<String> needles) throws Exception {
        try (Stream<String> lines = Files.lines(log)) {
            return lines.filter(l -> needles.stream().anyMatch(l::contains))
                    .limit(20)
                    .toList();
        }
    }
}
