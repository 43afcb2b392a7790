package io.lifeline.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lifeline.testing.RequiredTool;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URL;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Lifeline and a real Prometheus server (the Debian {@code prometheus} package): Prometheus scrapes
 * {@code /metrics}, and a PromQL query through Prometheus' HTTP API returns the checkpoint age of a job fed through
 * the event API. promtool's lint of the exposition is MetricsLintTest's.
 */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PrometheusScrapeTest {

    private static final String PROMETHEUS = "/usr/bin/prometheus";
    private static final Path HOME = Path.of("target", "prometheus-test");

    @TestHTTPResource("/")
    URL app;

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final ObjectMapper json = new ObjectMapper();
    private Process prometheus;

    @AfterAll
    void stopPrometheus() throws InterruptedException {
        if (prometheus != null) {
            prometheus.destroy();
            if (!prometheus.waitFor(10, TimeUnit.SECONDS)) {
                prometheus.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void prometheusScrapesLifelineAndAnswersTheCheckpointAgeOfAJob() throws Exception {
        RequiredTool.PROMETHEUS.file();
        String job = OpsEvents.feed("ops-prom", "scraped");
        String selector = "lifeline_job_checkpoint_age_seconds{job_name=\"" + job + "\"}";
        Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(300))
                .until(() -> get(app + "metrics").contains("job_name=\"" + job + "\""));

        int port = freePort();
        startPrometheus(port);
        String api = "http://127.0.0.1:" + port;
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .ignoreExceptions()
                .until(() -> targetUp(api));

        JsonNode result = Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500))
                .ignoreExceptions()
                .until(() -> query(api, selector), r -> r.size() == 1);
        JsonNode sample = result.get(0);
        assertThat(sample.at("/metric/__name__").asText()).isEqualTo("lifeline_job_checkpoint_age_seconds");
        assertThat(sample.at("/metric/job_name").asText()).isEqualTo(job);
        assertThat(sample.at("/metric/job_namespace").asText()).isEqualTo("ops-prom");
        // The checkpoint completed 480 s after t0 = now - 600 s: about 480 s old, give or take the test's own time.
        double age = Double.parseDouble(sample.at("/value/1").asText());
        assertThat(age).isBetween(470.0, 600.0);
    }

    private void startPrometheus(int port) throws IOException {
        Path data = HOME.resolve("data");
        Files.createDirectories(data);
        Path config = HOME.resolve("prometheus.yml");
        Files.writeString(config, """
                global:
                  scrape_interval: 1s
                  evaluation_interval: 1s
                scrape_configs:
                  - job_name: lifeline
                    metrics_path: /metrics
                    static_configs:
                      - targets: ['%s:%d']
                """.formatted(app.getHost(), app.getPort()));
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

    private boolean targetUp(String api) throws Exception {
        JsonNode targets = json.readTree(get(api + "/api/v1/targets")).at("/data/activeTargets");
        for (JsonNode t : targets) {
            if ("up".equals(t.path("health").asText())) {
                return true;
            }
        }
        return false;
    }

    private JsonNode query(String api, String promql) throws Exception {
        JsonNode body =
                json.readTree(get(api + "/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)));
        assertThat(body.path("status").asText()).isEqualTo("success");
        return body.at("/data/result");
    }

    private String get(String url) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(10))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException(url + " answered " + r.statusCode());
        }
        return r.body();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
