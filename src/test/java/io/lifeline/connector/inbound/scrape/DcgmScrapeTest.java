package io.lifeline.connector.inbound.scrape;

import static io.lifeline.testing.LifelineApi.metric;
import static io.lifeline.testing.LifelineApi.stored;
import static io.lifeline.testing.LifelineApi.unique;
import static io.lifeline.testing.TestTokens.api;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.notNullValue;

import io.lifeline.testing.Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * dcgm-exporter scraping end to end: real HTTP servers serve the fixture scrapes, Lifeline scrapes them on its
 * schedule (every 500 ms in the test profile, 800 ms timeout, stale after 2 failures).
 */
@QuarkusTest
class DcgmScrapeTest {

    private static final String LKE = "dcgm/metrics_lke_rtx4000ada_k8s_pod_labels.prom";
    private static final String XID_LINE_END = "pod_uid=\"\"} 0";

    @Inject
    DcgmScraper scraper;

    private EndpointStatus status(String url) {
        return scraper.status().stream()
                .filter(s -> s.url().equals(url))
                .findFirst()
                .orElse(null);
    }

    private static List<Path> fixtures() throws IOException {
        try (Stream<Path> files = Files.list(Fixtures.path("dcgm"))) {
            return files.filter(p -> p.toString().endsWith(".prom")).sorted().toList();
        }
    }

