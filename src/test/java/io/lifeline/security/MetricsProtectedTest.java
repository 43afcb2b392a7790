package io.lifeline.security;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

import io.lifeline.testing.TestTokens;
import io.lifeline.testing.TwoTeams;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * With {@code lifeline.security.metrics-protected=true}, {@code /metrics} needs a viewer token, and a token limited to
 * namespaces scrapes only its jobs' series and those of the nodes they run on.
 */
@QuarkusTest
@QuarkusTestResource(value = MetricsProtectedTest.Protected.class, restrictToAnnotatedClass = true)
class MetricsProtectedTest {

    /** Turns the protection on for this class's application. */
    public static class Protected implements QuarkusTestResourceLifecycleManager {
        @Override
        public Map<String, String> start() {
            return Map.of("lifeline.security.metrics-protected", "true");
        }

        @Override
        public void stop() {}
    }

    @Test
    void metricsNeedAViewerToken() {
        given().get("/metrics").then().statusCode(401).header("WWW-Authenticate", containsString("Bearer"));
        given(TestTokens.asIngest()).get("/metrics").then().statusCode(403);
        given(TestTokens.asViewer())
                .get("/metrics")
                .then()
                .statusCode(200)
                .body(containsString("lifeline_security_auth_failures_total"));
        // Health stays open for the kubelet.
        given().get("/q/health/live").then().statusCode(200);
    }

    @Test
    void aScopedTokenScrapesOnlyItsJobsAndTheirNodes() throws Exception {
        TwoTeams teams = TwoTeams.get();
        String ofA = "job_namespace=\"" + teams.nsA + "\"";
        String ofB = "job_namespace=\"" + teams.nsB + "\"";
        // The job series are set from the model's snapshots, about once a second.
        long until = System.currentTimeMillis() + 30_000;
        String all = "";
        while (System.currentTimeMillis() < until && !(all.contains(ofA) && all.contains(ofB))) {
            Thread.sleep(200);
            all = given(TestTokens.asViewer())
                    .get("/metrics")
                    .then()
                    .statusCode(200)
                    .extract()
                    .asString();
        }
        assertThat(all).contains(ofA, ofB, "lifeline_jobs{", "process_uptime_seconds");

        String scoped = given(TestTokens.auth(teams.viewerA))
                .accept("text/plain")
                .get("/metrics")
                .then()
                .statusCode(200)
                .contentType(containsString("text/plain"))
                .extract()
                .asString();
        assertThat(scoped)
                .contains("lifeline_job_world_size{", ofA, "# TYPE lifeline_job_world_size gauge")
                .doesNotContain(
                        ofB,
                        teams.nodeB,
                        "lifeline_jobs{",
                        "lifeline_gpus{",
                        "process_uptime_seconds",
                        "lifeline_security_auth_failures_total");
        for (String line : scoped.split("\n")) {
            if (!line.startsWith("#")) {
                assertThat(line)
                        .as("every series is one of A's jobs or of a node they run on")
                        .matches(l -> l.contains(ofA)
                                || l.contains("node=\"" + teams.nodeA + "\"")
                                || l.contains("node=\"" + teams.nodeS + "\""));
            }
        }
        // OpenMetrics, what the endpoint answers unless plain text is asked for, is cut the same way.
        String open = given(TestTokens.auth(teams.viewerA))
                .accept("application/openmetrics-text; version=1.0.0")
                .get("/metrics")
                .then()
                .statusCode(200)
                .contentType(containsString("openmetrics"))
                .extract()
                .asString();
        assertThat(open).contains(ofA).doesNotContain(ofB).endsWith("# EOF\n");
    }
}
