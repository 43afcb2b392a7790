package io.lifeline.security;

import static io.lifeline.testing.TestTokens.auth;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import io.lifeline.security.identity.Role;
import io.lifeline.testing.PostgresResource;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * While the database is down, tokens verified recently keep working (ingest must flow through an outage), and a
 * token never seen before is refused with 503, not let through.
 */
@QuarkusTest
class StoreOutageAuthTest {

    @ConfigProperty(name = "lifeline.security.token-cache.ttl")
    Duration ttl;

    @Test
    void knownTokensKeepWorkingAndUnknownOnesGet503WhileTheStoreIsDown() throws Exception {
        String known = TestTokens.create("outage-known", Role.VIEWER, List.of());
        String unseen = TestTokens.create("outage-unseen", Role.VIEWER, List.of());
        given(auth(known)).get("/api/v1/whoami").then().statusCode(200);
        PostgresResource.stopServer();
        try {
            // Past the cache TTL the token must be looked up again, and the lookup fails.
            Thread.sleep(ttl.toMillis() + 500);
            given(auth(known)).get("/api/v1/whoami").then().statusCode(200).body("name", equalTo("outage-known"));
            given(auth(unseen))
                    .get("/api/v1/whoami")
                    .then()
                    .statusCode(503)
                    .contentType("application/problem+json")
                    .header("Retry-After", "5");
        } finally {
            PostgresResource.restartServer();
        }
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(
                        () -> given(auth(unseen)).get("/api/v1/whoami").then().statusCode(200));
        await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> given().get("/q/health/ready").then().statusCode(200));
    }
}
