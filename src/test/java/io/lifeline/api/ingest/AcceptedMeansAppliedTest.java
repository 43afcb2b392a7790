package io.lifeline.api.ingest;

import static io.lifeline.testing.TestTokens.asOperator;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lifeline.testing.CloudEvents;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The event API's answer says, per event, whether the model applied it and why not; an event it did not apply moves
 * no policy; a notice past its deadline is shown expired and is not at risk.
 */
@QuarkusTest
class AcceptedMeansAppliedTest {

    private static final String NOTICE_POLICY = "notice-checkpoint-drain";

    private final Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    private final String pool = "applied-" + CloudEvents.uniqueId().substring(0, 8);
    private JsonPath policyBefore;

    /** The notice policy records dry runs for this test's pool only, so that a decision shows in the actions. */
    @BeforeEach
    void dryRunTheNoticePolicyInThisPool() {
        policyBefore = given(TestTokens.asAdmin())
                .get("/api/v1/policies/" + NOTICE_POLICY)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        Map<String, Object> overrides = new HashMap<>(policyBefore.getMap("overrides"));
        overrides.put("pool:" + pool, "dry-run");
        putPolicy(policyBefore.getString("mode"), overrides);
    }

    @AfterEach
    void restorePolicy() {
        putPolicy(policyBefore.getString("mode"), policyBefore.getMap("overrides"));
    }

    private static void putPolicy(String mode, Map<String, ?> overrides) {
        given(TestTokens.asAdmin())
                .contentType(ContentType.JSON)
                .body(Map.of("mode", mode, "overrides", overrides))
                .put("/api/v1/policies/" + NOTICE_POLICY)
                .then()
                .statusCode(200);
    }

    private String node(String name) {
        return name + "-" + CloudEvents.uniqueId().substring(0, 8);
    }

    private String registered(String node, Instant at) {
        return CloudEvents.event(
                CloudEvents.uniqueId(),
                "test/k8s",
                "node.registered",
                node,
                at,
                "{\"pool\":\"" + pool + "\",\"capacityType\":\"spot\",\"gpuCount\":8}");
    }

    private static String notice(String id, String node, Instant at, Instant deadline) {
        return CloudEvents.event(
                id,
                "cloud/aws",
                "node.interruption_notice",
                node,
                at,
                "{\"kind\":\"spot_reclaim\",\"provider\":\"aws\",\"deadline\":\"" + deadline + "\"}");
    }

    private static List<Map<String, Object>> noticeDecisions(String node) {
        return given(asOperator())
                .queryParam("target", node)
                .get("/api/v1/actions")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .<Map<String, Object>>getList("items")
                .stream()
                .filter(a -> ("policy:" + NOTICE_POLICY).equals(a.get("requestedBy")))
                .toList();
    }

    @Test
    void theAnswerListsEveryAcceptedEventTheModelDidNotApplyWithItsReasonAndOnlyAppliedOnesMoveThePolicy() {
        String stale = node("stale");
        String late = node("late");
        String timely = node("timely");
        List<String> batch = List.of(
                registered(stale, now.minusSeconds(60)),
                registered(late, now.minusSeconds(3600)),
                registered(timely, now.minusSeconds(60)),
                // Older than its node's registration: the node does not know it.
                notice("stale-notice-" + stale, stale, now.minusSeconds(120), now.plusSeconds(120)),
                // Its deadline passed before it came.
                notice("late-notice-" + late, late, now.minusSeconds(600), now.minusSeconds(480)),
                notice("timely-notice-" + timely, timely, now, now.plusSeconds(120)));

        JsonPath r = given(asOperator())
                .contentType("application/cloudevents-batch+json")
                .body(CloudEvents.array(batch))
                .post("/api/v1/events")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();

        // The policy's decisions are submitted one at a time in the order their notices were applied (the stale one
        // first): once the timely notice's dry run is recorded, a decision of the stale one would be recorded too.
        await().atMost(Duration.ofSeconds(30))
                .until(() -> !noticeDecisions(timely).isEmpty());
        assertThat(noticeDecisions(stale)).as("a stale notice moves no policy").isEmpty();
        assertThat(noticeDecisions(late))
                .as("an expired notice moves no policy")
                .isEmpty();

        JsonPath lateNode = given(asOperator())
                .get("/api/v1/nodes/" + late)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(lateNode.getBoolean("notice.expired")).isTrue();
        assertThat(lateNode.getBoolean("noticeActive")).isFalse();
        assertThat(lateNode.getBoolean("noticeExpired")).isTrue();
        assertThat(given(asOperator())
                        .get("/api/v1/nodes/" + stale)
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getMap("notice"))
                .as("the stale notice left the node as it was")
                .isNull();
        List<String> atRisk = given(asOperator())
                .get("/api/v1/fleet/notices")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("node");
        assertThat(atRisk).contains(timely).doesNotContain(stale, late);

        assertThat(r.getInt("accepted")).isEqualTo(6);
        assertThat(r.getInt("applied")).isEqualTo(4);
        assertThat(r.getList("notApplied.index")).containsExactly(3, 4);
        assertThat(r.getList("notApplied.id")).containsExactly("stale-notice-" + stale, "late-notice-" + late);
        assertThat(r.getList("notApplied.reason")).containsExactly("stale", "expired");
        assertThat(r.getString("notApplied[0].detail")).contains("older than the node's registration");
        assertThat(r.getString("notApplied[1].detail")).contains("had passed");
        assertThat(r.getList("errors")).isNull();
    }

