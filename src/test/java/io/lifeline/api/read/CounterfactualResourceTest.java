package io.lifeline.api.read;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.runtime.CounterfactualService;
import io.lifeline.testing.TestTokens;
import io.lifeline.testing.TwoTeams;
import io.quarkus.arc.Arc;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /api/v1/whatif/counterfactual}: the recent jobs' ETTR with and without the notice policy, counted over
 * the jobs the caller may see.
 */
@QuarkusTest
class CounterfactualResourceTest {

    @Test
    void answersTheLatestReplaysScopedToTheCallersNamespaces() throws Exception {
        TwoTeams teams = TwoTeams.get();
        Arc.container().instance(CounterfactualService.class).get().refresh().get(60, TimeUnit.SECONDS);

        JsonPath all = given(TestTokens.asViewer())
                .get("/api/v1/whatif/counterfactual")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(all.getString("computedAt")).isNotNull();
        assertThat(all.getString("noticePolicyMode")).isIn("on", "off", "dry-run");
        assertThat(all.getInt("jobs")).isGreaterThanOrEqualTo(4);
        assertThat(all.getDouble("ettrWith")).isBetween(0.0, 1.0);
        assertThat(all.getDouble("ettrWithout")).isLessThanOrEqualTo(all.getDouble("ettrWith") + 1e-9);
        assertThat(all.getList("notes")).isNotNull();
        assertThat(all.getList("perJob")).isNotNull();

        JsonPath a = given(TestTokens.auth(teams.viewerA))
                .get("/api/v1/whatif/counterfactual")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        // Team A's two jobs, never team B's: the fleet's count is larger.
        assertThat(a.getInt("jobs")).isEqualTo(2);
        assertThat(all.getInt("jobs")).isGreaterThan(a.getInt("jobs"));
        assertThat(a.getList("perJob", java.util.Map.class))
                .allMatch(j -> String.valueOf(j.get("job")).startsWith(teams.nsA + "/"));

        given().get("/api/v1/whatif/counterfactual").then().statusCode(401);
    }
}
