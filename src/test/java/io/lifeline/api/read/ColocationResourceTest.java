package io.lifeline.api.read;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import io.lifeline.domain.policy.colocation.LendingWindow;
import io.lifeline.domain.policy.colocation.WindowSchedule;
import io.lifeline.policy.ColocationService;
import io.lifeline.security.identity.Role;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

@QuarkusTest
class ColocationResourceTest {

    @Inject
    ColocationService colocation;

    @Test
    void theStatusShowsAnOpenWindowAndItsPool() {
        colocation.addWindow(new LendingWindow(
                "api-test",
                "api-test-pool",
                new WindowSchedule.Cycle(Instant.now().minusSeconds(60), Duration.ofHours(2), Duration.ofHours(1))));
        given(TestTokens.auth(TestTokens.token(Role.VIEWER)))
                .get("/api/v1/colocation")
                .then()
                .statusCode(200)
                .body("windows.find { it.name == 'api-test' }.open", equalTo(true))
                .body("windows.find { it.name == 'api-test' }.pool", equalTo("api-test-pool"))
                .body("pools.find { it.pool == 'api-test-pool' }.lending", equalTo(true))
                .body("pools.find { it.pool == 'api-test-pool' }.cost.gpusLentNow", equalTo(0))
                .body("pools.pool", hasItem("api-test-pool"));
        given(TestTokens.auth(TestTokens.token(Role.VIEWER)))
                .get("/api/v1/colocation/jobs/nobody/none")
                .then()
                .statusCode(200)
                .body("size()", equalTo(0));
    }
}
