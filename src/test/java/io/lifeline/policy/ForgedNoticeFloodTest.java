package io.lifeline.policy;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lifeline.security.identity.Role;
import io.lifeline.testing.CloudEvents;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The attack of the security probe, against the running application: one {@code POST /api/v1/events} from a
 * fleet-wide ingest token with interruption notices for half of a fleet's nodes. Without the brake, the notice policy
 * drained every one of them; with it, the policy drains at most the brake's bound (a fifth of a pool within ten
 * minutes), every further decision is recorded {@code held: brake}, the AutomationBrakeEngaged alert fires, a drain's
 * dry run says the brake holds it, and a fleet-wide operator's reset (audited) lets the policy drain again.
 */
@QuarkusTest
class ForgedNoticeFloodTest {

    private static final String NOTICE_POLICY = "notice-checkpoint-drain";
    private static final String REQUESTER = "policy:" + NOTICE_POLICY;
    /** Nodes per pool: the brake's default bound is a fifth of them, 4. */
    private static final int POOL_NODES = 20;

    private final Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    private final String run = CloudEvents.uniqueId().substring(0, 6);
    private final String poolA = "flood-a-" + run;
    private final String poolB = "flood-b-" + run;
    private JsonPath policyBefore;

    /** The notice policy on for this test's two pools only; the brake released, so that it counts from now. */
    @BeforeEach
    void noticePolicyOnInThesePools() {
        policyBefore = given(TestTokens.asAdmin())
                .get("/api/v1/policies/" + NOTICE_POLICY)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        Map<String, Object> overrides = new HashMap<>(policyBefore.getMap("overrides"));
        overrides.put("pool:" + poolA, "on");
        overrides.put("pool:" + poolB, "on");
        putPolicy(policyBefore.getString("mode"), overrides);
        resetBrake("before the flood test");
    }

    @AfterEach
    void restore() {
        putPolicy(policyBefore.getString("mode"), policyBefore.getMap("overrides"));
        resetBrake("after the flood test");
    }

    private static void putPolicy(String mode, Map<String, ?> overrides) {
        given(TestTokens.asAdmin())
                .contentType(ContentType.JSON)
                .body(Map.of("mode", mode, "overrides", overrides))
                .put("/api/v1/policies/" + NOTICE_POLICY)
                .then()
                .statusCode(200);
    }

