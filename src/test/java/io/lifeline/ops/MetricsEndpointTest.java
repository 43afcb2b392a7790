package io.lifeline.ops;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** {@code /metrics}: the text format by default, OpenMetrics when asked for, and the series Lifeline publishes. */
@QuarkusTest
class MetricsEndpointTest {

    @Test
    void answersTheTextFormatWhenAskedForPlainText() {
        Response r = given().header("Accept", "text/plain").get("/metrics");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.contentType()).startsWith("text/plain").contains("version=0.0.4");
        assertThat(r.asString()).doesNotContain("# EOF");
    }

    @Test
    void answersOpenMetricsWhenTheAcceptHeaderAsksForIt() {
        Response r = given().header("Accept", "application/openmetrics-text; version=1.0.0; charset=utf-8")
                .get("/metrics");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.contentType()).startsWith("application/openmetrics-text");
        String body = r.asString();
        assertThat(body).endsWith("# EOF\n");
        assertThat(body).contains("# TYPE lifeline_ingest_events counter");
    }

    @Test
    void everyLifelineMetricServedIsDocumentedInOperationsMd() throws java.io.IOException {
        OpsEvents.feed("ops-endpoint", "documented");
        String doc = java.nio.file.Files.readString(java.nio.file.Path.of("docs", "operations.md"));
        String text = Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(300))
                .until(
                        () -> given().header("Accept", "text/plain")
                                .get("/metrics")
                                .asString(),
                        t -> t.contains("lifeline_node_lemon_score{") && t.contains("lifeline_job_node_info{"));
        java.util.Set<String> undocumented = new java.util.TreeSet<>();
        for (String line : text.split("\n")) {
            if (!line.startsWith("lifeline_")) {
                continue;
            }
            String name = line.substring(0, line.replaceAll("[{ ].*", "").length());
            if (!doc.contains("`" + name + "`") && !doc.contains("`" + stripSuffix(name) + "`")) {
                undocumented.add(name);
            }
        }
        assertThat(undocumented)
                .as("metrics served on /metrics but missing from docs/operations.md")
                .isEmpty();
    }

    /** The documented name of a histogram's or counter's sample ({@code _bucket}, {@code _count}, {@code _sum}, {@code _max}). */
    private static String stripSuffix(String sample) {
        for (String suffix : new String[] {"_bucket", "_count", "_sum", "_max"}) {
            if (sample.endsWith(suffix)) {
                return sample.substring(0, sample.length() - suffix.length());
            }
        }
        return sample;
    }

    @Test
    void publishesJobAndFleetSeriesAndCountsIngestBySourceFamily() {
        String job = OpsEvents.feed("ops-endpoint", "series");
        String label = "job_name=\"" + job + "\"";
        String text = Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(300))
                .until(
                        () -> given().header("Accept", "application/openmetrics-text; version=1.0.0; charset=utf-8")
                                .get("/metrics")
                                .asString(),
                        // Every series the assertions read, not only the first: the job's rows are published from
                        // one model snapshot per scrape, and a scrape may come between the batch's parts.
                        t -> t.contains("lifeline_job_world_size{" + label)
                                && t.contains("lifeline_job_world_size_min{" + label)
                                && t.contains("lifeline_job_node_info{" + label)
                                && t.contains("lifeline_node_gpu_health{health=\"failed\",node=\"series-node-b\"}")
                                && t.contains("lifeline_node_lemon_score{"));
        assertThat(text).contains("lifeline_job_world_size{" + label + ",job_namespace=\"ops-endpoint\"} 16.0");
        assertThat(text).contains("lifeline_job_world_size_min{" + label + ",job_namespace=\"ops-endpoint\"} 8.0");
        assertThat(text).contains("lifeline_job_world_size_max{" + label + ",job_namespace=\"ops-endpoint\"} 16.0");
        assertThat(text)
                .contains("lifeline_job_node_info{" + label
                        + ",job_namespace=\"ops-endpoint\",node=\"series-node-a\"} 1.0");
        assertThat(text).contains("lifeline_node_gpu_health{health=\"failed\",node=\"series-node-b\"} 1.0");
        assertThat(text).containsPattern("lifeline_gpus\\{health=\"failed\",pool=\"spot-a\"} [1-9]");
        // Sources are counted by family: "aws/eventbridge/us-east-1" is "aws", "test/trainer" is "test".
        assertThat(text)
                .containsPattern(
                        "lifeline_ingest_events_total\\{source=\"aws\",type=\"node.interruption_notice\"} [1-9]");
        assertThat(text)
                .containsPattern("lifeline_ingest_events_total\\{source=\"test\",type=\"trainer.rendezvous\"} [1-9]");
        assertThat(text).doesNotContain("source=\"aws/eventbridge");
        // Action and policy counters exist at zero before the first action.
        assertThat(text).contains("lifeline_actions_total{kind=\"drain\",outcome=\"failed\"}");
        assertThat(text)
                .contains("lifeline_action_duration_seconds_bucket{kind=\"drain\",outcome=\"failed\",le=\"60.0\"}");
        assertThat(text).contains("lifeline_policy_decisions_total{mode=\"dry-run\",policy=\"fatal-xid-drain\"}");
    }
}
