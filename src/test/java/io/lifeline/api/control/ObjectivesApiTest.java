package io.lifeline.api.control;

import static io.lifeline.testing.TestTokens.asAdmin;
import static io.lifeline.testing.TestTokens.asViewer;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import io.lifeline.domain.job.goodput.Bucket;
import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.objective.JobSample;
import io.lifeline.objective.ObjectiveService;
import io.lifeline.security.identity.Role;
import io.lifeline.testing.ObjectiveSets;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** {@code /api/v1/objectives}: set as a whole by a fleet-wide admin, validated, audited, read within one's scope. */
@QuarkusTest
class ObjectivesApiTest {

    @Inject
    ObjectiveService objectives;

    @Test
    void setValidatedAuditedAndReadWithBudgets() {
        String previous = ObjectiveSets.current();
        try {
            // Every problem of a bad set is named, and nothing changes.
            given(asAdmin())
                    .contentType(ContentType.JSON)
                    .body(
                            "{\"objectives\":[{\"name\":\"ok\",\"scope\":\"team-a\",\"ettrTarget\":1.5,\"window\":\"a week\"}]}")
                    .put("/api/v1/objectives")
                    .then()
                    .statusCode(400)
                    .body("detail", containsString("objectives[0] (ok).scope: 'team-a' is not kind:value"))
                    .body("detail", containsString("window: 'a week' is not a window"));
            given(asAdmin())
                    .contentType(ContentType.JSON)
                    .body("{\"objectives\":[{\"name\":\"x\",\"scope\":\"namespace:a\",\"ettrTarget\":1.5}]}")
                    .put("/api/v1/objectives")
                    .then()
                    .statusCode(400)
                    .body("detail", containsString("ettrTarget: a ratio strictly between 0 and 1"));
            given(asAdmin())
                    .contentType(ContentType.JSON)
                    .body("{\"objectives\":[{\"name\":\"x\",\"scope\":\"namespace:a\",\"ettrTarget\":0.9,\"slo\":1}]}")
                    .put("/api/v1/objectives")
                    .then()
                    .statusCode(400)
                    .body("errors[0].field", equalTo("objectives[0].slo"));
            given(asAdmin())
                    .contentType(ContentType.JSON)
                    .body("[1,2]")
                    .put("/api/v1/objectives")
                    .then()
                    .statusCode(400);
            // Viewers and scoped admins may not set them.
            given(asViewer())
                    .contentType(ContentType.JSON)
                    .body("{\"objectives\":[]}")
                    .put("/api/v1/objectives")
                    .then()
                    .statusCode(403);
            given(asAdmin())
                    .contentType(ContentType.JSON)
                    .body("{\"objectives\":["
                            + "{\"name\":\"obj-api-a\",\"scope\":\"namespace:obj-api-a\",\"ettrTarget\":0.9,"
                            + "\"window\":\"7d\",\"lostGpuHoursLimit\":100},"
                            + "{\"name\":\"obj-api-b\",\"scope\":\"job:obj-api-b/llm\",\"ettrTarget\":0.95,"
                            + "\"window\":\"30d\"},"
                            + "{\"name\":\"obj-api-pool\",\"scope\":\"pool:gpu-obj\",\"ettrTarget\":0.8}]}")
                    .put("/api/v1/objectives")
                    .then()
                    .statusCode(200)
                    .body("source", equalTo("api"))
                    .body("fastBurn", equalTo(14.4f))
                    .body("objectives.name", hasItem("obj-api-pool"));
            given(asAdmin())
                    .queryParam("what", "objectives.updated")
                    .get("/api/v1/audit")
                    .then()
                    .body("items.after", hasItem(containsString("obj-api-a namespace:obj-api-a ettr>=0.9 over 7d")));

            // Two hours of one job of 4 GPUs: 1.5 productive, 0.5 lost to a spot reclaim.
            Instant now = Instant.now().truncatedTo(ChronoUnit.MINUTES);
            TreeMap<Instant, List<JobSample>> h = new TreeMap<>();
            h.put(now.minus(Duration.ofHours(2)), List.of(sample(0, 0, 0)));
            h.put(now.minus(Duration.ofHours(1)), List.of(sample(3_600_000L * 4, 0, 0)));
            h.put(now, List.of(sample(3_600_000L * 6, 1_800_000L * 4, 2.0)));
            objectives.replay(h);

            JsonPath a = given(asAdmin())
                    .get("/api/v1/objectives/obj-api-a")
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
            // Held 8 GPU-h, productive 6: ETTR 0.75; budget 0.1 x 8 = 0.8; spent 2; left -1.2: exhausted.
            assertThat(a.getDouble("heldGpuHours")).isEqualTo(8.0);
            assertThat(a.getDouble("ettr")).isEqualTo(0.75);
            assertThat(a.getDouble("budgetGpuHours")).isEqualTo(0.8, org.assertj.core.data.Offset.offset(1e-9));
            assertThat(a.getDouble("remainingGpuHours")).isEqualTo(-1.2, org.assertj.core.data.Offset.offset(1e-9));
            assertThat(a.getString("state")).isEqualTo("exhausted");
            assertThat(a.getDouble("spentByCause.spot_reclaim")).isEqualTo(2.0);
            assertThat(a.getDouble("lostLimitRemainingGpuHours")).isEqualTo(98.0);
            assertThat(a.getList("jobNames", String.class)).containsExactly("obj-api-a/llm");
            assertThat(given(asAdmin())
                            .queryParam("job", "obj-api-a/llm")
                            .get("/api/v1/objectives")
                            .then()
                            .extract()
                            .jsonPath()
                            .getList("objectives.name", String.class))
                    .as("its namespace's objective, and the pool's it runs in")
                    .containsExactly("obj-api-a", "obj-api-pool");

            // A namespaced viewer sees its namespace's objective only; an owner or pool one spans namespaces.
            String scoped = TestTokens.create("objectives-scoped", Role.VIEWER, List.of("obj-api-a"));
            assertThat(given(TestTokens.auth(scoped))
                            .get("/api/v1/objectives")
                            .then()
                            .statusCode(200)
                            .extract()
                            .jsonPath()
                            .getList("objectives.name", String.class))
                    .containsExactly("obj-api-a");
            given(TestTokens.auth(scoped))
                    .get("/api/v1/objectives/obj-api-pool")
                    .then()
                    .statusCode(404);
            given(asAdmin()).get("/api/v1/objectives/no-such").then().statusCode(404);
        } finally {
            ObjectiveSets.restore(previous);
        }
    }

    private static JobSample sample(long productive, long lost, double lostHours) {
        return new JobSample(
                "obj-api-a/llm",
                "obj-api-a",
                null,
                "gpu-obj",
                Map.of(Bucket.PRODUCTIVE, productive, Bucket.LOST_REWORK, lost),
                lostHours > 0 ? Map.of(IncidentCause.SPOT_RECLAIM, lostHours) : Map.of(),
                null);
    }
}
