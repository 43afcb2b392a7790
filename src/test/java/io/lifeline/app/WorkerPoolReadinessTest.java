package io.lifeline.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.runtime.ExecutorRecorder;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

/**
 * Readiness reflects a starved worker pool: with every worker thread busy and tasks queued behind them, a task handed
 * to the pool waits; past the bound {@code /q/health/ready} answers 503 with the {@code worker-pool} check DOWN at
 * once (from the event loop, without waiting for a worker), and UP again once the pool drains.
 */
@QuarkusTest
class WorkerPoolReadinessTest {

    @TestHTTPResource("/q/health/ready")
    URL ready;

    @Test
    void aStarvedWorkerPoolMakesTheReplicaNotReadyUntilItDrains() throws Exception {
        HttpClient http =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        assertThat(get(http).statusCode()).isEqualTo(200);
        assertThat(get(http).body()).contains("\"worker-pool\"");

        Executor pool = ExecutorRecorder.getCurrent();
        CountDownLatch release = new CountDownLatch(1);
        int tasks = 600;
        for (int i = 0; i < tasks; i++) {
            pool.execute(() -> {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        try {
            long start = System.nanoTime();
            HttpResponse<String> down = null;
            while (System.nanoTime() - start < Duration.ofSeconds(30).toNanos()) {
                HttpResponse<String> r;
                try {
                    r = get(http);
                } catch (java.net.http.HttpTimeoutException notYet) {
                    // Before the bound the other checks still wait for a worker, as before this check existed.
                    continue;
                }
                if (r.statusCode() == 503) {
                    down = r;
                    break;
                }
                Thread.sleep(250);
            }
            long ms = (System.nanoTime() - start) / 1_000_000;
            System.out.printf(
                    "worker pool filled with %d blocked tasks: readiness DOWN after %d ms: %s%n",
                    tasks, ms, down == null ? "never" : down.body());
            assertThat(down)
                    .as("readiness answered 503 while the pool was starved")
                    .isNotNull();
            assertThat(down.body()).contains("\"worker-pool\"", "\"DOWN\"");
        } finally {
            release.countDown();
        }
        long start = System.nanoTime();
        int status = 0;
        while (System.nanoTime() - start < Duration.ofSeconds(30).toNanos() && status != 200) {
            Thread.sleep(250);
            try {
                status = get(http).statusCode();
            } catch (java.net.http.HttpTimeoutException draining) {
                status = 0;
            }
        }
        assertThat(status).as("ready again once the pool drained").isEqualTo(200);
    }

    private HttpResponse<String> get(HttpClient http) throws Exception {
        // A starved pool must not make readiness hang: the answer comes within the probe's timeout.
        return http.send(
                HttpRequest.newBuilder(URI.create(ready.toString()))
                        .timeout(Duration.ofSeconds(5))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
