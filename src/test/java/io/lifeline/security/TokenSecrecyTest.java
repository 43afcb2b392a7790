package io.lifeline.security;

import static io.lifeline.testing.TestTokens.asAdmin;
import static io.lifeline.testing.TestTokens.auth;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.security.identity.Role;
import io.lifeline.testing.TestTokens;
import io.quarkus.arc.Arc;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * Tokens are shown once, in the answer that creates them: never in a log line (the whole application log since
 * start-up is kept in a file in tests) nor in any later answer.
 */
@QuarkusTest
class TokenSecrecyTest {

    private static final Pattern ANY_TOKEN = Pattern.compile("llt_[a-z2-7]{12}_[A-Za-z0-9_-]{43}");

    @ConfigProperty(name = "quarkus.log.file.path")
    String logFile;

    @ConfigProperty(name = "lifeline.security.bootstrap-token-file")
    String bootstrapFile;

    @Test
    void noTokenAppearsInAnyLogLineOrLaterAnswer() throws Exception {
        List<String> secrets = new ArrayList<>();
        secrets.add(Files.readString(Path.of(bootstrapFile)).trim());
        secrets.add(TestTokens.admin());
        String created = given(asAdmin())
                .contentType("application/json")
                .body("{\"name\":\"leak-check\",\"role\":\"viewer\"}")
                .post("/api/v1/tokens")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath()
                .getString("token");
        secrets.add(created);
        String id = TokenFormat.parse(created).id();
        given(auth(created)).get("/api/v1/events").then().statusCode(200);
        // Failures with a real id and a wrong secret, and garbage: none of it may be echoed.
        String wrong = created.substring(0, created.length() - 3) + "xyz";
        secrets.add(wrong);
        given(auth(wrong)).get("/api/v1/events").then().statusCode(401);
        given().header("Authorization", "Bearer " + created + "trailing")
                .get("/api/v1/events")
                .then()
                .statusCode(401);
        given(asAdmin()).delete("/api/v1/tokens/" + id).then().statusCode(204);
        given(auth(created)).get("/api/v1/events").then().statusCode(401);
        Arc.container().instance(LastUsedRecorder.class).get().flush();

        List<String> answers = List.of(
                given(asAdmin()).get("/api/v1/tokens").asString(),
                given(asAdmin()).get("/api/v1/tokens/" + id).asString(),
                given(asAdmin()).get("/api/v1/security/audit?limit=1000").asString(),
                given(asAdmin()).get("/api/v1/whoami").asString(),
                given(auth(created)).get("/api/v1/events").asString(),
                given().get("/metrics").asString());
        for (String answer : answers) {
            assertThat(ANY_TOKEN.matcher(answer).find()).as(answer).isFalse();
            for (String s : secrets) {
                assertThat(answer)
                        .doesNotContain(
                                TokenFormat.parse(s) == null
                                        ? s
                                        : TokenFormat.parse(s).secret());
            }
        }

        List<String> lines = Files.readAllLines(Path.of(logFile));
        assertThat(lines).as("the log file is written").anyMatch(l -> l.contains("API token created: id=" + id));
        assertThat(lines).anyMatch(l -> l.contains("API token revoked: id=" + id));
        for (String line : lines) {
            assertThat(ANY_TOKEN.matcher(line).find()).as(line).isFalse();
            for (String s : secrets) {
                assertThat(line).doesNotContain(s.substring(17));
            }
        }
    }

    @Test
    void noTokenCreatedInThisRunAppearsInTheLogOrAnyReadAnswer() throws Exception {
        TestTokens.viewer();
        TestTokens.operator();
        TestTokens.ingest();
        java.util.Set<String> tokens = io.lifeline.testing.TokenLeaks.knownTokens();
        assertThat(tokens).hasSizeGreaterThanOrEqualTo(4);
        io.lifeline.testing.TokenLeaks.assertNotLeaked(tokens);
    }

    @Test
    void lastUseIsRecordedWithoutAWritePerRequestAndShownToAdmins() {
        String token = TestTokens.create("last-use", Role.VIEWER, List.of());
        String id = TokenFormat.parse(token).id();
        given(asAdmin())
                .get("/api/v1/tokens/" + id)
                .then()
                .statusCode(200)
                .body("$", org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasKey("lastUsedAt")));
        for (int i = 0; i < 5; i++) {
            given(auth(token)).get("/api/v1/whoami").then().statusCode(200);
        }
        LastUsedRecorder recorder =
                Arc.container().instance(LastUsedRecorder.class).get();
        assertThat(recorder.pending(id)).as("noted in memory, not yet written").isNotNull();
        given(asAdmin()).get("/api/v1/tokens/" + id).then().body("lastUsedAt", org.hamcrest.Matchers.notNullValue());
        assertThat(recorder.flush()).isPositive();
        assertThat(recorder.pending(id)).isNull();
        given(asAdmin()).get("/api/v1/tokens/" + id).then().body("lastUsedAt", org.hamcrest.Matchers.notNullValue());
    }
}