    @Test
    void everyFixtureScrapeIsTakenFromARealServer() throws IOException {
        double samplesBefore = metric("lifeline_ingest_events_total", Map.of("type", "gpu.sample"));
        List<FakeExporter> servers = new ArrayList<>();
        List<String> urls = new ArrayList<>();
        try {
            for (Path fixture : fixtures()) {
                FakeExporter server = new FakeExporter().serve(Files.readAllBytes(fixture));
                servers.add(server);
                String url = server.url("/metrics");
                urls.add(url);
                scraper.add(new ScrapeTarget(url, unique("dcgm-node"), ScrapeTarget.Origin.STATIC));
            }
            assertThat(urls).hasSize(fixtures().size()).hasSizeGreaterThanOrEqualTo(4);
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                for (String url : urls) {
                    EndpointStatus s = status(url);
                    assertThat(s.lastSuccess()).as(url).isNotNull();
                    assertThat(s.consecutiveFailures()).as(url).isZero();
                    assertThat(s.stale()).isFalse();
                }
            });
            // At least 1 (LKE) + 1 (kops L4) + 5 (TITAN V) + 2 MIG instances and their parent GPU: one scrape each.
            await().atMost(Duration.ofSeconds(10))
                    .until(() ->
                            metric("lifeline_ingest_events_total", Map.of("type", "gpu.sample")) - samplesBefore >= 9);
        } finally {
            urls.forEach(scraper::remove);
            servers.forEach(FakeExporter::close);
        }
    }

    @Test
    void anXidThatChangesBetweenTwoScrapesIsStoredOnce() {
        String node = unique("xid-node");
        String scrape = Fixtures.text(LKE);
        assertThat(scrape).contains(XID_LINE_END);
        try (FakeExporter server = new FakeExporter().serve(scrape.getBytes(StandardCharsets.UTF_8))) {
            String url = server.url("/metrics");
            scraper.add(new ScrapeTarget(url, node, ScrapeTarget.Origin.STATIC));
            try {
                await().atMost(Duration.ofSeconds(10)).until(() -> status(url).lastSuccess() != null);
                assertThat(stored(node, "gpu.xid")).isEmpty();

                // The same scrape after the GPU fell off the bus: only the XID gauge differs (79, with its message).
                String xid79 = scrape.replace(
                                "err_code=\"0\",err_msg=\"No Error\"",
                                "err_code=\"79\",err_msg=\"GPU has fallen off the bus\"")
                        .replace(XID_LINE_END, "pod_uid=\"\"} 79");
                server.serve(xid79.getBytes(StandardCharsets.UTF_8));
                await().atMost(Duration.ofSeconds(10))
                        .until(() -> stored(node, "gpu.xid").size() == 1);
                long scrapes = status(url).scrapes();
                await().atMost(Duration.ofSeconds(10)).until(() -> status(url).scrapes() >= scrapes + 2);
                List<Map<String, Object>> xids = stored(node, "gpu.xid");
                assertThat(xids).hasSize(1);
                @SuppressWarnings("unchecked")
                Map<String, Object> data = (Map<String, Object>) xids.get(0).get("data");
                assertThat(data)
                        .containsEntry("xid", 79)
                        .containsEntry("uuid", "GPU-a8394b51-c086-568a-9f1a-c1e1c934c44c")
                        .containsEntry("index", 0)
                        .containsEntry("message", "GPU has fallen off the bus");
                assertThat(xids.get(0).get("source")).isEqualTo("dcgm-exporter/" + url);
            } finally {
                scraper.remove(url);
            }
        }
    }

    @Test
    void hangingGarbageAndVanishedEndpointsAreReportedWhileScrapingGoesOn() throws IOException {
        FakeExporter good = new FakeExporter().serve(Fixtures.bytes("dcgm/metrics_kops_aws_L4_no_xid_series.prom"));
        FakeExporter vanishing = new FakeExporter().serve(Fixtures.bytes(LKE));
        String goodUrl = good.url("/metrics");
        String hangUrl = good.url("/hang");
        String garbageUrl = good.url("/garbage");
        String vanishingUrl = vanishing.url("/metrics");
        List<String> urls = List.of(goodUrl, hangUrl, garbageUrl, vanishingUrl);
        try {
            for (String url : urls) {
                scraper.add(new ScrapeTarget(url, unique("faulty-node"), ScrapeTarget.Origin.STATIC));
            }
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> status(vanishingUrl).lastSuccess() != null);
            vanishing.close();

            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                EndpointStatus hang = status(hangUrl);
                assertThat(hang.stale()).isTrue();
                assertThat(hang.lastError()).startsWith("timed out after 800 ms");
                assertThat(hang.lastSuccess()).isNull();
                EndpointStatus garbage = status(garbageUrl);
                assertThat(garbage.stale()).isTrue();
                assertThat(garbage.lastError()).startsWith("unusable scrape: ").contains("no_gpu_series");
                EndpointStatus gone = status(vanishingUrl);
                assertThat(gone.stale()).isTrue();
                assertThat(gone.lastSuccess()).isNotNull();
                assertThat(gone.consecutiveFailures()).isGreaterThanOrEqualTo(2);
            });
            // Meanwhile the healthy endpoint keeps being scraped successfully.
            long scrapes = status(goodUrl).scrapes();
            await().atMost(Duration.ofSeconds(10)).until(() -> status(goodUrl).scrapes() >= scrapes + 3);
            assertThat(status(goodUrl).stale()).isFalse();
            assertThat(status(goodUrl).failures()).isZero();

            api().get("/api/v1/connectors/dcgm/endpoints")
                    .then()
                    .statusCode(200)
                    .body("find { it.url == '" + hangUrl + "' }.stale", equalTo(true))
                    .body("find { it.url == '" + garbageUrl + "' }.consecutiveFailures", greaterThanOrEqualTo(2))
                    .body("find { it.url == '" + goodUrl + "' }.lastSuccess", notNullValue());
        } finally {
            urls.forEach(scraper::remove);
            good.close();
        }
    }

    @Test
    void theConfiguredEndpointIsListedAndMarkedStale() {
        // lifeline.connectors.dcgm.endpoints[0] of the test profile: nothing listens on port 9.
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> api().get("/api/v1/connectors/dcgm/endpoints")
                        .then()
                        .statusCode(200)
                        .body(
                                "find { it.url == 'http://127.0.0.1:9/metrics' }.node",
                                equalTo("configured-unreachable-node"))
                        .body("find { it.url == 'http://127.0.0.1:9/metrics' }.origin", equalTo("static"))
                        .body("find { it.url == 'http://127.0.0.1:9/metrics' }.stale", equalTo(true)));
    }

    @Test
    void pushedScrapesAreTranslatedAndUnusableOnesAreRefused() {
        double received = metric("lifeline_connector_received_total", Map.of("connector", "dcgm"));
        api().contentType("text/plain; version=0.0.4")
                .body(Fixtures.bytes(LKE))
                .post("/api/v1/connectors/dcgm/" + unique("pushed-node"))
                .then()
                .statusCode(200)
                .body("accepted", equalTo(1));
        api().contentType("text/plain; version=0.0.4")
                .body(Fixtures.bytes("dcgm/metrics_issue58_titanv_empty_k8s_labels.prom"))
                .post("/api/v1/connectors/dcgm/" + unique("pushed-node"))
                .then()
                .statusCode(200)
                .body("accepted", equalTo(5));
        api().contentType("text/plain")
                .body("<html>nope</html>".getBytes(StandardCharsets.UTF_8))
                .post("/api/v1/connectors/dcgm/" + unique("pushed-node"))
                .then()
                .statusCode(400)
                .contentType("application/problem+json");
        // Declared OpenMetrics, the body is strictly parsed: a Prometheus text scrape without "# EOF" is refused.
        api().contentType("application/openmetrics-text; version=1.0.0")
                .body(Fixtures.bytes(LKE))
                .post("/api/v1/connectors/dcgm/" + unique("pushed-node"))
                .then()
                .statusCode(400);
        assertThat(metric("lifeline_connector_received_total", Map.of("connector", "dcgm")))
                .isGreaterThanOrEqualTo(received + 4);
    }

    @Test
    void everyPushedFixtureScrapeShowsItsGpusThroughTheReadApi() throws IOException {
        java.util.regex.Pattern uuidLabel = java.util.regex.Pattern.compile("(?:UUID|uuid)=\"(GPU-[^\"]+)\"");
        for (Path fixture : fixtures()) {
            String text = Files.readString(fixture);
            java.util.Set<String> uuids = new java.util.TreeSet<>();
            java.util.regex.Matcher m = uuidLabel.matcher(text);
            while (m.find()) {
                uuids.add(m.group(1));
            }
            String node = unique("read-dcgm");
            api().contentType("text/plain; version=0.0.4")
                    .body(text.getBytes(StandardCharsets.UTF_8))
                    .post("/api/v1/connectors/dcgm/" + node)
                    .then()
                    .statusCode(200);
            String name = fixture.getFileName().toString();
            // One GPU per physical index. A MIG instance is shown as "<parent uuid>/<GPU_I_ID>"; two instances on one
            // GPU share its index, so the read API shows one of them (the model keeps one GPU per index).
            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(api()
                                    .queryParam("node", node)
                                    .get("/api/v1/gpus")
                                    .then()
                                    .statusCode(200)
                                    .extract()
                                    .jsonPath()
                                    .getList("items.uuid", String.class)
                                    .stream()
                                    .map(u -> u.contains("/") ? u.substring(0, u.indexOf('/')) : u)
                                    .toList())
                            .as(name)
                            .containsExactlyInAnyOrderElementsOf(uuids));
            io.restassured.path.json.JsonPath gpus = api().queryParam("node", node)
                    .get("/api/v1/gpus")
                    .then()
                    .extract()
                    .jsonPath();
            assertThat(gpus.getList("items.sampledAt")).as(name).doesNotContainNull();
            assertThat(gpus.getList("items.node", String.class)).as(name).containsOnly(node);
            if (name.contains("mig")) {
                assertThat(gpus.getList("items.uuid", String.class))
                        .as(name)
                        .allMatch(u -> u.matches("GPU-[0-9a-f-]+/[12]"));
            }
            if (name.contains("no_xid_series")) {
                // A series the exporter does not send is no data, not zero.
                assertThat(gpus.getList("items.lastXid")).as(name).containsOnlyNulls();
            }
            if (name.contains("lke_rtx4000ada")) {
                assertThat(gpus.getList("items.lastXid", Integer.class))
                        .as(name)
                        .containsExactly(0);
                assertThat(gpus.getList("items.model", String.class))
                        .as(name)
                        .singleElement()
                        .asString()
                        .contains("RTX 4000");
            }
            if (name.contains("empty_k8s_labels")) {
                // Empty pod labels name no pod.
                assertThat(gpus.getList("items.pod")).as(name).hasSize(5).containsOnlyNulls();
            }
        }
    }
    /** The DCGM fields a dcgm-exporter counters file configures (its first column; '#' lines are comments). */
    private static java.util.Set<String> counters(String fixture) {
        java.util.Set<String> fields = new java.util.TreeSet<>();
        for (String line : Fixtures.text(fixture).lines().toList()) {
            String l = line.strip();
            if (!l.isEmpty() && !l.startsWith("#")) {
                fields.add(l.substring(0, l.indexOf(',')).strip());
            }
        }
        return fields;
    }

    @Test
    void whatTheDefaultCountersConfigureIsWhatTheReadApiShowsAndNothingElse() {
        // The LKE scrape came from an exporter running the default counters: its metric names are those fields.
        java.util.Set<String> scraped = new java.util.TreeSet<>();
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile("(?m)^(DCGM_FI_[A-Z0-9_]+)\\{").matcher(Fixtures.text(LKE));
        while (m.find()) {
            scraped.add(m.group(1));
        }
        for (String config : List.of("dcgm/default-counters.csv", "dcgm/dcp-metrics-included.csv")) {
            java.util.Set<String> fields = counters(config);
            assertThat(fields)
                    .as(config)
                    .containsAll(scraped)
                    .contains(
                            "DCGM_FI_DEV_XID_ERRORS",
                            "DCGM_FI_DEV_GPU_TEMP",
                            "DCGM_FI_DEV_POWER_USAGE",
                            "DCGM_FI_DEV_GPU_UTIL",
                            "DCGM_FI_DEV_FB_USED",
                            "DCGM_FI_DEV_FB_FREE",
                            "DCGM_FI_DEV_ROW_REMAP_FAILURE");
            // Not configured by default: ECC and NVLink error counters, so a default exporter never sends them.
            assertThat(fields)
                    .as(config)
                    .doesNotContain(
                            "DCGM_FI_DEV_ECC_SBE_VOL_TOTAL",
                            "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL",
                            "DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL",
                            "DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_COUNT_TOTAL");
        }
        String node = unique("default-counters");
        api().contentType("text/plain; version=0.0.4")
                .body(Fixtures.bytes(LKE))
                .post("/api/v1/connectors/dcgm/" + node)
                .then()
                .statusCode(200);
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> api().queryParam("node", node)
                        .get("/api/v1/gpus")
                        .then()
                        .statusCode(200)
                        .body("items.size()", equalTo(1)));
        io.restassured.path.json.JsonPath gpu = api().queryParam("node", node)
                .get("/api/v1/gpus")
                .then()
                .extract()
                .jsonPath();
        // What the default counters give is shown ...
        for (String field : List.of(
                "temperatureCelsius",
                "powerWatts",
                "utilizationPercent",
                "memoryUsedMiB",
                "memoryFreeMiB",
                "lastXid",
                "rowRemapFailures")) {
            assertThat(gpu.getList("items." + field)).as(field).doesNotContainNull();
        }
        // ... and what they leave out is no data, never a zero.
        for (String field : List.of("eccSbeVolatile", "eccDbeVolatile", "nvlinkErrors")) {
            assertThat(gpu.getList("items." + field)).as(field).containsOnlyNulls();
        }
    }
}
