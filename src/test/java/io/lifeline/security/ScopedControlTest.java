package io.lifeline.security;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.security.identity.Role;
import io.lifeline.testing.TestTokens;
import io.lifeline.testing.TwoTeams;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a caller limited to namespace A gets of the control routes: the agent command queue of another namespace's job
 * answers 404, as an unknown job (not 403); the policies show every policy, with only the overrides that can apply to
 * A's jobs (its namespaces, the pools its jobs run in).
 */
@QuarkusTest
class ScopedControlTest {

    private static final String POLICY = "stale-checkpoint";

    private TwoTeams teams;

    @BeforeEach
    void seed() throws Exception {
        teams = TwoTeams.get();
    }

    @Test
    void commandPollsAndAcksOfAnotherNamespacesJobAre404() {
        String agentA = TestTokens.create("scope-agent-a-" + teams.tag, Role.INGEST, List.of(teams.nsA));
        String operatorA = TestTokens.create("scope-operator-a-" + teams.tag, Role.OPERATOR, List.of(teams.nsA));
        // One agent's key: the job's commands are claimed by whoever polls with it, whichever token carries it.
        String key = io.lifeline.testing.AgentKeys.fresh();
        for (String token : List.of(agentA, operatorA)) {
            given(io.lifeline.testing.AgentKeys.as(token, key))
                    .queryParam("wait", 0)
                    .get("/api/v1/agents/" + teams.jobA + "/commands")
                    .then()
                    .statusCode(200);
            String hidden = given(io.lifeline.testing.AgentKeys.as(token, key))
                    .queryParam("wait", 0)
                    .get("/api/v1/agents/" + teams.jobB + "/commands")
                    .then()
                    .statusCode(404)
                    .extract()
                    .path("detail");
            assertThat(hidden).isEqualTo("no job named '" + teams.jobB + "'");
            given(TestTokens.auth(token))
                    .contentType(ContentType.JSON)
                    .body(Map.of("status", "accepted"))
                    .post("/api/v1/agents/" + teams.jobB + "/commands/c-1/ack")
                    .then()
                    .statusCode(404);
        }
        // A fleet-wide agent token serves every namespace; a viewer is still refused by role.
        given(io.lifeline.testing.AgentKeys.as(TestTokens.ingest(), key))
                .queryParam("wait", 0)
                .get("/api/v1/agents/" + teams.jobB + "/commands")
                .then()
                .statusCode(200);
        given(TestTokens.auth(teams.viewerA))
                .queryParam("wait", 0)
                .get("/api/v1/agents/" + teams.jobA + "/commands")
                .then()
                .statusCode(403);
    }

    @Test
    void policiesShowOnlyTheOverridesThatCanApplyToTheCallersJobs() {
        JsonPath before = given(TestTokens.asAdmin())
                .get("/api/v1/policies/" + POLICY)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        String mode = before.getString("mode");
        Map<String, Object> overrides = before.getMap("overrides");
        String otherPool = "scope-other-pool-" + teams.tag;
        try {
            put(
                    mode,
                    Map.of(
                            "namespace:" + teams.nsA,
                            "dry-run",
                            "namespace:" + teams.nsB,
                            "off",
                            "pool:scope-pool",
                            "dry-run",
                            "pool:" + otherPool,
                            "off"));

            JsonPath mine = given(TestTokens.auth(teams.viewerA))
                    .get("/api/v1/policies/" + POLICY)
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
            assertThat(mine.getString("mode")).isEqualTo(mode);
            assertThat(mine.getMap("overrides")).containsOnlyKeys("namespace:" + teams.nsA, "pool:scope-pool");
            List<Map<String, Object>> listed = given(TestTokens.auth(teams.viewerA))
                    .get("/api/v1/policies")
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath()
                    .getList("$");
            assertThat(listed)
                    .extracting(p -> p.get("name"))
                    .contains(POLICY, "notice-checkpoint-drain", "fatal-xid-drain");
            @SuppressWarnings("unchecked")
            Map<String, Object> listedOverrides = (Map<String, Object>) listed.stream()
                    .filter(p -> POLICY.equals(p.get("name")))
                    .findFirst()
                    .orElseThrow()
                    .get("overrides");
            assertThat(listedOverrides).containsOnlyKeys("namespace:" + teams.nsA, "pool:scope-pool");

            assertThat(given(TestTokens.asViewer())
                            .get("/api/v1/policies/" + POLICY)
                            .then()
                            .statusCode(200)
                            .extract()
                            .jsonPath()
                            .getMap("overrides"))
                    .containsKeys(
                            "namespace:" + teams.nsA, "namespace:" + teams.nsB, "pool:scope-pool", "pool:" + otherPool);
        } finally {
            put(mode, overrides);
        }
    }

    private static void put(String mode, Map<String, ?> overrides) {
        given(TestTokens.asAdmin())
                .contentType(ContentType.JSON)
                .body(Map.of("mode", mode, "overrides", overrides))
                .put("/api/v1/policies/" + POLICY)
                .then()
                .statusCode(200);
    }
}