    private static JsonPath resetBrake(String reason) {
        return given(TestTokens.asOperator())
                .contentType(ContentType.JSON)
                .body(Map.of("reason", reason))
                .post("/api/v1/policies/brake/reset")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    private static String node(String pool, int i) {
        return String.format("%s-%02d", pool, i);
    }

    private String registered(String node, String pool) {
        return CloudEvents.event(
                CloudEvents.uniqueId(),
                "test/k8s",
                "node.registered",
                node,
                now.minusSeconds(300),
                "{\"pool\":\"" + pool + "\",\"capacityType\":\"spot\",\"gpuCount\":8,\"instanceType\":\"p5.48xlarge\","
                        + "\"providerId\":\"aws:///us-east-1a/i-0" + Integer.toHexString(node.hashCode()) + "\"}");
    }

    private String notice(String node, Instant at) {
        return CloudEvents.event(
                "forged-" + node,
                "cloud/aws",
                "node.interruption_notice",
                node,
                at,
                "{\"kind\":\"spot_reclaim\",\"provider\":\"aws\",\"deadline\":\"" + at.plusSeconds(120) + "\"}");
    }

    private static JsonPath post(List<String> events) {
        return given(TestTokens.asIngest())
                .contentType("application/cloudevents-batch+json")
                .body(CloudEvents.array(events))
                .post("/api/v1/events")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    /** The notice policy's decisions about these nodes, by node. */
    private static Map<String, Map<String, Object>> decisions(Set<String> nodes) {
        Map<String, Map<String, Object>> out = new HashMap<>();
        for (Map<String, Object> a : given(TestTokens.asOperator())
                .queryParam("requestedBy", REQUESTER)
                .queryParam("kind", "drain")
                .queryParam("limit", 500)
                .get("/api/v1/actions")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .<Map<String, Object>>getList("items")) {
            if (nodes.contains((String) a.get("target"))) {
                out.put((String) a.get("target"), a);
            }
        }
        return out;
    }

    private static boolean held(Map<String, Object> a) {
        return String.valueOf(a.get("outcome")).startsWith("held: brake");
    }

    @Test
    void forgedNoticesForHalfTheFleetDrainOnlyWhatTheBrakeAllowsTheRestIsHeldAnAlertFiresAndAResetReleasesIt() {
        List<String> fleet = new ArrayList<>();
        for (int i = 0; i < POOL_NODES; i++) {
            fleet.add(registered(node(poolA, i), poolA));
            fleet.add(registered(node(poolB, i), poolB));
        }
        assertThat(post(fleet).getInt("applied")).isEqualTo(2 * POOL_NODES);
        JsonPath before = given(TestTokens.asViewer())
                .get("/api/v1/policies/brake")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(before.getBoolean("engaged")).isFalse();

        // Half the fleet: nodes 0..9 of both pools, interleaved, in one request.
        Set<String> targets = new TreeSet<>();
        List<String> forged = new ArrayList<>();
        for (int i = 0; i < POOL_NODES / 2; i++) {
            for (String pool : List.of(poolA, poolB)) {
                targets.add(node(pool, i));
                forged.add(notice(node(pool, i), now));
            }
        }
        JsonPath answer = post(forged);
        assertThat(answer.getInt("applied"))
                .as("plausible notices: the model takes them all")
                .isEqualTo(forged.size());

        Map<String, Map<String, Object>> decided =
                await().atMost(Duration.ofSeconds(60)).until(() -> decisions(targets), d -> d.size() == targets.size());
        List<String> drained = decided.values().stream()
                .filter(a -> !held(a))
                .map(a -> (String) a.get("target"))
                .sorted()
                .toList();
        List<Map<String, Object>> heldOnes =
                decided.values().stream().filter(ForgedNoticeFloodTest::held).toList();
        // A fifth of each 20-node pool is 4: four drains in each pool, then the fifth of pool A engages the brake.
        assertThat(drained)
                .hasSize(8)
                .allMatch(n -> n.compareTo(node(poolA, 4)) < 0 && n.startsWith(poolA)
                        || n.compareTo(node(poolB, 4)) < 0 && n.startsWith(poolB));
        assertThat(heldOnes)
                .hasSize(12)
                .allSatisfy(a -> assertThat(a.get("state")).isEqualTo("succeeded"));
        assertThat(decided.get(node(poolA, 4)).get("outcome"))
                .asString()
                .contains("a 5th node of pool " + poolA + " (20 live)", "more than 4", "the automation brake engaged");
        assertThat(decided.get(node(poolB, 9)).get("outcome"))
                .asString()
                .startsWith("held: brake: the automation brake is engaged since");
        System.out.printf(
                "forged notices: %d for %d nodes; drains started: %d; held by the brake: %d%n",
                forged.size(), 2 * POOL_NODES, drained.size(), heldOnes.size());

        JsonPath brake = given(TestTokens.asViewer())
                .get("/api/v1/policies/brake")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(brake.getBoolean("engaged")).isTrue();
        assertThat(brake.getString("trip.node")).isEqualTo(node(poolA, 4));
        assertThat(brake.getString("trip.policy")).isEqualTo(NOTICE_POLICY);
        assertThat(brake.getLong("held")).isEqualTo(12);
        assertThat(brake.getInt("fleet.taken")).isEqualTo(8);

        // The alert, from the shared state, at the next evaluation (every second in tests).
        Map<String, Object> alert = await().atMost(Duration.ofSeconds(30))
                .until(
                        () -> given(TestTokens.asViewer())
                                .queryParam("rule", "automation-brake")
                                .get("/api/v1/alerts")
                                .then()
                                .statusCode(200)
                                .extract()
                                .jsonPath()
                                .<Map<String, Object>>getList("alerts")
                                .stream()
                                .filter(a -> "firing".equals(a.get("state")))
                                .findFirst()
                                .orElse(null),
                        a -> a != null);
        assertThat(alert.get("alertname")).isEqualTo("AutomationBrakeEngaged");
        assertThat(alert.get("severity")).isEqualTo("critical");

        // A drain's dry run says what the brake would do with a policy's drain of another node.
        JsonPath dry = given(TestTokens.asOperator())
                .contentType(ContentType.JSON)
                .body(Map.of("kind", "drain", "target", node(poolB, 15), "dryRun", true))
                .post("/api/v1/actions")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(dry.getString("brake.verdict")).isEqualTo("held");
        assertThat(dry.getString("brake.pool")).isEqualTo(poolB);

        // Only a fleet-wide operator resets it; the reset is audited with its reason.
        given(TestTokens.asViewer()).post("/api/v1/policies/brake/reset").then().statusCode(403);
        given(TestTokens.asIngest()).post("/api/v1/policies/brake/reset").then().statusCode(403);
        given(TestTokens.auth(TestTokens.create("brake-scoped-" + run, Role.OPERATOR, List.of("research"))))
                .post("/api/v1/policies/brake/reset")
                .then()
                .statusCode(403);
        JsonPath released = resetBrake("forged notices from a leaked ingest token " + run + "; token revoked");
        assertThat(released.getBoolean("engaged")).isFalse();
        assertThat(released.getInt("fleet.taken")).isZero();
        List<Map<String, Object>> audit = given(TestTokens.asAdmin())
                .queryParam("what", "policy.brake_reset")
                .get("/api/v1/audit")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("items");
        assertThat(audit)
                .anySatisfy(e -> assertThat(String.valueOf(e.get("reason"))).contains(run));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> given(TestTokens.asViewer())
                        .queryParam("rule", "automation-brake")
                        .get("/api/v1/alerts")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .<Map<String, Object>>getList("alerts")
                        .stream()
                        .noneMatch(a -> "firing".equals(a.get("state"))));

        // Released, the policy drains again, counted afresh: four more of pool A, and the dry run of a fifth shows that
        // a policy's drain of it would engage the brake.
        Set<String> more = new TreeSet<>();
        List<String> next = new ArrayList<>();
        for (int i = 10; i < 14; i++) {
            more.add(node(poolA, i));
            next.add(notice(node(poolA, i), now.plusSeconds(1)));
        }
        post(next);
        Map<String, Map<String, Object>> after =
                await().atMost(Duration.ofSeconds(60)).until(() -> decisions(more), d -> d.size() == more.size());
        assertThat(after.values()).noneMatch(ForgedNoticeFloodTest::held);
        JsonPath wouldTrip = given(TestTokens.asOperator())
                .contentType(ContentType.JSON)
                .body(Map.of("kind", "drain", "target", node(poolA, 14), "dryRun", true))
                .post("/api/v1/actions")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(wouldTrip.getString("brake.verdict")).isEqualTo("tripped");
        assertThat(wouldTrip.getString("brake.reason")).contains("more than 4", "would engage the brake");
        assertThat(wouldTrip.getInt("brake.poolCount.taken")).isEqualTo(4);
        assertThat(wouldTrip.getInt("brake.poolCount.bound")).isEqualTo(4);
        JsonPath fine = given(TestTokens.asOperator())
                .contentType(ContentType.JSON)
                .body(Map.of("kind", "drain", "target", node(poolB, 15), "dryRun", true))
                .post("/api/v1/actions")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(fine.getString("brake.verdict")).isEqualTo("allowed");
    }
}
