package io.lifeline.connector.inbound.prometheus;

import static io.lifeline.testing.LifelineApi.metric;
import static io.lifeline.testing.LifelineApi.stored;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lifeline.connector.inbound.scrape.FakeExporter;
import io.lifeline.testing.Fixtures;
import io.lifeline.testing.RequiredTool;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The Prometheus GPU source inside the application against a real Prometheus server (the Debian {@code prometheus}
 * package) that scrapes two exporters serving real dcgm-exporter fixtures, the way a ServiceMonitor does: with
 * {@code honor_labels: false} and the exporter pod's own {@code namespace}, {@code pod} and {@code container} as
 * target labels, so the workload's labels arrive as {@code exported_*}. The events are read back from the event log.
 */
@QuarkusTest
@QuarkusTestResource(value = PrometheusGpuSourceTest.PrometheusOn.class, restrictToAnnotatedClass = true)
class PrometheusGpuSourceTest {

    static final String LKE_NODE = "lke529760-766837-0a634ab30000";
    static final String L4_NODE = "i-030791dc5a37cd257";
    static final String LKE_GPU = "GPU-a8394b51-c086-568a-9f1a-c1e1c934c44c";
    private static final String PROMETHEUS = "/usr/bin/prometheus";
    static final byte[] LKE = Fixtures.bytes("dcgm/metrics_lke_rtx4000ada_k8s_pod_labels.prom");
    static FakeExporter lke;
    static FakeExporter l4;

    /** Two exporters, a Prometheus scraping them every second, and the source on against it. */
    public static class PrometheusOn implements QuarkusTestResourceLifecycleManager {
        private Process prometheus;

