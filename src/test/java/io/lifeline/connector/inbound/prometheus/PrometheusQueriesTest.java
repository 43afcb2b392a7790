package io.lifeline.connector.inbound.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.lifeline.domain.policy.colocation.DemandState;
import io.lifeline.testing.RequiredTool;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The Prometheus reader against a real Prometheus server (the Debian {@code prometheus} package), which scrapes a
 * small exposition served by the test: an inference queue whose depth the test sets. The demand trigger's
 * hysteresis is fed with what Prometheus answers.
 */
class PrometheusQueriesTest {

    private static final String PROMETHEUS = "/usr/bin/prometheus";
    private static final Path HOME = Path.of("target", "prometheus-colocation");

    private final AtomicReference<String> waiting = new AtomicReference<>("12");
    private HttpServer exporter;
    private Process prometheus;

    @AfterEach
    void stop() throws InterruptedException {
        if (prometheus != null) {
            prometheus.destroy();
            if (!prometheus.waitFor(10, TimeUnit.SECONDS)) {
                prometheus.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
        if (exporter != null) {
            exporter.stop(0);
        }
    }

    @Test
    void aQueryOfARealPrometheusDrivesTheTriggerUpAndDownWithItsHold() throws Exception {
        RequiredTool.PROMETHEUS.file();
        exporter = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        exporter.createContext("/metrics", x -> {
            byte[] body = ("# TYPE vllm_num_requests_waiting gauge\nvllm_num_requests_waiting{model=\"chat\"} "
                            + waiting.get() + "\nvllm_num_requests_waiting{model=\"embed\"} 1\n")
                    .getBytes(StandardCharsets.UTF_8);
            x.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4");
            x.sendResponseHeaders(200, body.length);
            x.getResponseBody().write(body);
            x.close();
        });
        exporter.start();
        int port = freePort();
        start(port, exporter.getAddress().getPort());
        PrometheusQueries q = new PrometheusQueries("http://127.0.0.1:" + port, Duration.ofSeconds(5));

        String query = "max(vllm_num_requests_waiting)";
        double high = Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .ignoreExceptions()
                .until(() -> q.value(query), v -> v == 12.0);
        DemandState s = DemandState.INITIAL.sampled(high, Instant.EPOCH, 5, Duration.ofSeconds(60));
        assertThat(s.active()).isTrue();

        waiting.set("2");
        double low = Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500))
                .ignoreExceptions()
                .until(() -> q.value(query), v -> v == 2.0);
        s = s.sampled(low, Instant.EPOCH.plusSeconds(30), 5, Duration.ofSeconds(60));
        assertThat(s.active()).as("below, inside the hold").isTrue();
        s = s.sampled(q.value(query), Instant.EPOCH.plusSeconds(90), 5, Duration.ofSeconds(60));
        assertThat(s.active()).as("below for the whole hold").isFalse();

        assertThat(q.value("scalar(vllm_num_requests_waiting{model=\"embed\"})"))
                .isEqualTo(1.0);
        assertThat(q.value("vllm_num_requests_waiting{model=\"none\"}"))
                .as("an empty vector: no demand")
                .isZero();
        assertThatThrownBy(() -> q.value("sum("))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("bad_data");
    }

    private void start(int port, int target) throws IOException {
        Path data = HOME.resolve("data");
        Files.createDirectories(data);
        Path config = HOME.resolve("prometheus.yml");
        Files.writeString(config, """
                global:
                  scrape_interval: 1s
                scrape_configs:
                  - job_name: inference
                    static_configs:
                      - targets: ['127.0.0.1:%d']
                """.formatted(target));
        prometheus = new ProcessBuilder(
                        PROMETHEUS,
                        "--config.file=" + config.toAbsolutePath(),
                        "--storage.tsdb.path=" + data.toAbsolutePath(),
                        "--web.listen-address=127.0.0.1:" + port,
                        "--storage.tsdb.retention.time=1h")
                .redirectErrorStream(true)
                .redirectOutput(HOME.resolve("prometheus.log").toFile())
                .start();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
