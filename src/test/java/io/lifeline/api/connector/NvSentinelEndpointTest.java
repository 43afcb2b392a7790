package io.lifeline.api.connector;

import static io.lifeline.testing.LifelineApi.metric;
import static io.lifeline.testing.LifelineApi.stored;
import static io.lifeline.testing.LifelineApi.unique;
import static io.lifeline.testing.TestTokens.api;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import io.lifeline.config.NvSentinelConfig;
import io.lifeline.connector.inbound.dcgm.DcgmScrapeTranslator;
import io.lifeline.connector.inbound.pipeline.ConnectorIngest;
import io.lifeline.connector.inbound.pipeline.ConnectorMetrics;
import io.lifeline.security.CurrentCaller;
import io.lifeline.testing.CloudEvents;
import io.lifeline.testing.Fixtures;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import jakarta.ws.rs.NotFoundException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /api/v1/connectors/nvsentinel} as NVSentinel's event exporter calls it: its CloudEvent (fixture
 * nvsentinel/, node renamed per test), then the effect read back through the API: the stored XIDs and notice, the
 * node's notice, and the fatal-XID and notice policies' decisions (turned to dry-run for this test's pool only).
 */
@QuarkusTest
class NvSentinelEndpointTest {

    private static final String PATH = "/api/v1/connectors/nvsentinel";
    private static final String CLOUDEVENTS = "application/cloudevents+json";
    private static final List<String> POLICIES = List.of("fatal-xid-drain", "notice-checkpoint-drain");

    @Inject
    DcgmScrapeTranslator dcgm;

    @Inject
    ConnectorIngest ingest;

    @Inject
    ConnectorMetrics metrics;

    @Inject
    Clock clock;

    @Inject
    CurrentCaller caller;

    private final String pool = unique("nvs-pool");
    private Map<String, JsonPath> before;

    @BeforeEach
    void dryRunPoliciesInThisPool() {
        before = new java.util.HashMap<>();
        for (String p : POLICIES) {
            JsonPath now = given(TestTokens.asAdmin())
                    .get("/api/v1/policies/" + p)
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
            before.put(p, now);
            Map<String, Object> overrides = new java.util.HashMap<>(now.getMap("overrides"));
            overrides.put("pool:" + pool, "dry-run");
            putPolicy(p, now.getString("mode"), overrides);
        }
    }

    @AfterEach
    void restorePolicies() {
        before.forEach((p, was) -> putPolicy(p, was.getString("mode"), was.getMap("overrides")));
    }

    private static void putPolicy(String policy, String mode, Map<String, ?> overrides) {
        given(TestTokens.asAdmin())
                .contentType(ContentType.JSON)
                .body(Map.of("mode", mode, "overrides", overrides))
                .put("/api/v1/policies/" + policy)
                .then()
                .statusCode(200);
    }

    /** Registered before the fixtures' own times: an event older than a node's registration belongs to a previous life. */
    private void register(String node) {
        String data = "{\"pool\":\"" + pool + "\",\"capacityType\":\"on-demand\",\"gpuCount\":8}";
        api().contentType(CLOUDEVENTS)
                .body(CloudEvents.event(
                        CloudEvents.uniqueId(), "test/registrar", "node.registered", node, Instant.EPOCH, data))
                .post("/api/v1/events")
                .then()
                .statusCode(200);
    }

    /** dcgm-exporter's view of the node: GPU 0 at the CloudEvent's PCI address (0000:17:00.0). */
    private static void scrape(String node) {
        String body = "# TYPE DCGM_FI_DEV_GPU_TEMP gauge\nDCGM_FI_DEV_GPU_TEMP{gpu=\"0\",UUID=\"GPU-" + node
                + "\",pci_bus_id=\"00000000:17:00.0\",Hostname=\"" + node + "\"} 40\n";
        api().contentType("text/plain; version=0.0.4")
                .body(body)
                .post("/api/v1/connectors/dcgm/" + node)
                .then()
                .statusCode(200);
    }

    private static String exporterEvent(String node, boolean drainSkip) {
        String ce = Fixtures.text("nvsentinel/exporter_cloudevent_restart_vm_xid79.json")
                .replace("gpu-node-42", node);
        return drainSkip
                ? ce
                : ce.replace(
                        "\"drainOverrides\": {\"force\": false, \"skip\": true}",
                        "\"drainOverrides\": {\"force\": false, \"skip\": false}");
    }

    private static List<Map<String, Object>> policyActions(String node, String policy) {
        return api()
                .queryParam("target", node)
                .get("/api/v1/actions")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .<Map<String, Object>>getList("items")
                .stream()
                .filter(a -> ("policy:" + policy).equals(a.get("requestedBy")))
                .toList();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> data(Map<String, Object> event) {
        return (Map<String, Object>) event.get("data");
    }

    @Test
    void theExportersCloudEventPutsItsXidsOnTheScrapedGpuAndTheFatalXidPolicyReacts() {
        String node = unique("nvs-xid");
        register(node);
        scrape(node);
        JsonPath receipt = api().contentType(CLOUDEVENTS)
                .body(exporterEvent(node, true))
                .post(PATH)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(receipt.getInt("accepted")).isEqualTo(2);
        assertThat(receipt.getInt("rejected")).isZero();

        await().atMost(Duration.ofSeconds(10))
                .until(() -> stored(node, "gpu.xid").size() == 2);
        List<Map<String, Object>> xids = stored(node, "gpu.xid");
        assertThat(xids).extracting(e -> data(e).get("xid")).containsExactlyInAnyOrder(48, 79);
        assertThat(xids).allSatisfy(e -> {
            assertThat(data(e)).containsEntry("uuid", "GPU-" + node).containsEntry("index", 0);
            assertThat(e.get("source")).isEqualTo("nvsentinel/gpu-health-monitor");
            assertThat(e.get("time")).isEqualTo("2025-01-15T10:30:00Z");
        });
        // drainOverrides.skip: no notice, but the XIDs are Lifeline's own to judge
        assertThat(stored(node, "node.interruption_notice")).isEmpty();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> !policyActions(node, "fatal-xid-drain").isEmpty());
        assertThat(policyActions(node, "fatal-xid-drain").get(0)).containsEntry("kind", "drain");

        // The exporter redelivers after a restart with a fresh CloudEvent id: the same two events.
        String redelivered =
                exporterEvent(node, true).replace("4f7c2a5e-3b1d-4c8e-9a6f-2d0b8e1c7a93", CloudEvents.uniqueId());
        JsonPath again = api().contentType(CLOUDEVENTS)
                .body(redelivered)
                .post(PATH)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(again.getInt("accepted")).isZero();
        assertThat(again.getInt("duplicates")).isEqualTo(2);
    }

    @Test
    void aNodeEmptyingRecommendedActionIsAMaintenanceNoticeThatTheNoticePolicyDrains() {
        String node = unique("nvs-notice");
        register(node);
        scrape(node);
        api().contentType(CLOUDEVENTS)
                .body(exporterEvent(node, false))
                .post(PATH)
                .then()
                .statusCode(200)
                .body("accepted", equalTo(3));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            JsonPath detail = api().get("/api/v1/nodes/" + node)
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
            assertThat(detail.getString("notice.kind")).isEqualToIgnoringCase("maintenance");
            assertThat(detail.getString("notice.provider")).isEqualTo("nvsentinel");
            assertThat(detail.getBoolean("noticeActive")).isTrue();
        });
        assertThat(stored(node, "node.interruption_notice"))
                .singleElement()
                .satisfies(e -> assertThat(data(e))
                        .containsEntry("kind", "maintenance")
                        .containsEntry("provider", "nvsentinel"));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> !policyActions(node, "notice-checkpoint-drain").isEmpty());
    }

    @Test
    void anArrayKeepsItsGoodMembersAndReportsEachBadOneWithItsIndexAndReason() {
        String node = unique("nvs-array");
        register(node);
        String recovery = Fixtures.text("nvsentinel/health_event_xid48_data_flow_doc.json")
                .replace("gpu-node-42", node)
                .replace("\"isHealthy\": false", "\"isHealthy\": true");
        String bareDocEvent = Fixtures.text("nvsentinel/health_event_xid48_data_flow_doc.json")
                .replace("gpu-node-42", node);
        String body = "[" + bareDocEvent + ", 42, {\"data\":{\"healthEvent\":{\"nodeName\":\"bad node!\"}}}, "
                + recovery + ", " + exporterEvent(node, true) + "]";
        double rejectedBefore = metric(
                "lifeline_connector_rejected_total", Map.of("connector", "nvsentinel", "reason", "invalid_node_name"));
        JsonPath receipt = api().contentType(ContentType.JSON)
                .body(body)
                .post(PATH)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        // the docs' event: its XID 48 (UUID and index named) and REPLACE_VM's notice
        assertThat(receipt.getInt("accepted")).isEqualTo(2);
        assertThat(receipt.getList("errors.index", Integer.class)).containsExactly(1, 2, 4);
        assertThat(receipt.getList("errors.reason", String.class))
                .containsExactly("not_a_health_event", "invalid_node_name", "unknown_gpu");
        assertThat(metric(
                        "lifeline_connector_rejected_total",
                        Map.of("connector", "nvsentinel", "reason", "invalid_node_name")))
                .isEqualTo(rejectedBefore + 1);
        assertThat(stored(node, "node.interruption_notice")).hasSize(1);

        api().contentType(ContentType.JSON)
                .body("[42, \"x\"]")
                .post(PATH)
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("type", equalTo("/problems/unusable-connector-input"))
                .body("errors.index", org.hamcrest.Matchers.contains(0, 1));
        api().contentType(CLOUDEVENTS)
                .body("{\"specversion\": \"1.0\", ")
                .post(PATH)
                .then()
                .statusCode(400)
                .body("errors[0].reason", equalTo("malformed_json"));
    }

    @Test
    void onlyTokensThatMaySendNodeEventsGetIn() {
        String body = exporterEvent(unique("nvs-auth"), true);
        given().contentType(CLOUDEVENTS).body(body).post(PATH).then().statusCode(401);
        given().spec(TestTokens.asViewer())
                .contentType(CLOUDEVENTS)
                .body(body)
                .post(PATH)
                .then()
                .statusCode(403);
        // Not scraped, so its XIDs have no GPU: a 400 that says so, past the authorization check.
        given().spec(TestTokens.asIngest())
                .contentType(CLOUDEVENTS)
                .body(body)
                .post(PATH)
                .then()
                .statusCode(400)
                .body("errors[0].reason", equalTo("unknown_gpu"));
        given().spec(TestTokens.asOperator())
                .contentType(CLOUDEVENTS)
                .body(body)
                .post(PATH)
                .then()
                .statusCode(400);
    }

    @Test
    void switchedOffInTheConfigurationItRefusesLikeEveryConnector() {
        NvSentinelConfig off = () -> false;
        NvSentinelResource resource = new NvSentinelResource(dcgm, ingest, metrics, off, clock, caller);
        byte[] body = exporterEvent(unique("nvs-off"), true).getBytes(StandardCharsets.UTF_8);
        // NotFoundException: the 404 problem every switched-off connector answers (Answers.requireEnabled)
        assertThatThrownBy(() -> resource.healthEvents(body))
                .isInstanceOf(NotFoundException.class)
                .hasMessageContaining("NVSentinel connector is switched off");
    }
}