        @Override
        public Map<String, String> start() {
            if (!new File(PROMETHEUS).exists()) {
                return Map.of();
            }
            try {
                lke = new FakeExporter().serve(LKE);
                l4 = new FakeExporter().serve(Fixtures.bytes("dcgm/metrics_kops_aws_L4_no_xid_series.prom"));
                Path home = Path.of("target", "prometheus-gpu-source");
                Files.createDirectories(home.resolve("data"));
                Path config = home.resolve("prometheus.yml");
                Files.writeString(config, """
                        global:
                          scrape_interval: 1s
                        scrape_configs:
                          - job_name: gpu-operator/nvidia-dcgm-exporter
                            honor_labels: false
                            static_configs:
                              - targets: ['%s']
                                labels: {namespace: gpu-operator, pod: nvidia-dcgm-exporter-lke, container: nvidia-dcgm-exporter}
                              - targets: ['%s']
                                labels: {namespace: gpu-operator, pod: nvidia-dcgm-exporter-l4, container: nvidia-dcgm-exporter}
                        """.formatted(hostPort(lke), hostPort(l4)));
                int port = freePort();
                prometheus = new ProcessBuilder(
                                PROMETHEUS,
                                "--config.file=" + config.toAbsolutePath(),
                                "--storage.tsdb.path=" + home.resolve("data").toAbsolutePath(),
                                "--web.listen-address=127.0.0.1:" + port,
                                "--storage.tsdb.retention.time=1h")
                        .redirectErrorStream(true)
                        .redirectOutput(home.resolve("prometheus.log").toFile())
                        .start();
                String url = "http://127.0.0.1:" + port;
                // The source starts with the application: wait until Prometheus holds both exporters' series.
                await().atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(300))
                        .ignoreExceptions()
                        .until(() -> query(url, "count(count by (Hostname) (DCGM_FI_DEV_GPU_TEMP))") == 2);
                return Map.of(
                        "lifeline.connectors.prometheus.enabled",
                        "true",
                        "lifeline.connectors.prometheus.url",
                        url,
                        "lifeline.connectors.prometheus.interval",
                        "1s",
                        "lifeline.connectors.prometheus.headers.X-Scope-OrgID",
                        "fleet-a");
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void stop() {
            if (prometheus != null) {
                prometheus.destroy();
                try {
                    if (!prometheus.waitFor(10, TimeUnit.SECONDS)) {
                        prometheus.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            if (lke != null) {
                lke.close();
            }
            if (l4 != null) {
                l4.close();
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> data(Map<String, Object> event) {
        return (Map<String, Object>) event.get("data");
    }

    private static List<Map<String, Object>> fromPrometheus(String node, String type) {
        return stored(node, type).stream()
                .filter(e -> String.valueOf(e.get("source")).startsWith("dcgm-exporter/prometheus/"))
                .toList();
    }

    @Test
    void samplesComeThroughPrometheusWithTheWorkloadsLabelsAndMissingSeriesStayMissing() {
        RequiredTool.PROMETHEUS.file();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> !fromPrometheus(LKE_NODE, "gpu.sample").isEmpty()
                        && !fromPrometheus(L4_NODE, "gpu.sample").isEmpty());

        Map<String, Object> lkeSample =
                data(fromPrometheus(LKE_NODE, "gpu.sample").get(0));
        assertThat(lkeSample)
                .containsEntry("uuid", LKE_GPU)
                .containsEntry("index", 0)
                .containsEntry("model", "NVIDIA RTX 4000 Ada Generation")
                // exported_pod / exported_namespace: the workload, not the exporter pod the target labels name
                .containsEntry("pod", "cuda-75454ffb9f-8ljq7")
                .containsEntry("namespace", "default")
                .containsEntry("lastXid", 0);
        assertThat(lkeSample.get("temperatureCelsius")).isNotNull();

        Map<String, Object> l4Sample =
                data(fromPrometheus(L4_NODE, "gpu.sample").get(0));
        assertThat(l4Sample)
                .containsEntry("uuid", "GPU-c2f76b33-7953-256e-8f33-1343419b1a1c")
                .containsEntry("model", "NVIDIA L4");
        // The L4 exporter has no XID series and its GPU runs no pod: missing, not zero, and not the exporter's pod.
        assertThat(l4Sample).doesNotContainKeys("lastXid", "pod", "namespace");
        assertThat(fromPrometheus(L4_NODE, "gpu.sample").get(0).get("source"))
                .asString()
                .startsWith("dcgm-exporter/prometheus/127.0.0.1:");
        assertThat(metric("lifeline_connector_prometheus_queries_total", Map.of("outcome", "success")))
                .isPositive();
    }

    @Test
    void aNewXidInTheExportersGaugeBecomesOneXidEvent() {
        RequiredTool.PROMETHEUS.file();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> !fromPrometheus(LKE_NODE, "gpu.sample").isEmpty());
        // The fixture's XID gauge, set to 79 as dcgm-exporter reports a GPU fallen off the bus.
        String withXid = new String(LKE, StandardCharsets.UTF_8)
                .replaceAll(
                        "(DCGM_FI_DEV_XID_ERRORS\\{[^}]*)err_code=\"0\",err_msg=\"No Error\"([^}]*\\}) 0",
                        "$1err_code=\"79\",err_msg=\"GPU has fallen off the bus\"$2 79");
        assertThat(withXid).contains("} 79");
        lke.serve(withXid.getBytes(StandardCharsets.UTF_8));
        try {
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> !fromPrometheus(LKE_NODE, "gpu.xid").isEmpty());
            Map<String, Object> xid = data(fromPrometheus(LKE_NODE, "gpu.xid").get(0));
            assertThat(xid)
                    .containsEntry("uuid", LKE_GPU)
                    .containsEntry("xid", 79)
                    .containsEntry("message", "GPU has fallen off the bus");
        } finally {
            lke.serve(LKE);
        }
    }

    private static String hostPort(FakeExporter e) {
        return e.url("").replaceFirst("^http://", "");
    }

    static double query(String api, String promql) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(api + "/api/v1/query?query="
                                        + URLEncoder.encode(promql, StandardCharsets.UTF_8)))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        JsonNode result = new ObjectMapper().readTree(r.body()).at("/data/result");
        return result.isEmpty() ? 0 : result.get(0).at("/value/1").asDouble();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
