package io.lifeline.api.connector;

import static io.lifeline.testing.LifelineApi.metric;
import static io.lifeline.testing.LifelineApi.registerNode;
import static io.lifeline.testing.LifelineApi.stored;
import static io.lifeline.testing.LifelineApi.unique;
import static io.lifeline.testing.TestTokens.api;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import io.lifeline.connector.inbound.pipeline.ConnectorNodeResolver;
import io.lifeline.testing.CloudEvents;
import io.lifeline.testing.Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every cloud notice fixture posted to its endpoint, for a node the notice's machine is registered as; the
 * outcome is read back from the event log.
 */
@QuarkusTest
class CloudNoticesEndpointTest {

    private static final String NTH_INSTANCE = "i-0b662ef9931388ba0";

    @Inject
    ConnectorNodeResolver resolver;

    private final Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);

    /** The node as the read API shows it, once its notice is of {@code kind}. */
    private static JsonPath nodeWithNotice(String node, String kind) {
        JsonPath[] seen = new JsonPath[1];
        org.awaitility.Awaitility.await()
                .atMost(java.time.Duration.ofSeconds(60))
                .untilAsserted(() -> {
                    seen[0] = api().get("/api/v1/nodes/" + node)
                            .then()
                            .statusCode(200)
                            .extract()
                            .jsonPath();
                    assertThat(wire(seen[0].getString("notice.kind"))).isEqualTo(kind);
                });
        return seen[0];
    }

    /** An enum as the read API writes it, in the catalogue's wire form ({@code spot_reclaim}). */
    private static String wire(String value) {
        return value == null ? null : value.toLowerCase(java.util.Locale.ROOT).replace('-', '_');
    }

    private static void assertActiveNotice(String node, JsonPath detail, String provider) {
        assertThat(detail.getBoolean("noticeActive")).isTrue();
        assertThat(wire(detail.getString("state"))).isEqualTo("notice_received");
        assertThat(detail.getString("notice.provider")).isEqualTo(provider);
        assertThat(api().get("/api/v1/fleet/notices")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("node", String.class))
                .contains(node);
    }

    /**
     * A notice whose deadline had passed when it came (the fixtures are samples of years ago): the node keeps it as
     * history and shows it expired, and is not at risk.
     */
    private static void assertExpiredNotice(String node, JsonPath detail, String provider) {
        assertThat(detail.getBoolean("notice.expired")).isTrue();
        assertThat(detail.getBoolean("noticeActive")).isFalse();
        assertThat(detail.getBoolean("noticeExpired")).isTrue();
        assertThat(wire(detail.getString("state"))).isEqualTo("notice_received");
        assertThat(detail.getString("notice.provider")).isEqualTo(provider);
        assertThat(api().get("/api/v1/fleet/notices")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("node", String.class))
                .doesNotContain(node);
    }

    private static JsonPath post(String path, String contentType, byte[] body, int status) {
        return api().contentType(contentType)
                .body(body)
                .post(path)
                .then()
                .statusCode(status)
                .extract()
                .jsonPath();
    }

    private static Map<String, Object> data(Map<String, Object> event) {
        @SuppressWarnings("unchecked")
        Map<String, Object> d = (Map<String, Object>) event.get("data");
        return d;
    }

    @Test
    void eventBridgeSpotWarningAndRebalanceFixturesBecomeNoticesOfTheRegisteredNode() {
        String node = unique("aws-eb");
        // Registered before the fixtures' own times (the spot warning is dated 1970-01-01T00:00:00Z): the model orders
        // a node's events by event time, and a notice older than the node's registration belongs to a previous life.
        registerNode(node, "aws:///us-east-1b/" + NTH_INSTANCE, Instant.EPOCH);

        JsonPath spot = post(
                "/api/v1/connectors/aws/eventbridge",
                "application/json",
                Fixtures.bytes("cloud/aws/nth_example_spot-itn-event.json"),
                200);
        assertThat(spot.getInt("accepted")).isEqualTo(1);
        // Its deadline (1970-01-01T00:02:00Z) has long passed: taken, kept as history, not applied as pending.
        assertThat(spot.getInt("applied")).isZero();
        assertThat(spot.getList("notApplied.reason")).containsExactly("expired");
        assertThat(spot.getList("notApplied.index")).containsExactly(0);
        JsonPath afterSpot = nodeWithNotice(node, "spot_reclaim");
        assertThat(afterSpot.getString("notice.deadline")).isEqualTo("1970-01-01T00:02:00Z");
        assertExpiredNotice(node, afterSpot, "aws");
        JsonPath rebalance = post(
                "/api/v1/connectors/aws/eventbridge",
                "application/json",
                Fixtures.bytes("cloud/aws/nth_example_rebalance-recommendation-event.json"),
                200);
        assertThat(rebalance.getInt("accepted")).isEqualTo(1);
        assertThat(rebalance.getInt("applied"))
                .as("a rebalance recommendation has no deadline")
                .isEqualTo(1);
        assertThat(rebalance.getList("notApplied")).isNull();
        // The rebalance recommendation (2020-10-26) is the newer notice: the node shows it from then on.
        JsonPath afterRebalance = nodeWithNotice(node, "rebalance");
        assertThat(afterRebalance.getString("notice.receivedAt")).isEqualTo("2020-10-26T14:14:14Z");
        assertActiveNotice(node, afterRebalance, "aws");

        List<Map<String, Object>> notices = stored(node, "node.interruption_notice");
        assertThat(notices).hasSize(2);
        assertThat(notices).extracting(e -> data(e).get("kind")).containsExactlyInAnyOrder("spot_reclaim", "rebalance");
        Map<String, Object> reclaim = notices.stream()
                .filter(e -> "spot_reclaim".equals(data(e).get("kind")))
                .findFirst()
                .orElseThrow();
        assertThat(data(reclaim)).containsEntry("provider", "aws").containsEntry("deadline", "1970-01-01T00:02:00Z");
        assertThat(reclaim.get("source")).isEqualTo("cloud/aws");

        // The same two events again, as one array: both are duplicates.
        String array = "[" + Fixtures.text("cloud/aws/nth_example_spot-itn-event.json") + ","
                + Fixtures.text("cloud/aws/nth_example_rebalance-recommendation-event.json") + "]";
        JsonPath again = post(
                "/api/v1/connectors/aws/eventbridge", "application/json", array.getBytes(StandardCharsets.UTF_8), 200);
        assertThat(again.getInt("accepted")).isZero();
        assertThat(again.getInt("duplicates")).isEqualTo(2);
    }

    @Test
    void imdsDocumentsPostedByANodeAgentBecomeNotices() {
        String instance = unique("i-imds");
        String node = unique("aws-imds");
        // Registered before the rebalance document's noticeTime (2020-10-16), which is that notice's event time.
        registerNode(node, "aws:///us-east-1a/" + instance, Instant.EPOCH);

        post(
                "/api/v1/connectors/aws/imds/" + instance + "/rebalance",
                "application/json",
                Fixtures.bytes("cloud/aws/imds_events_recommendations_rebalance.json"),
                200);
        JsonPath afterRebalance = nodeWithNotice(node, "rebalance");
        assertThat(afterRebalance.getString("notice.receivedAt")).isEqualTo("2020-10-16T19:18:24Z");
        assertActiveNotice(node, afterRebalance, "aws");
        // The spot instance-action document carries no time of its own: it is dated when the agent read it (now),
        // after the rebalance, so the node shows the reclaim with the document's deadline.
        JsonPath spot = post(
                "/api/v1/connectors/aws/imds/" + instance + "/spot/instance-action",
                "application/json",
                Fixtures.bytes("cloud/aws/imds_spot_instance_action.json"),
                200);
        assertThat(spot.getList("notApplied.reason")).containsExactly("expired");
        JsonPath afterSpot = nodeWithNotice(node, "spot_reclaim");
        assertThat(afterSpot.getString("notice.deadline")).isEqualTo("2020-04-24T17:11:44Z");
        assertExpiredNotice(node, afterSpot, "aws");

        List<Map<String, Object>> notices = stored(node, "node.interruption_notice");
        assertThat(notices).extracting(e -> data(e).get("kind")).containsExactlyInAnyOrder("spot_reclaim", "rebalance");
        Map<String, Object> reclaim = notices.stream()
                .filter(e -> "spot_reclaim".equals(data(e).get("kind")))
                .findFirst()
                .orElseThrow();
        assertThat(data(reclaim)).containsEntry("deadline", "2020-04-24T17:11:44Z");
        Map<String, Object> rebalance = notices.stream()
                .filter(e -> "rebalance".equals(data(e).get("kind")))
                .findFirst()
                .orElseThrow();
        assertThat(rebalance.get("time")).isEqualTo("2020-10-16T19:18:24Z");

        api().contentType("application/json")
                .body(Fixtures.bytes("cloud/aws/imds_spot_instance_action.json"))
                .post("/api/v1/connectors/aws/imds/" + instance + "/meta-data/placement")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("errors[0].reason", equalTo("unknown_imds_document"));
    }

    @Test
    void azureScheduledEventsPreemptIsASpotReclaimOfTheVmsNode() {
        String node = unique("azure");
        registerNode(
                node,
                "azure:///subscriptions/0000/resourceGroups/rg-spot/providers/Microsoft.Compute/"
                        + "virtualMachines/vm-spot",
                now);
        JsonPath r = post(
                "/api/v1/connectors/azure/scheduled-events",
                "application/json",
                Fixtures.bytes("cloud/azure/scheduled_events_preempt_simulate_eviction.json"),
                200);
        assertThat(r.getInt("accepted") + r.getInt("duplicates")).isEqualTo(1);

        List<Map<String, Object>> notices = stored(node, "node.interruption_notice");
        assertThat(notices).hasSize(1);
        assertThat(data(notices.get(0)))
                .containsEntry("kind", "spot_reclaim")
                .containsEntry("provider", "azure")
                .containsEntry("deadline", "2022-08-09T17:07:32Z");
        assertThat(notices.get(0).get("id"))
                .isEqualTo("azure/vm-spot/spot_reclaim/C1BF8322-4CBF-4FC4-9C45-B40CF3106D0E");
        JsonPath detail = nodeWithNotice(node, "spot_reclaim");
        assertThat(detail.getString("notice.deadline")).isEqualTo("2022-08-09T17:07:32Z");
        assertExpiredNotice(node, detail, "azure");

        // A poller reading the same document again adds nothing.
        JsonPath again = post(
                "/api/v1/connectors/azure/scheduled-events",
                "application/json",
                Fixtures.bytes("cloud/azure/scheduled_events_preempt_simulate_eviction.json"),
                200);
        assertThat(again.getInt("duplicates")).isEqualTo(1);
    }

    @Test
    void gcpMetadataValuesFromTheAgentAndAConfiguredMachine() {
        String instance = unique("gce");
        String node = unique("gcp");
        registerNode(node, "gce://lifeline-test/us-central1-a/" + instance, now);

        post(
                "/api/v1/connectors/gcp/" + instance + "/preempted",
                "text/plain",
                "FALSE".getBytes(StandardCharsets.UTF_8),
                200);
        assertThat(stored(node, "node.interruption_notice")).isEmpty();
        post(
                "/api/v1/connectors/gcp/" + instance + "/preempted",
                "text/plain",
                "TRUE".getBytes(StandardCharsets.UTF_8),
                200);
        post(
                "/api/v1/connectors/gcp/" + instance + "/maintenance-event",
                "text/plain",
                "TERMINATE_ON_HOST_MAINTENANCE".getBytes(StandardCharsets.UTF_8),
                200);
        List<Map<String, Object>> notices = stored(node, "node.interruption_notice");
        assertThat(notices).extracting(e -> data(e).get("kind")).containsExactlyInAnyOrder("preempt", "maintenance");

        api().contentType("text/plain")
                .body("MAYBE")
                .post("/api/v1/connectors/gcp/" + instance + "/preempted")
                .then()
                .statusCode(400)
                .body("errors[0].reason", equalTo("unsupported_value"));

        // lifeline.connectors.cloud.nodes."gce-configured-instance"=configured-gcp-node (test profile)
        int before = stored("configured-gcp-node", "node.interruption_notice").size();
        post(
                "/api/v1/connectors/gcp/gce-configured-instance/preempted",
                "text/plain",
                "\"TRUE\"".getBytes(StandardCharsets.UTF_8),
                200);
        assertThat(stored("configured-gcp-node", "node.interruption_notice").size())
                .isGreaterThan(before);
    }

    @Test
    void aNoticeForAnUnknownMachineOrAMalformedBodyIsAProblemWithItsReasonAndIsCounted() {
        double unknownBefore =
                metric("lifeline_connector_rejected_total", Map.of("connector", "aws", "reason", "unknown_instance"));
        double receivedBefore = metric("lifeline_connector_received_total", Map.of("connector", "aws"));
        double translatedBefore = metric("lifeline_connector_translated_total", Map.of("connector", "aws"));
        api().contentType("application/json")
                .body(Fixtures.bytes("cloud/aws/imds_spot_instance_action.json"))
                .post("/api/v1/connectors/aws/imds/" + unique("i-nobody") + "/spot/instance-action")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("type", equalTo("/problems/unusable-connector-input"))
                .body("errors[0].reason", equalTo("unknown_instance"))
                .body("errors[0].index", equalTo(0));
        api().contentType("application/json")
                .body("not json at all")
                .post("/api/v1/connectors/aws/eventbridge")
                .then()
                .statusCode(400)
                .body("errors[0].reason", equalTo("malformed_json"));
        assertThat(metric(
                        "lifeline_connector_rejected_total", Map.of("connector", "aws", "reason", "unknown_instance")))
                .isEqualTo(unknownBefore + 1);
        assertThat(metric("lifeline_connector_received_total", Map.of("connector", "aws")))
                .isEqualTo(receivedBefore + 2);
        assertThat(metric("lifeline_connector_translated_total", Map.of("connector", "aws")))
                .isEqualTo(translatedBefore);
    }

    @Test
    void storedRegistrationsAreLearnedAgainAfterARestartButNotTerminatedNodes() throws Exception {
        String instance = unique("i-kept");
        String node = unique("aws-kept");
        registerNode(node, "aws:///us-east-1a/" + instance, now);
        String goneInstance = unique("i-gone");
        String gone = unique("aws-gone");
        registerNode(gone, "aws:///us-east-1a/" + goneInstance, now);
        api().contentType("application/cloudevents+json")
                .body(CloudEvents.event(
                        CloudEvents.uniqueId(), "test/registrar", "node.terminated", gone, now.plusSeconds(1), "{}"))
                .post("/api/v1/events")
                .then()
                .statusCode(200);
        resolver.forget(node);
        resolver.forget(gone);
        assertThat(resolver.nodeFor(instance)).isNull();

        assertThat(resolver.loadStoredRegistrations()).isPositive();
        assertThat(resolver.nodeFor(instance)).isEqualTo(node);
        assertThat(resolver.nodeFor("arn:aws:ec2:us-east-1a:instance/" + instance))
                .isEqualTo(node);
        assertThat(resolver.nodeFor(goneInstance)).isNull();
    }

    @Test
    void aTerminatedNodeIsForgotten() {
        String instance = unique("i-gone");
        String node = unique("aws-gone");
        registerNode(node, "aws:///us-east-1a/" + instance, now);
        nodeEvent(node, "node.terminated", now.plusSeconds(1), "{\"reason\":\"scaled in\"}");
        org.awaitility.Awaitility.await()
                .atMost(java.time.Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(resolver.nodeFor(instance)).isNull());
        api().contentType("application/json")
                .body(Fixtures.bytes("cloud/aws/imds_spot_instance_action.json"))
                .post("/api/v1/connectors/aws/imds/" + instance + "/spot/instance-action")
                .then()
                .statusCode(400)
                .body("detail", startsWith("unknown_instance"));
    }

    @Test
    void aLateTerminationChangesNeitherTheNodeNorItsInstanceMapping() {
        String instance = unique("i-late");
        String node = unique("aws-late");
        registerNode(node, "aws:///us-east-1a/" + instance, now.minusSeconds(60));
        nodeEvent(node, "node.ready", now.minusSeconds(10), "{}");
        // Delivered late: older than the node's Ready, so the model keeps the node Ready.
        nodeEvent(node, "node.terminated", now.minusSeconds(30), "{\"reason\":\"replayed late\"}");
        org.awaitility.Awaitility.await()
                .atMost(java.time.Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(api().get("/api/v1/nodes/" + node)
                                .then()
                                .statusCode(200)
                                .extract()
                                .jsonPath()
                                .getString("state"))
                        .isEqualToIgnoringCase("ready"));
        assertThat(resolver.nodeFor(instance)).isEqualTo(node);

        // A current notice for the same instance still finds the node (the fixture's deadline has passed: expired).
        post(
                "/api/v1/connectors/aws/imds/" + instance + "/spot/instance-action",
                "application/json",
                Fixtures.bytes("cloud/aws/imds_spot_instance_action.json"),
                200);
        assertExpiredNotice(node, nodeWithNotice(node, "spot_reclaim"), "aws");

        // A current termination ends the node and then the mapping.
        nodeEvent(node, "node.terminated", Instant.now(), "{\"reason\":\"reclaimed\"}");
        org.awaitility.Awaitility.await()
                .atMost(java.time.Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(resolver.nodeFor(instance)).isNull());
        assertThat(api().get("/api/v1/nodes/" + node)
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getString("state"))
                .isEqualToIgnoringCase("terminated");
    }

    private static void nodeEvent(String node, String type, Instant time, String data) {
        api().contentType("application/cloudevents+json")
                .body(CloudEvents.event(CloudEvents.uniqueId(), "test/registrar", type, node, time, data))
                .post("/api/v1/events")
                .then()
                .statusCode(200);
    }
}
