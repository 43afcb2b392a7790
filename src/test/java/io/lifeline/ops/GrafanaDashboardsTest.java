package io.lifeline.ops;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lifeline.testing.Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Every metric name in every PromQL expression of {@code grafana/**}/*.json is one Lifeline's live {@code /metrics}
 * serves (after a few events, so job and fleet series exist), one dcgm-exporter really exports (the samples in
 * the shared dcgm fixtures), or a goodput objective's series ({@link ObjectiveSeries}: published only while an
 * objective is configured, and this test configures none).
 */
@QuarkusTest
class GrafanaDashboardsTest {

    private static final Path GRAFANA = Path.of("grafana");
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void everyMetricInEveryDashboardExpressionIsExported() throws IOException {
        OpsEvents.feed("ops-grafana", "dashboards");
        // The security counters appear with the first refused request.
        assertThat(given().get("/api/v1/events").statusCode()).isEqualTo(401);
        Set<String> live = Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(300))
                .until(
                        () -> sampleNames(given().header("Accept", "text/plain")
                                .get("/metrics")
                                .asString()),
                        // Series this feed makes, not only ones any earlier test's jobs may have made already.
                        n -> n.contains("lifeline_node_lemon_score")
                                && n.contains("lifeline_job_node_info")
                                && n.contains("lifeline_node_gpu_health"));
        Set<String> dcgm = dcgmNames();
        assertThat(dcgm).contains("DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_XID_ERRORS");

        Map<String, List<String>> exprs = new TreeMap<>();
        try (Stream<Path> files = Files.walk(GRAFANA)) {
            for (Path f :
                    files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                List<String> found = new ArrayList<>();
                collectExpressions(json.readTree(f.toFile()), found);
                exprs.put(f.toString(), found);
            }
        }
        assertThat(exprs).as("dashboards under grafana/").hasSizeGreaterThanOrEqualTo(5);
        Set<String> objectiveDashboard = new TreeSet<>();
        exprs.getOrDefault(
                        GRAFANA.resolve("dashboards/lifeline-objectives.json").toString(), List.of())
                .forEach(expr -> objectiveDashboard.addAll(PromQl.metricNames(expr)));
        assertThat(objectiveDashboard)
                .as("series the objectives dashboard reads")
                .containsAll(ObjectiveSeries.NAMES);
        Set<String> unknown = new TreeSet<>();
        int names = 0;
        for (Map.Entry<String, List<String>> e : exprs.entrySet()) {
            assertThat(e.getValue()).as("expressions in %s", e.getKey()).isNotEmpty();
            for (String expr : e.getValue()) {
                Set<String> used = PromQl.metricNames(expr);
                assertThat(used).as("metric names in %s: %s", e.getKey(), expr).isNotEmpty();
                for (String n : used) {
                    names++;
                    if (!live.contains(n) && !dcgm.contains(n) && !ObjectiveSeries.NAMES.contains(n)) {
                        unknown.add(n + "  (" + e.getKey() + ": " + expr + ")");
                    }
                }
            }
        }
        assertThat(unknown)
                .as("metric names neither Lifeline (nor its objectives) nor dcgm-exporter exports")
                .isEmpty();
        assertThat(names).isGreaterThan(50);
    }

    @Test
    void extractsMetricNamesFromPromQl() {
        assertThat(PromQl.metricNames("sum by (cause) (increase(lifeline_job_lost_gpu_seconds_total{job_name=~\"$job\"}"
                        + "[1h])) / 3600"))
                .containsExactly("lifeline_job_lost_gpu_seconds_total");
        assertThat(PromQl.metricNames("label_replace(label_join(DCGM_FI_DEV_GPU_UTIL{pod!=\"\"}, \"job_name\", \"/\", "
                        + "\"namespace\", \"pod\"), \"job_name\", \"$1\", \"job_name\", \"(.+)-worker-[0-9]+\") and on (job_name) "
                        + "lifeline_job_gpus{job_name=~\"$job\"}"))
                .containsExactly("DCGM_FI_DEV_GPU_UTIL", "lifeline_job_gpus");
        assertThat(PromQl.metricNames("histogram_quantile(0.95, sum by (le, kind) "
                        + "(rate(lifeline_action_duration_seconds_bucket[$__rate_interval]))) > 1e3"))
                .containsExactly("lifeline_action_duration_seconds_bucket");
    }

    /** Expressions in panels (nested rows included), template variables and alert rules of a dashboard. */
    private static void collectExpressions(JsonNode node, List<String> out) {
        if (node.isObject()) {
            node.fields().forEachRemaining(e -> {
                JsonNode v = e.getValue();
                if ("expr".equals(e.getKey()) && v.isTextual() && !v.asText().isBlank()) {
                    out.add(v.asText());
                } else if (("definition".equals(e.getKey()) || "query".equals(e.getKey()))
                        && v.isTextual()
                        && v.asText().startsWith("label_values(")) {
                    out.add(labelValuesSelector(v.asText()));
                } else {
                    collectExpressions(v, out);
                }
            });
        } else if (node.isArray()) {
            node.forEach(n -> collectExpressions(n, out));
        }
    }

    /** {@code label_values(metric{...}, label)} → {@code metric{...}}. */
    private static String labelValuesSelector(String q) {
        String inner = q.substring("label_values(".length(), q.lastIndexOf(')'));
        return inner.substring(0, inner.lastIndexOf(','));
    }

    private static Set<String> sampleNames(String exposition) {
        Set<String> out = new TreeSet<>();
        for (String line : exposition.split("\n")) {
            if (!line.isEmpty() && line.charAt(0) != '#') {
                int end = 0;
                while (end < line.length() && line.charAt(end) != '{' && line.charAt(end) != ' ') {
                    end++;
                }
                out.add(line.substring(0, end));
            }
        }
        return out;
    }

    /** Sample names in dcgm-exporter's real outputs, plus the fields of its shipped counter lists. */
    private static Set<String> dcgmNames() throws IOException {
        Set<String> out = new TreeSet<>();
        try (Stream<Path> files = Files.list(Fixtures.root().resolve("dcgm"))) {
            for (Path f : files.toList()) {
                String text = Files.readString(f);
                if (f.toString().endsWith(".prom")) {
                    out.addAll(sampleNames(text));
                } else if (f.toString().endsWith(".csv")) {
                    for (String line : text.split("\n")) {
                        if (line.startsWith("DCGM_")) {
                            out.add(line.substring(0, line.indexOf(',')).trim());
                        }
                    }
                }
            }
        }
        return out;
    }
}
