package io.lifeline.objective;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.objective.JobSample;
import io.lifeline.objective.store.ObjectiveStore;
import io.lifeline.policy.DefaultPolicyService;
import io.lifeline.testing.TestTokens;
import io.lifeline.testing.TwoTeams;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The application's objectives reach the interval advice and the policies: a job under an objective gets the
 * objective's target in {@code GET .../advice}, a job under none gets no {@code objective}.
 */
@QuarkusTest
class ObjectiveAdviceApiTest {

    @Inject
    ObjectiveService objectives;

    @Inject
    DefaultPolicyService policies;

    @Test
    void theAdviceOfAJobUnderAnObjectiveIsReadAgainstItsTarget() throws Exception {
        TwoTeams teams = TwoTeams.get();
        List<ObjectiveStore.Stored> before = objectives.objectives();
        try {
            objectives.replace(
                    List.of(new ObjectiveStore.Stored("advice-check", "job:" + teams.jobA, 0.9, "7d", null, null)),
                    "objective-advice-test");
            objectives.sample(
                    Instant.now(), List.of(new JobSample(teams.jobA, teams.nsA, null, null, Map.of(), Map.of(), null)));
            assertThat(policies.engine().objectives().ettrTarget(teams.jobA)).hasValue(0.9);
            JsonPath under = given(TestTokens.asViewer())
                    .get("/api/v1/jobs/" + teams.jobA + "/advice")
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
            assertThat(under.getDouble("objective.ettrTarget")).isEqualTo(0.9);
            JsonPath none = given(TestTokens.asViewer())
                    .get("/api/v1/jobs/" + teams.jobB + "/advice")
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
            assertThat(none.getMap("$")).containsEntry("objective", null);
        } finally {
            objectives.replace(before, "objective-advice-test");
        }
    }
}
