package io.lifeline.connector.outbound.command;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.lifeline.security.identity.Role;
import io.lifeline.security.store.AgentClaims;
import io.lifeline.testing.AgentKeys;
import io.lifeline.testing.CloudEvents;
import io.lifeline.testing.TestFleet;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The stolen acknowledgement, as the security probe did it: another token over the job's namespace long-polls the
 * job's commands and answers an operator's checkpoint-now {@code rejected}. With the claim, only the agent holding it
 * takes and answers the commands: the other token's poll, its acknowledgement through the agent endpoint, and a
 * {@code trainer.command_ack} it posts to {@code /api/v1/events} are all refused with their reason and audited, and
 * the operator's action goes on to succeed on the agent's own checkpoint.
 */
@QuarkusTest
class StolenAcknowledgementTest {

    private static String unique(String base) {
        return base + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static JsonPath action(String id) {
        return TestTokens.api()
                .get("/api/v1/actions/" + id)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    @Test
    void anotherTokensPollAndRejectionAreRefusedAndTheOperatorsCheckpointSucceeds() throws Exception {
        String ns = unique("team-steal");
        String job = ns + "/llm";
        String node = unique("steal-node");
        TestFleet fleet = new TestFleet().node(node, "pool").job(job, 0, 0, node);
        String commands = "/api/v1/agents/" + job + "/commands";
        RequestSpecification agent =
                AgentKeys.as(TestTokens.create(unique("agent"), Role.INGEST, List.of(ns)), AgentKeys.fresh());
        String thiefToken = TestTokens.create(unique("thief"), Role.INGEST, List.of(ns));
        RequestSpecification thief = AgentKeys.as(thiefToken, AgentKeys.fresh());

        // The job's agent polls first (as it does from the job's start) and so holds the claim.
        given(agent).queryParam("wait", 0).get(commands).then().statusCode(200);
        CompletableFuture<Response> agentPoll = CompletableFuture.supplyAsync(
                () -> given(agent).queryParam("wait", 30).get(commands));
        String id = given(TestTokens.asOperator())
                .contentType(ContentType.JSON)
                .body("{\"kind\":\"checkpoint-now\",\"target\":\"" + job + "\",\"params\":{\"deadlineSeconds\":300},"
                        + "\"reason\":\"before maintenance\"}")
                .post("/api/v1/actions")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        String commandId = id + ":checkpoint:" + job;
        Response delivered = agentPoll.get(30, TimeUnit.SECONDS);
        assertThat(delivered.jsonPath().getList("id")).containsExactly(commandId);
        given(agent)
                .contentType(ContentType.JSON)
                .body(Map.of("status", "accepted", "detail", "saving"))
                .post(commands + "/" + commandId + "/ack")
                .then()
                .statusCode(202);

        // The thief's poll: refused while the agent holds the claim, with the reason and when it may lapse.
        given(thief)
                .queryParam("wait", 0)
                .get(commands)
                .then()
                .statusCode(409)
                .header("Retry-After", org.hamcrest.Matchers.notNullValue())
                .body("type", equalTo("/problems/claimed-by-another-agent"))
                .body("detail", containsString("claimed by another agent"));
        // Its rejection through the agent endpoint: with its own key refused, without a key a 400.
        given(thief)
                .contentType(ContentType.JSON)
                .body(Map.of("status", "rejected", "detail", "stolen"))
                .post(commands + "/" + commandId + "/ack")
                .then()
                .statusCode(409)
                .body("detail", containsString("does not hold that claim"));
        given(TestTokens.auth(thiefToken))
                .contentType(ContentType.JSON)
                .body(Map.of("status", "rejected"))
                .post(commands + "/" + commandId + "/ack")
                .then()
                .statusCode(400)
                .body("detail", containsString(AgentClaims.KEY_HEADER));
        // The same rejection as an event, from the thief's token and from the fleet-wide ingest token.
        String forged = CloudEvents.event(
                CloudEvents.uniqueId(),
                "trainer/" + job,
                "trainer.command_ack",
                job,
                Instant.now().truncatedTo(ChronoUnit.MILLIS),
                "{\"commandId\":\"" + commandId + "\",\"command\":"
                        + "\"checkpoint_now\",\"status\":\"rejected\",\"message\":\"stolen\"}");
        for (RequestSpecification sender : List.of(thief, TestTokens.asIngest())) {
            given(sender)
                    .contentType("application/cloudevents+json")
                    .body(forged)
                    .post("/api/v1/events")
                    .then()
                    .statusCode(403)
                    .body("errors[0].reason", containsString("answered by the agent that claimed them"));
        }

        // Not failed by any of it: the action still waits for the checkpoint, which the agent's trainers then save.
        await().during(Duration.ofSeconds(2))
                .atMost(Duration.ofSeconds(5))
                .until(() -> action(id).getString("state").equals("running"));
        assertThat(action(id).getString("steps.find { it.name == 'await checkpoint " + job + "' }.detail"))
                .doesNotContain("stolen");
        fleet.checkpoint(job, "ck-after-steal", 100, 3);
        await().atMost(Duration.ofSeconds(20))
                .until(() -> action(id).getString("state").equals("succeeded"));

        // Every refusal is in the security audit, under the thief's token.
        List<Map<String, Object>> audit = TestTokens.api()
                .queryParam("limit", 1000)
                .get("/api/v1/security/audit")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("records");
        assertThat(audit)
                .filteredOn(r -> String.valueOf(r.get("detail")).contains(job)
                        && String.valueOf(r.get("actor")).contains("thief"))
                .extracting(r -> r.get("action"))
                .contains("agent.claim_refused", "agent.ack_refused");
    }

    @Test
    void theAgentsOwnAcknowledgementCountsAndItsReleaseLetsTheNextAgentClaim() {
        String ns = unique("team-claim");
        String job = ns + "/llm";
        String commands = "/api/v1/agents/" + job + "/commands";
        String token = TestTokens.create(unique("agent"), Role.INGEST, List.of(ns));
        String key = AgentKeys.fresh();
        RequestSpecification first = AgentKeys.as(token, key);
        RequestSpecification next = AgentKeys.as(token, AgentKeys.fresh());
        given(first).queryParam("wait", 0).get(commands).then().statusCode(200);
        // The same token with another key (a second launch of the job while the first still polls): refused.
        given(next).queryParam("wait", 0).get(commands).then().statusCode(409);
        // An event acknowledgement with the claim's key is the agent's own.
        String ack = CloudEvents.event(
                CloudEvents.uniqueId(),
                "trainer/" + job,
                "trainer.command_ack",
                job,
                Instant.now().truncatedTo(ChronoUnit.MILLIS),
                "{\"commandId\":\"c-1\",\"status\":\"accepted\"}");
        given(first)
                .contentType("application/cloudevents+json")
                .body(ack)
                .post("/api/v1/events")
                .then()
                .statusCode(200)
                .body("accepted", equalTo(1));
        // The first agent exits and gives its claim up: the next one claims at once.
        given(first).delete(commands + "/claim").then().statusCode(200).body("released", equalTo(true));
        given(next).queryParam("wait", 0).get(commands).then().statusCode(200);
        // An ingest token may not release another agent's claim; an operator of the namespace may.
        given(TestTokens.auth(token)).delete(commands + "/claim").then().statusCode(400);
        given(TestTokens.auth(TestTokens.create(unique("oncall"), Role.OPERATOR, List.of(ns))))
                .delete(commands + "/claim")
                .then()
                .statusCode(200)
                .body("released", equalTo(true));
        given(first).queryParam("wait", 0).get(commands).then().statusCode(200);
    }

    /**
     * torchrun restarting a job's workers ends the process whose agent polled (rank 0's) in the middle of its long
     * poll, and rank 0 may start again on another node, whose agent has another key. The closed poll lets the claim
     * lapse after the short disconnected grace (5 s), not its whole wait and grace (30 s + 30 s): the next rank 0
     * claims the commands within seconds and is handed the command that came meanwhile.
     */
    @Test
    void aPollWhoseConnectionClosesLetsTheNextRankZeroClaimWithinTheShortGrace() throws Exception {
        String ns = unique("team-restart");
        String job = ns + "/llm";
        String node = unique("restart-node");
        new TestFleet().node(node, "pool").job(job, 0, 0, node);
        String commands = "/api/v1/agents/" + job + "/commands";
        String token = TestTokens.create(unique("agent"), Role.INGEST, List.of(ns));
        String oldKey = AgentKeys.fresh();
        RequestSpecification next = AgentKeys.as(token, AgentKeys.fresh());

        // The old rank 0 long-polls, then its process ends: the connection closes with the poll unanswered.
        try (java.net.Socket s = new java.net.Socket("localhost", io.restassured.RestAssured.port)) {
            s.getOutputStream()
                    .write(("GET " + commands + "?wait=30 HTTP/1.1\r\nHost: localhost\r\n" + "Authorization: Bearer "
                                    + token + "\r\n" + AgentClaims.KEY_HEADER + ": " + oldKey + "\r\n\r\n")
                            .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            // Held while it polls: the other key is refused.
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> given(next).queryParam("wait", 0).get(commands).statusCode() == 409);
        }
        String id = given(TestTokens.asOperator())
                .contentType(ContentType.JSON)
                .body("{\"kind\":\"checkpoint-now\",\"target\":\"" + job + "\",\"params\":{\"deadlineSeconds\":300},"
                        + "\"reason\":\"after a restart\"}")
                .post("/api/v1/actions")
                .then()
                .statusCode(201)
                .extract()
                .path("id");

        // The new rank 0 polls until it claims: within the short grace (the bound is far below the 60 s the claim
        // would hold had the close not counted).
        List<String> delivered = await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(500))
                .until(
                        () -> {
                            Response r = given(next).queryParam("wait", 0).get(commands);
                            return r.statusCode() == 200 ? r.jsonPath().getList("id", String.class) : null;
                        },
                        l -> l != null && !l.isEmpty());
        assertThat(delivered).containsExactly(id + ":checkpoint:" + job);
    }
}