    @Test
    void ndjsonNamesTheNotAppliedEventByItsLine() {
        String node = node("nd");
        String body = registered(node, now.minusSeconds(60)) + "\n\n"
                + CloudEvents.event(CloudEvents.uniqueId(), "test/k8s", "node.ready", node, now.minusSeconds(120), "{}")
                + "\n";

        JsonPath r = given(asOperator())
                .contentType("application/x-ndjson")
                .body(body.getBytes(StandardCharsets.UTF_8))
                .post("/api/v1/events")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();

        assertThat(r.getInt("accepted")).isEqualTo(2);
        assertThat(r.getInt("applied")).isEqualTo(1);
        assertThat(r.getList("notApplied.index")).containsExactly(1);
        assertThat(r.getList("notApplied.reason")).containsExactly("stale");
    }

    /**
     * The README's own "Sending events" example, taken from the README: a node's registration, then a spot notice whose
     * deadline is long past. The notice is taken (and kept as the node's history) but not applied as a pending notice,
     * and the node is not at risk. Its ids and node are made unique, so that another test sending the same example is
     * not a duplicate of this one.
     */
    @Test
    void theReadmesSendingEventsExampleIsAnsweredExpiredAndItsNodeIsNotAtRisk() throws IOException {
        String readme = Files.readString(Path.of("README.md"), StandardCharsets.UTF_8);
        String section = readme.substring(readme.indexOf("## Sending events"));
        Matcher curl = Pattern.compile("-H '(Content-Type: [^']+)' \\\\\\R\\s*-d '(\\[.*?\\])'", Pattern.DOTALL)
                .matcher(section);
        assertThat(curl.find()).as("the README's Sending events curl line").isTrue();
        String contentType = curl.group(1).substring("Content-Type: ".length());
        String node = node("n17");
        String event = curl.group(2)
                .replace("\"n17-notice-1\"", "\"" + CloudEvents.uniqueId() + "\"")
                .replace("\"n17-registered-1\"", "\"" + CloudEvents.uniqueId() + "\"")
                .replace("\"subject\":\"n17\"", "\"subject\":\"" + node + "\"");
        assertThat(event).contains("\"subject\":\"" + node + "\"");

        JsonPath r = given(asOperator())
                .contentType(contentType)
                .body(event)
                .post("/api/v1/events")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();

        JsonPath n = given(asOperator())
                .get("/api/v1/nodes/" + node)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(n.getString("notice.kind")).isEqualTo("spot-reclaim");
        assertThat(n.getBoolean("noticeActive")).as("not at risk").isFalse();
        assertThat(given(asOperator())
                        .get("/api/v1/fleet/notices")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .<String>getList("node"))
                .doesNotContain(node);
        assertThat(n.getBoolean("notice.expired")).isTrue();
        assertThat(r.getInt("accepted")).isEqualTo(2);
        assertThat(r.getInt("applied")).isEqualTo(1);
        assertThat(r.getList("notApplied.index")).containsExactly(1);
        assertThat(r.getList("notApplied.reason")).containsExactly("expired");
    }
}
