package io.lifeline.api.control;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.page.Cursor;
import io.lifeline.security.identity.Role;
import io.lifeline.testing.TestFleet;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

@QuarkusTest
class ActionsApiTest {

    private static String unique(String base) {
        return base + "-" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffL);
    }

    private static String body(String kind, String target, String params) {
        return "{\"kind\":\"" + kind + "\",\"target\":\"" + target + "\",\"params\":" + params
                + ",\"reason\":\"test\"}";
    }

    private static String operator(String name) {
        return TestTokens.create(unique(name), Role.OPERATOR, List.of());
    }

    @Test
    void noTokenIsUnauthorized() {
        given().contentType(ContentType.JSON)
                .body(body("drain", "n1", "{}"))
                .post("/api/v1/actions")
                .then()
                .statusCode(401);
    }

    @Test
    void viewerCannotCreateActions() {
        given().spec(TestTokens.asViewer())
                .contentType(ContentType.JSON)
                .body(body("drain", "n1", "{}"))
                .post("/api/v1/actions")
                .then()
                .statusCode(403);
    }

    @Test
    void operatorScopedToOneNamespaceCannotActInAnother() {
        String nsA = unique("team-a");
        String nsB = unique("team-b");
        String node = unique("scoped-node");
        new TestFleet().node(node, "pool").job(nsA + "/llm", 0, 0, node).job(nsB + "/llm", 0, 0, node);
        String scoped = TestTokens.create(unique("scoped"), Role.OPERATOR, List.of(nsA));
        given().spec(TestTokens.auth(scoped))
                .contentType(ContentType.JSON)
                .body(body("checkpoint-now", nsB + "/llm", "{}"))
                .post("/api/v1/actions")
                .then()
                .statusCode(403)
                .contentType("application/problem+json");
        given().spec(TestTokens.auth(scoped))
                .contentType(ContentType.JSON)
                .body(body("drain", node, "{}"))
                .post("/api/v1/actions")
                .then()
                .statusCode(403)
                .body("detail", org.hamcrest.Matchers.containsString("fleet-wide"));
        given().spec(TestTokens.auth(scoped))
                .contentType(ContentType.JSON)
                .body(body("checkpoint-now", nsA + "/llm", "{\"deadlineSeconds\":2}"))
                .post("/api/v1/actions")
                .then()
                .statusCode(201);
    }

    @Test
    void invalidBodiesAreProblemsNamingTheField() {
        String op = operator("invalid");
        expectField(op, "{\"target\":\"n1\"}", "kind");
        expectField(op, "{\"kind\":\"explode\",\"target\":\"n1\"}", "kind");
        expectField(op, "{\"kind\":\"drain\"}", "target");
        expectField(op, "{\"kind\":\"drain\",\"target\":\"n1\",\"params\":[1]}", "params");
        expectField(op, "{\"kind\":\"drain\",\"target\":\"n1\",\"params\":{\"a\":{\"b\":1}}}", "params.a");
        expectField(op, "{\"kind\":\"drain\",\"target\":\"n1\",\"dryRun\":\"yes\"}", "dryRun");
        expectField(op, "{\"kind\":\"drain\",\"target\":\"n1\",\"extra\":1}", "extra");
        expectField(op, "[]", "body");
        expectField(op, body("drain", "no-such-node-anywhere", "{}"), "target");
        String node = unique("inv-node");
        String job = unique("team-inv") + "/llm";
        new TestFleet().node(node, "pool").job(job, 2, 4, node);
        expectField(op, body("rescale", job, "{\"workers\":1}"), "params.workers");
        expectField(op, body("rescale", job, "{\"workers\":9}"), "params.workers");
        expectField(op, body("restore", job, "{\"checkpointId\":\"missing\"}"), "params.checkpointId");
        given().spec(TestTokens.auth(op))
                .contentType(ContentType.TEXT)
                .body("drain n1")
                .post("/api/v1/actions")
                .then()
                .statusCode(415);
    }

    private static void expectField(String token, String json, String field) {
        given().spec(TestTokens.auth(token))
                .contentType(ContentType.JSON)
                .body(json)
                .post("/api/v1/actions")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("errors[0].field", equalTo(field))
                .body("detail", startsWith(field + ":"));
    }

    @Test
    void aTerminatedNodeIsRefusedWithTheReasonForDrainAndUncordon() {
        String node = unique("gone-node");
        new TestFleet()
                .node(node, "pool")
                .send(
                        node,
                        EventType.NODE_TERMINATED,
                        new io.lifeline.domain.event.NodeData.Terminated("spot instance reclaimed"));
        String op = operator("gone");
        for (String kind : List.of("drain", "uncordon")) {
            given().spec(TestTokens.auth(op))
                    .contentType(ContentType.JSON)
                    .body(body(kind, node, "{}"))
                    .post("/api/v1/actions")
                    .then()
                    .statusCode(400)
                    .contentType("application/problem+json")
                    .body("errors[0].field", equalTo("target"))
                    .body("detail", equalTo("target: node " + node + " is terminated"));
        }
        TestTokens.api()
                .queryParam("target", node)
                .get("/api/v1/actions")
                .then()
                .statusCode(200)
                .body("items.size()", equalTo(0));
    }

    @Test
    void dryRunAnswersTheImpactAndStoresNothing() {
        String node = unique("dry-node");
        String job = unique("team-dry") + "/llm";
        new TestFleet()
                .node(node, "pool")
                .node(node + "-b", "pool")
                .job(job, 1, 2, node, node + "-b")
                .checkpoint(job, "c1", 50, 20)
                .progress(job, 80);
        given().spec(TestTokens.auth(operator("dry")))
                .contentType(ContentType.JSON)
                .body("{\"kind\":\"drain\",\"target\":\"" + node + "\",\"params\":{\"deadlineSeconds\":120},"
                        + "\"dryRun\":true}")
                .post("/api/v1/actions")
                .then()
                .statusCode(200)
                .body("dryRun", equalTo(true))
                .body("impact.jobs", hasItem(job))
                .body("impact.ranksAffected", equalTo(8))
                .body("impact.deadlineAllowsCheckpoint", equalTo(true));
        TestTokens.api()
                .queryParam("target", node)
                .get("/api/v1/actions")
                .then()
                .statusCode(200)
                .body("items.size()", equalTo(0));
    }

    @Test
    void twentyConcurrentRequestsWithOneKeyCreateOneAction() throws Exception {
        String node = unique("idem-node");
        String job = unique("team-idem") + "/llm";
        new TestFleet().node(node, "pool").job(job, 0, 0, node);
        String op = operator("idem");
        String key = unique("key");
        ExecutorService pool = Executors.newFixedThreadPool(20);
        List<Callable<Response>> calls = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            calls.add(() -> given().spec(TestTokens.auth(op))
                    .contentType(ContentType.JSON)
                    .header("Idempotency-Key", key)
                    .body(body("checkpoint-now", job, "{\"deadlineSeconds\":3}"))
                    .post("/api/v1/actions"));
        }
        Set<String> ids = new java.util.HashSet<>();
        int replayed = 0;
        for (Future<Response> f : pool.invokeAll(calls)) {
            Response r = f.get();
            assertThat(r.statusCode()).isEqualTo(201);
            ids.add(r.jsonPath().getString("id"));
            replayed += "true".equals(r.header("Idempotency-Replayed")) ? 1 : 0;
        }
        pool.shutdown();
        assertThat(ids).hasSize(1);
        assertThat(replayed).isEqualTo(19);
        TestTokens.api().queryParam("target", job).get("/api/v1/actions").then().body("items.size()", equalTo(1));
        // The same key later answers the first action again, whatever the body says now (after the token's
        // action rate limit, spent by the twenty requests, lets it through).
        Response later = await().atMost(Duration.ofSeconds(15))
                .pollInterval(Duration.ofMillis(600))
                .until(
                        () -> given().spec(TestTokens.auth(op))
                                .contentType(ContentType.JSON)
                                .header("Idempotency-Key", key)
                                .body(body("checkpoint-now", job, "{\"deadlineSeconds\":99}"))
                                .post("/api/v1/actions"),
                        r -> r.statusCode() != 429);
        later.then()
                .statusCode(201)
                .header("Idempotency-Replayed", "true")
                .body("id", equalTo(ids.iterator().next()))
                .body("params.deadlineSeconds", equalTo("3"));
    }

    @Test
    void checkpointNowSucceedsWhenTheTrainersReportANewCheckpoint() {
        String node = unique("ck-node");
        String job = unique("team-ck") + "/llm";
        TestFleet fleet = new TestFleet()
                .node(node, "pool")
                .job(job, 0, 0, node)
                .checkpoint(job, "c1", 100, 10)
                .progress(job, 150);
        String id = given().spec(TestTokens.auth(operator("ck")))
                .contentType(ContentType.JSON)
                .body(body("checkpoint-now", job, "{\"deadlineSeconds\":60}"))
                .post("/api/v1/actions")
                .then()
                .statusCode(201)
                .header("Location", org.hamcrest.Matchers.containsString("/api/v1/actions/act-"))
                .body("state", org.hamcrest.Matchers.oneOf("pending", "running"))
                .extract()
                .path("id");
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> TestTokens.api()
                        .get("/api/v1/actions/" + id)
                        .then()
                        .body("steps.name", hasItem("request checkpoint " + job)));
        // A second action on the same job waits for this one.
        given().spec(TestTokens.auth(operator("ck2")))
                .contentType(ContentType.JSON)
                .body(body("preempt", job, "{}"))
                .post("/api/v1/actions")
                .then()
                .statusCode(409)
                .body("detail", org.hamcrest.Matchers.containsString(id));
        fleet.checkpoint(job, "c2", 160, 10);
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> TestTokens.api()
                        .get("/api/v1/actions/" + id)
                        .then()
                        .body("state", equalTo("succeeded"))
                        .body("steps.find { it.name == 'await checkpoint " + job + "' }.state", equalTo("done")));
        // The request step says how its command went: confirmed by the Kafka topic and the agent queue, at once.
        String request = "steps.find { it.name == 'request checkpoint " + job + "' }";
        TestTokens.api()
                .get("/api/v1/actions/" + id)
                .then()
                .body(request + ".command.id", equalTo(id + ":checkpoint:" + job))
                .body(request + ".command.attempts", equalTo(1))
                .body(
                        request + ".command.channels",
                        org.hamcrest.Matchers.containsInAnyOrder("Kafka topic", "agent queue"))
                .body(request + ".command.sentAt", org.hamcrest.Matchers.notNullValue())
                .body(request + ".command", org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasKey("lastError")))
                .body(
                        "steps.find { it.name == 'await checkpoint " + job + "' }",
                        org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasKey("command")));
        TestTokens.api()
                .queryParam("actionId", id)
                .get("/api/v1/audit")
                .then()
                .statusCode(200)
                .body("items.what", hasItem("action.requested"))
                .body("items.what", hasItem("action.succeeded"));
    }

    @Test
    void checkpointNowFailsAtOnceWithTheTrainersReasonWhenTheyRejectIt() {
        String node = unique("rej-node");
        String job = unique("team-rej") + "/llm";
        TestFleet fleet = new TestFleet().node(node, "pool").job(job, 0, 0, node);
        String id = given().spec(TestTokens.auth(operator("rej")))
                .contentType(ContentType.JSON)
                .body(body("checkpoint-now", job, "{\"deadlineSeconds\":300}"))
                .post("/api/v1/actions")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> TestTokens.api()
                        .get("/api/v1/actions/" + id)
                        .then()
                        .body("steps.name", hasItem("await checkpoint " + job)));
        fleet.send(
                job,
                EventType.TRAINER_COMMAND_ACK,
                new TrainerData.CommandAck(
                        id + ":checkpoint:" + job,
                        "checkpoint",
                        TrainerData.AckStatus.REJECTED,
                        "job is starting, not training"));
        // Well before the 300 s deadline: the refusal ends the wait.
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> TestTokens.api()
                        .get("/api/v1/actions/" + id)
                        .then()
                        .body("state", equalTo("failed"))
                        .body(
                                "steps.find { it.name == 'await checkpoint " + job + "' }.detail",
                                org.hamcrest.Matchers.containsString(
                                        "rejected the command: job is starting, not training")));
    }

    @Test
    void cancelStopsAWaitingActionAndIsAudited() {
        String node = unique("cancel-node");
        String job = unique("team-cancel") + "/llm";
        new TestFleet().node(node, "pool").job(job, 0, 0, node);
        String op = operator("cancel");
        String id = given().spec(TestTokens.auth(op))
                .contentType(ContentType.JSON)
                .body(body("checkpoint-now", job, "{\"deadlineSeconds\":300}"))
                .post("/api/v1/actions")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        given().spec(TestTokens.auth(op))
                .post("/api/v1/actions/" + id + "/cancel")
                .then()
                .statusCode(200);
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() ->
                        TestTokens.api().get("/api/v1/actions/" + id).then().body("state", equalTo("cancelled")));
        TestTokens.api()
                .queryParam("actionId", id)
                .get("/api/v1/audit")
                .then()
                .body("items.what", hasItem("action.cancel_requested"))
                .body("items.what", hasItem("action.cancelled"));
    }

    /** Actions and audit entries page with the one cursor, and the plain sequence numbers of earlier releases still page. */
    @Test
    void cursorsOfEarlierReleasesStillPage() {
        String op = operator("pager");
        String requestedBy = null;
        for (int i = 0; i < 3; i++) {
            String node = unique("pager-node");
            String job = unique("team-pager") + "/llm";
            new TestFleet().node(node, "pool").job(job, 0, 0, node);
            String id = given().spec(TestTokens.auth(op))
                    .contentType(ContentType.JSON)
                    .body(body("checkpoint-now", job, "{\"deadlineSeconds\":300}"))
                    .post("/api/v1/actions")
                    .then()
                    .statusCode(201)
                    .extract()
                    .path("id");
            requestedBy = TestTokens.api()
                    .get("/api/v1/actions/" + id)
                    .then()
                    .extract()
                    .path("requestedBy");
            given().spec(TestTokens.auth(op))
                    .post("/api/v1/actions/" + id + "/cancel")
                    .then()
                    .statusCode(200);
        }
        Response first = TestTokens.api()
                .queryParam("requestedBy", requestedBy)
                .queryParam("limit", 1)
                .get("/api/v1/actions");
        String next = first.then().statusCode(200).extract().path("nextCursor");
        assertThat(next).isNotNull().doesNotMatch("[0-9]+");
        String plain = Long.toString(Cursor.longs(next, 1)[0]);
        List<String> byCursor = TestTokens.api()
                .queryParam("requestedBy", requestedBy)
                .queryParam("limit", 2)
                .queryParam("cursor", next)
                .get("/api/v1/actions")
                .then()
                .statusCode(200)
                .extract()
                .path("items.id");
        List<String> byPlain = TestTokens.api()
                .queryParam("requestedBy", requestedBy)
                .queryParam("limit", 2)
                .queryParam("cursor", plain)
                .get("/api/v1/actions")
                .then()
                .statusCode(200)
                .extract()
                .path("items.id");
        assertThat(byCursor)
                .hasSize(2)
                .isEqualTo(byPlain)
                .doesNotContain(first.path("items[0].id").toString());

        Response audit = TestTokens.api()
                .queryParam("actor", requestedBy)
                .queryParam("limit", 2)
                .get("/api/v1/audit");
        String auditNext = audit.then().statusCode(200).extract().path("nextCursor");
        Number beforeSeq = audit.path("nextBeforeSeq");
        assertThat(Cursor.longs(auditNext, 1)[0]).isEqualTo(beforeSeq.longValue());
        List<Integer> olderByCursor = TestTokens.api()
                .queryParam("actor", requestedBy)
                .queryParam("limit", 2)
                .queryParam("cursor", auditNext)
                .get("/api/v1/audit")
                .then()
                .statusCode(200)
                .extract()
                .path("items.seq");
        List<Integer> olderByBefore = TestTokens.api()
                .queryParam("actor", requestedBy)
                .queryParam("limit", 2)
                .queryParam("before", beforeSeq)
                .get("/api/v1/audit")
                .then()
                .statusCode(200)
                .extract()
                .path("items.seq");
        assertThat(olderByCursor).hasSize(2).isEqualTo(olderByBefore);
        TestTokens.api().queryParam("cursor", "1:2").get("/api/v1/audit").then().statusCode(400);
    }

    @Test
    void unknownAndHostileIdsAreNotFound() {
        TestTokens.api()
                .get("/api/v1/actions/act-00000000000000000000")
                .then()
                .statusCode(404)
                .contentType("application/problem+json");
        TestTokens.api().get("/api/v1/actions/..%2F..%2Fetc%2Fpasswd").then().statusCode(404);
        TestTokens.api().get("/api/v1/actions/act-1' OR '1'='1").then().statusCode(404);
        TestTokens.api()
                .queryParam("target", "x' OR 1=1; DROP TABLE action; --")
                .get("/api/v1/actions")
                .then()
                .statusCode(200)
                .body("items.size()", equalTo(0));
        TestTokens.api()
                .queryParam("cursor", "1 OR 1=1")
                .get("/api/v1/actions")
                .then()
                .statusCode(400);
        TestTokens.api()
                .queryParam("actor", "' OR ''='")
                .get("/api/v1/audit")
                .then()
                .statusCode(200)
                .body("items.size()", equalTo(0));
    }

    @Test
    void policiesAreReadByViewersAndChangedByAdminsOnly() {
        given().spec(TestTokens.asViewer())
                .get("/api/v1/policies")
                .then()
                .statusCode(200)
                .body("name", hasItem("notice-checkpoint-drain"));
        given().spec(TestTokens.asOperator())
                .contentType(ContentType.JSON)
                .body("{\"mode\":\"on\"}")
                .put("/api/v1/policies/stale-checkpoint")
                .then()
                .statusCode(403);
        TestTokens.api()
                .contentType(ContentType.JSON)
                .body("{\"mode\":\"sometimes\"}")
                .put("/api/v1/policies/stale-checkpoint")
                .then()
                .statusCode(400)
                .body("errors[0].field", equalTo("mode"));
        TestTokens.api()
                .contentType(ContentType.JSON)
                .body("{\"mode\":\"dry-run\",\"overrides\":{\"namespace:team-x\":\"off\"}}")
                .put("/api/v1/policies/stale-checkpoint")
                .then()
                .statusCode(200)
                .body("mode", equalTo("dry-run"))
                .body("overrides.'namespace:team-x'", equalTo("off"));
        TestTokens.api()
                .queryParam("what", "policy.updated")
                .get("/api/v1/audit")
                .then()
                .body("items.target", hasItem("policy:stale-checkpoint"));
        TestTokens.api()
                .contentType(ContentType.JSON)
                .body("{\"mode\":\"off\",\"overrides\":{\"../x\":\"on\"}}")
                .put("/api/v1/policies/stale-checkpoint")
                .then()
                .statusCode(400);
        TestTokens.api().get("/api/v1/policies/no-such-policy").then().statusCode(404);
    }

    /**
     * Whether stale-checkpoint acts only on jobs burning their objective's budget is shown with the policy
     * (configuration sets it: false by default) and with no other; the API does not change it.
     */
    @Test
    void staleCheckpointShowsWhetherItActsOnlyOnJobsBurningTheirBudget() {
        given().spec(TestTokens.asViewer())
                .get("/api/v1/policies/stale-checkpoint")
                .then()
                .statusCode(200)
                .body("onlyWhenBurning", equalTo(false));
        given().spec(TestTokens.asViewer())
                .get("/api/v1/policies/notice-checkpoint-drain")
                .then()
                .statusCode(200)
                .body("$", not(hasKey("onlyWhenBurning")));
        TestTokens.api()
                .contentType(ContentType.JSON)
                .body("{\"mode\":\"off\",\"onlyWhenBurning\":true}")
                .put("/api/v1/policies/stale-checkpoint")
                .then()
                .statusCode(400)
                .body("errors[0].field", equalTo("onlyWhenBurning"));
    }
}
