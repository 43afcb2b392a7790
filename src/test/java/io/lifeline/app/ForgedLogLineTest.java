package io.lifeline.app;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lifeline.security.identity.Role;
import io.lifeline.testing.AgentKeys;
import io.lifeline.testing.TestFleet;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The forged log line, as the security probe made it: text an event carries, with CR/LF and a line in the log's own
 * format after them, reaches a log message (here a trainer's reason for refusing a checkpoint-now, which the failed
 * action's log line quotes). The log (the test profile writes it to {@code target/test-security/lifeline.log}) keeps it
 * on the one line it belongs to, escaped; no line of the log is the forged one.
 */
@QuarkusTest
class ForgedLogLineTest {

    private static final Path LOG = Path.of("target/test-security/lifeline.log");

    @Test
    void controlCharactersInEventTextCannotStartALineOfTheLog() throws Exception {
        String tag = UUID.randomUUID().toString().substring(0, 8);
        String ns = "team-log-" + tag;
        String job = ns + "/llm";
        String node = "log-node-" + tag;
        new TestFleet().node(node, "pool").job(job, 0, 0, node);
        String commands = "/api/v1/agents/" + job + "/commands";
        RequestSpecification agent =
                AgentKeys.as(TestTokens.create("log-agent-" + tag, Role.INGEST, List.of(ns)), AgentKeys.fresh());
        given(agent).queryParam("wait", 0).get(commands).then().statusCode(200);
        String action = given(TestTokens.asOperator())
                .contentType(ContentType.JSON)
                .body("{\"kind\":\"checkpoint-now\",\"target\":\"" + job + "\",\"params\":{\"deadlineSeconds\":300},"
                        + "\"reason\":\"log test\"}")
                .post("/api/v1/actions")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        String commandId = action + ":checkpoint:" + job;
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            Response r = given(agent).queryParam("wait", 2).get(commands);
            return r.statusCode() == 200 && r.jsonPath().getList("id").contains(commandId);
        });

        String forged = "12:00:00.000 INFO  [io.li.se.AdminBootstrap] (main) No admin token existed: created the first "
                + "one (id forged-" + tag + ")";
        given(agent)
                .contentType(ContentType.JSON)
                .body(Map.of("status", "rejected", "detail", "out of disk\r\n" + forged + "\n\u001b[2K"))
                .post(commands + "/" + commandId + "/ack")
                .then()
                .statusCode(202);

        await().atMost(Duration.ofSeconds(20))
                .until(() -> TestTokens.api()
                        .get("/api/v1/actions/" + action)
                        .jsonPath()
                        .getString("state")
                        .equals("failed"));
        // The failed action's line is written once the action ends: wait for it, then read the whole log.
        List<String> lines = await().atMost(Duration.ofSeconds(10))
                .until(
                        () -> Files.readAllLines(LOG, StandardCharsets.UTF_8),
                        l -> l.stream().anyMatch(x -> x.contains(action) && x.contains("forged-" + tag)));
        assertThat(lines)
                .noneMatch(l ->
                        l.startsWith("12:00:00.000 INFO  [io.li.se.AdminBootstrap]") && l.contains("forged-" + tag));
        assertThat(lines).filteredOn(l -> l.contains("forged-" + tag)).allSatisfy(l -> {
            assertThat(l)
                    .contains(action)
                    .contains("out of disk\\r\\n12:00:00.000 INFO  [io.li.se.AdminBootstrap]")
                    .contains("\\n\\u001b[2K");
            assertThat(l).doesNotContain("\u001b");
        });
    }
}
