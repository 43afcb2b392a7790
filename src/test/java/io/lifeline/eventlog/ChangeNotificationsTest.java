package io.lifeline.eventlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lifeline.testing.MigratedPostgres;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** A listener closed is gone, its connection back in the pool, before close returns. */
class ChangeNotificationsTest {

    private static boolean listenerAlive(String channel) {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals("lifeline-listen-" + channel) && t.isAlive());
    }

    @Test
    void closeWaitsForTheListenerAlsoWhenTheCallerWasInterrupted() throws Exception {
        try (MigratedPostgres db = MigratedPostgres.start("notifications")) {
            String channel = "close_test";
            ChangeNotifications n = new ChangeNotifications(db.dataSource(), channel, p -> {}, () -> {});
            await().atMost(Duration.ofSeconds(30)).until(n::connected);

            // A follower that stops is interrupted, then closes its listener from that thread.
            AtomicBoolean aliveAfterClose = new AtomicBoolean(true);
            AtomicBoolean stillInterrupted = new AtomicBoolean();
            Thread stopping = new Thread(() -> {
                Thread.currentThread().interrupt();
                n.close();
                aliveAfterClose.set(listenerAlive(channel));
                stillInterrupted.set(Thread.currentThread().isInterrupted());
            });
            stopping.start();
            stopping.join();

            assertThat(aliveAfterClose)
                    .as("listener thread alive when close returned")
                    .isFalse();
            assertThat(stillInterrupted).as("the caller's interrupt is kept").isTrue();
            assertThat(n.connected()).isFalse();
        }
    }
}
