package io.lifeline.security;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;

import io.lifeline.testing.TestTokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** With {@code lifeline.security.metrics-protected=true}, {@code /metrics} needs a viewer token. */
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
        public void stop() {
        }
    }

    @Test
    void metricsNeedAViewerToken() {
        given().get("/metrics").then().statusCode(401).header("WWW-Authenticate", containsString("Bearer"));
        given(TestTokens.asIngest()).get("/metrics").then().statusCode(403);
        given(TestTokens.asViewer()).get("/metrics").then().statusCode(200)
                .body(containsString("lifeline_security_auth_failures_total"));
        // Health stays open for the kubelet.
        given().get("/q/health/live").then().statusCode(200);
    }
}
