package io.lifeline.api.ingest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The probe's forged node events, against the running application: a rebalance recommendation "from aws" for an
 * on-demand node, notices for nodes nobody registered, fatal XIDs naming GPUs their nodes never reported, and a node
 * agent's token sending events about other nodes. Each is refused one by one with its reason in the answer, the rest
 * of the batch is kept, and no policy drains anything for them (both drain policies are on for this test's pool).
 */
@QuarkusTest
class ForgedNodeEventsTest {

    private static final List<String> DRAIN_POLICIES = List.of("notice-checkpoint-drain", "fatal-xid-drain");

    private final Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    private final String run = CloudEvents.uniqueId().substring(0, 6);
    private final String pool = "forged-" + run;
    private final Map<String, JsonPath> before = new HashMap<>();

    @BeforeEach
    void drainPoliciesOnInThisPool() {
        for (String p : DRAIN_POLICIES) {
            JsonPath b = given(TestTokens.asAdmin())
                    .get("/api/v1/policies/" + p)
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
            before.put(p, b);
            Map<String, Object> overrides = new HashMap<>(b.getMap("overrides"));
            overrides.put("pool:" + pool, "on");
            putPolicy(p, b.getString("mode"), overrides);
        }
        given(TestTokens.asOperator())
                .contentType(ContentType.JSON)
                .body(Map.of("reason", "forged node events test"))
                .post("/api/v1/policies/brake/reset")
                .then()
                .statusCode(200);
    }

    @AfterEach
    void restore() {
        before.forEach((p, b) -> putPolicy(p, b.getString("mode"), b.getMap("overrides")));
    }

    private static void putPolicy(String policy, String mode, Map<String, ?> overrides) {
        given(TestTokens.asAdmin())
                .contentType(ContentType.JSON)
                .body(Map.of("mode", mode, "overrides", overrides))
                .put("/api/v1/policies/" + policy)
                .then()
                .statusCode(200);
    }

    private String registered(String node, String capacity, String providerId) {
        return CloudEvents.event(
                CloudEvents.uniqueId(),
                "test/k8s",
                "node.registered",
                node,
                now.minusSeconds(300),
                "{\"pool\":\"" + pool + "\",\"capacityType\":\"" + capacity + "\",\"gpuCount\":8"
                        + (providerId == null ? "" : ",\"providerId\":\"" + providerId + "\"") + "}");
    }

    private static String notice(String id, String node, String kind, String provider, Instant at) {
        return CloudEvents.event(
                id,
                "cloud/" + provider,
                "node.interruption_notice",
                node,
                at,
                "{\"kind\":\"" + kind + "\",\"provider\":\"" + provider + "\",\"deadline\":\"" + at.plusSeconds(120)
                        + "\"}");
    }

    private static String uuid(String node, int index) {
        return "GPU-" + node + "-" + index;
    }

    private String sample(String node, int index) {
        return CloudEvents.event(
                CloudEvents.uniqueId(),
                "test/dcgm",
                "gpu.sample",
                node,
                now.minusSeconds(60),
                "{\"uuid\":\"" + uuid(node, index) + "\",\"index\":" + index + ",\"utilizationPercent\":90}");
    }

    private String xid(String id, String node, String uuid, int index) {
        return CloudEvents.event(
                id,
                "test/kernel",
                "gpu.xid",
                node,
                now,
                "{\"uuid\":\"" + uuid + "\",\"index\":" + index + ",\"xid\":79}");
    }

    private static JsonPath post(String token, List<String> events, int status) {
        return given(TestTokens.auth(token))
                .contentType("application/cloudevents-batch+json")
                .body(CloudEvents.array(events))
                .post("/api/v1/events")
                .then()
                .statusCode(status)
                .extract()
                .jsonPath();
    }

    private static List<Map<String, Object>> drainsOf(String node) {
        return given(TestTokens.asOperator())
                .queryParam("target", node)
                .queryParam("kind", "drain")
                .get("/api/v1/actions")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("items");
    }

    @Test
    void aRebalanceFromAwsForAnOnDemandNodeAndANoticeForAnUnknownNodeAreRefusedTheRestIsKept() {
        String onDemand = "od-" + run;
        String spot = "spot-" + run;
        String ghost = "ghost-" + run;
        post(
                TestTokens.ingest(),
                List.of(
                        registered(onDemand, "on-demand", "aws:///us-east-1a/i-0od" + run),
                        registered(spot, "spot", "aws:///us-east-1a/i-0sp" + run)),
                200);
        String rebalance = "forged-rebalance-" + run;
        String unknown = "forged-unknown-" + run;
        String fromGcp = "forged-gcp-" + run;
        String genuine = "genuine-" + run;
        JsonPath r = post(
                TestTokens.ingest(),
                List.of(
                        notice(rebalance, onDemand, "rebalance", "aws", now),
                        notice(unknown, ghost, "spot_reclaim", "aws", now),
                        notice(fromGcp, spot, "preempt", "gcp", now),
                        notice(genuine, spot, "spot_reclaim", "aws", now.plusSeconds(1))),
                200);

        assertThat(r.getInt("accepted")).isEqualTo(4);
        assertThat(r.getInt("applied"))
                .as("only the genuine notice fits its node")
                .isEqualTo(1);
        assertThat(r.getList("notApplied.id")).containsExactly(rebalance, unknown, fromGcp);
        assertThat(r.getList("notApplied.reason")).containsExactly("implausible", "unknown_node", "implausible");
        assertThat(r.getString("notApplied[0].detail"))
                .contains("rebalance notice for " + onDemand + ", registered as on-demand capacity");
        assertThat(r.getString("notApplied[1].detail")).contains("no node.registered of " + ghost);
        assertThat(r.getString("notApplied[2].detail")).contains("a notice from gcp for " + spot);

        JsonPath od = given(TestTokens.asOperator())
                .get("/api/v1/nodes/" + onDemand)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(od.getString("notice")).isNull();
        await().atMost(Duration.ofSeconds(30)).until(() -> !drainsOf(spot).isEmpty());
        assertThat(drainsOf(onDemand)).as("the forged rebalance drains nothing").isEmpty();
    }

    @Test
    void forgedFatalXidsNamingGpusTheNodesNeverReportedDrainNothing() {
        List<String> nodes = new ArrayList<>();
        List<String> setup = new ArrayList<>();
        for (int n = 0; n < 10; n++) {
            String node = "xid-" + run + "-" + n;
            nodes.add(node);
            setup.add(registered(node, "spot", null));
            for (int g = 0; g < 8; g++) {
                setup.add(sample(node, g));
            }
        }
        post(TestTokens.ingest(), setup, 200);

        // Per node: a made-up UUID at a reported index, a reported UUID at another index, an index beyond its 8.
        List<String> forged = new ArrayList<>();
        for (String node : nodes) {
            forged.add(xid("forged-a-" + node, node, "GPU-" + CloudEvents.uniqueId(), 0));
            forged.add(xid("forged-b-" + node, node, uuid(node, 1), 2));
            forged.add(xid("forged-c-" + node, node, "GPU-" + CloudEvents.uniqueId(), 9));
        }
        String genuine = "genuine-xid-" + run;
        forged.add(xid(genuine, nodes.get(0), uuid(nodes.get(0), 3), 3));
        JsonPath r = post(TestTokens.ingest(), forged, 200);

        assertThat(r.getInt("accepted")).isEqualTo(31);
        assertThat(r.getInt("applied")).isEqualTo(1);
        assertThat(r.getList("notApplied.reason")).hasSize(30).containsOnly("unknown_gpu");
        assertThat(r.getString("notApplied[0].detail")).contains("a GPU the node never reported");
        assertThat(r.getString("notApplied[1].detail")).contains("reports it at index 1");
        assertThat(r.getString("notApplied[2].detail")).contains("registered 8 GPU(s)");

        // The genuine XID drains its node; the forged ones drain none of the other nine.
        await().atMost(Duration.ofSeconds(30))
                .until(() -> !drainsOf(nodes.get(0)).isEmpty());
        for (String node : nodes.subList(1, nodes.size())) {
            assertThat(drainsOf(node)).as("drains of %s", node).isEmpty();
            assertThat(given(TestTokens.asOperator())
                            .get("/api/v1/nodes/" + node)
                            .then()
                            .statusCode(200)
                            .extract()
                            .jsonPath()
                            .getString("health"))
                    .isNotEqualTo("failed");
        }
        System.out.printf(
                "forged fatal XIDs: %d for %d nodes; refused: %d; drains: 0 of %d%n",
                30, 10, r.getList("notApplied").size(), nodes.size() - 1);
    }

    @Test
    void aNodeBoundTokenSendsOnlyItsOwnNodesEventsAndASourceBoundTokenOnlyItsSource() {
        String mine = "agent-node-" + run;
        String other = "other-node-" + run;
        post(TestTokens.ingest(), List.of(registered(mine, "spot", null), registered(other, "spot", null)), 200);
        String agent = given(TestTokens.asAdmin())
                .contentType(ContentType.JSON)
                .body(Map.of("name", "node agent " + run, "role", "ingest", "nodes", List.of(mine)))
                .post("/api/v1/tokens")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath()
                .getString("token");

        String own = "own-" + run;
        String foreign = "foreign-" + run;
        String job = "job-" + run;
        JsonPath r = post(
                agent,
                List.of(
                        notice(own, mine, "spot_reclaim", "aws", now),
                        notice(foreign, other, "spot_reclaim", "aws", now),
                        CloudEvents.event(
                                job, "test/agent", "trainer.progress", "research/forged-" + run, now, "{\"step\":1}")),
                200);
        assertThat(r.getInt("accepted")).isEqualTo(1);
        assertThat(r.getInt("rejected")).isEqualTo(2);
        assertThat(r.getList("errors.id")).containsExactly(foreign, job);
        assertThat(r.getString("errors[0].reason")).contains("node '" + other + "' is not one of this token's nodes");
        assertThat(r.getString("errors[1].reason"))
                .contains("sends only node and GPU events of them, not trainer.progress");
        assertThat(given(TestTokens.asOperator())
                        .get("/api/v1/nodes/" + other)
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getString("notice"))
                .isNull();
        // Alone, the other node's notice is forbidden; nor can the node's token poll a job's commands.
        post(agent, List.of(notice("alone-" + run, other, "spot_reclaim", "aws", now.plusSeconds(2))), 403);
        given(TestTokens.auth(agent))
                .queryParam("wait", 0)
                .get("/api/v1/agents/research/any-job/commands")
                .then()
                .statusCode(404);

        String connector = given(TestTokens.asAdmin())
                .contentType(ContentType.JSON)
                .body(Map.of("name", "dcgm connector " + run, "role", "ingest", "sources", List.of("test/dcgm")))
                .post("/api/v1/tokens")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath()
                .getString("token");
        JsonPath s = post(
                connector,
                List.of(sample(mine, 0), notice("via-dcgm-" + run, mine, "spot_reclaim", "aws", now.plusSeconds(3))),
                200);
        assertThat(s.getInt("accepted")).isEqualTo(1);
        assertThat(s.getString("errors[0].reason")).contains("source: 'cloud/aws' is not one of this token's sources");

        // Bindings belong to ingest tokens only, and a node agent's token is not limited to namespaces.
        given(TestTokens.asAdmin())
                .contentType(ContentType.JSON)
                .body(Map.of("name", "bad " + run, "role", "operator", "nodes", List.of(mine)))
                .post("/api/v1/tokens")
                .then()
                .statusCode(400);
        given(TestTokens.asAdmin())
                .contentType(ContentType.JSON)
                .body(Map.of(
                        "name",
                        "bad " + run,
                        "role",
                        "ingest",
                        "nodes",
                        List.of(mine),
                        "namespaces",
                        List.of("research")))
                .post("/api/v1/tokens")
                .then()
                .statusCode(400);
        JsonPath listed = given(TestTokens.asAdmin())
                .get("/api/v1/tokens")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(listed.getList("tokens.findAll { it.name == 'node agent " + run + "' }.nodes"))
                .containsExactly(List.of(mine));
    }
}
