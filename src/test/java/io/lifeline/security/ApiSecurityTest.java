package io.lifeline.security;

import static io.lifeline.testing.TestTokens.asAdmin;
import static io.lifeline.testing.TestTokens.asIngest;
import static io.lifeline.testing.TestTokens.asOperator;
import static io.lifeline.testing.TestTokens.asViewer;
import static io.lifeline.testing.TestTokens.auth;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import io.lifeline.security.identity.Role;
import io.lifeline.testing.CloudEvents;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;

@QuarkusTest
class ApiSecurityTest {

    @io.quarkus.test.common.http.TestHTTPResource("/")
    java.net.URL baseUrl;

    private static String event() {
        return CloudEvents.nodeRegistered(
                CloudEvents.uniqueId(),
                "sec-node-" + CloudEvents.uniqueId().substring(0, 8),
                Instant.now().truncatedTo(ChronoUnit.MILLIS));
    }

    @Test
    void noTokenGets401ProblemWithChallenge() {
        given().get("/api/v1/events")
                .then()
                .statusCode(401)
                .contentType("application/problem+json")
                .header("WWW-Authenticate", startsWith("Bearer"))
                .body("status", equalTo(401))
                .body("type", equalTo("/problems/unauthorized"))
                .body("detail", containsString("bearer token is required"));
        given().contentType("application/json")
                .body(event())
                .post("/api/v1/events")
                .then()
                .statusCode(401);
        given().contentType("application/json")
                .body("{}")
                .post("/api/v1/tokens")
                .then()
                .statusCode(401);
    }

    @Test
    void malformedOrForgedTokensGet401() {
        given().header("Authorization", "Basic dXNlcjpwYXNz")
                .get("/api/v1/events")
                .then()
                .statusCode(401)
                .body("detail", containsString("does not carry a Lifeline token"));
        given().header("Authorization", "Bearer not-a-token")
                .get("/api/v1/events")
                .then()
                .statusCode(401);
        String real = TestTokens.viewer();
        String unknownId = "llt_aaaaaaaaaaaa" + real.substring(16);
        given().spec(auth(unknownId))
                .get("/api/v1/events")
                .then()
                .statusCode(401)
                .header("WWW-Authenticate", containsString("invalid_token"))
                .body("detail", equalTo("this token is not valid"));
        String wrongSecret = real.substring(0, real.length() - 4) + (real.endsWith("AAAA") ? "BBBB" : "AAAA");
        given().spec(auth(wrongSecret))
                .get("/api/v1/events")
                .then()
                .statusCode(401)
                .body("detail", equalTo("this token is not valid"));
        given().spec(auth(real)).get("/api/v1/events").then().statusCode(200);
    }

    @Test
    void viewerMayReadButNotCreateTokensOrActions() {
        given(asViewer()).get("/api/v1/events").then().statusCode(200);
        given(asViewer())
                .contentType("application/json")
                .body("{\"name\":\"x\",\"role\":\"viewer\"}")
                .post("/api/v1/tokens")
                .then()
                .statusCode(403)
                .contentType("application/problem+json")
                .body("type", equalTo("/problems/forbidden"))
                .body("detail", containsString("needs admin"));
        given(asViewer())
                .contentType("application/json")
                .body("{}")
                .post("/api/v1/actions")
                .then()
                .statusCode(403)
                .body("detail", containsString("needs operator"));
        given(asViewer())
                .contentType("application/json")
                .body(event())
                .post("/api/v1/events")
                .then()
                .statusCode(403);
    }

    @Test
    void operatorMayNotCreateOrListTokens() {
        given(asOperator())
                .contentType("application/json")
                .body("{\"name\":\"x\",\"role\":\"viewer\"}")
                .post("/api/v1/tokens")
                .then()
                .statusCode(403);
        given(asOperator()).get("/api/v1/tokens").then().statusCode(403);
        given(asOperator()).get("/api/v1/security/audit").then().statusCode(403);
    }

    @Test
    void ingestTokenMayPostEventsButNotReadThem() {
        given(asIngest()).get("/api/v1/events").then().statusCode(403);
        given(asIngest())
                .contentType("application/cloudevents+json")
                .body(event())
                .post("/api/v1/events")
                .then()
                .statusCode(200)
                .body("accepted", equalTo(1));
        given(asOperator())
                .contentType("application/cloudevents+json")
                .body(event())
                .post("/api/v1/events")
                .then()
                .statusCode(200);
        given(asIngest()).get("/api/v1/whoami").then().statusCode(200).body("role", equalTo("ingest"));
    }

    @Test
    void unnamedApiPathsAreDeniedByDefault() {
        given().contentType("application/json")
                .body("{}")
                .post("/api/v1/nodes/n1/cordon")
                .then()
                .statusCode(401);
        given(asAdmin())
                .contentType("application/json")
                .body("{}")
                .post("/api/v1/nodes/n1/cordon")
                .then()
                .statusCode(403)
                .body("detail", containsString("no role may POST"));
        given(asAdmin())
                .contentType("application/json")
                .body(event())
                .put("/api/v1/events")
                .then()
                .statusCode(403);
        // Reads are the viewer's whatever the path: an unknown one is not refused by the table.
        assertThat(given(asViewer()).get("/api/v1/no-such-thing").statusCode()).isNotIn(401, 403);
    }

    @Test
    void respelledPathsDoNotGetPastTheTable() {
        for (String path : List.of(
                "/api/v1/tokens;x=1",
                "/api//v1/tokens",
                "/api/v1/./tokens",
                "/api/v1/%74okens",
                "/api/v1/events/../tokens")) {
            int status = given(asViewer())
                    .urlEncodingEnabled(false)
                    .get(path)
                    .then()
                    .extract()
                    .statusCode();
            assertThat(status).as(path).isIn(403, 404);
        }
    }

    @Test
    void adminCreatesListsAndRevokesTokensAndRevocationTakesEffectAtOnce() {
        Response created = given(asAdmin())
                .contentType("application/json")
                .body(
                        "{\"name\":\"ci-bot\",\"role\":\"operator\",\"namespaces\":[\"team-b\",\"team-a\"],\"expiresIn\":\"P30D\"}")
                .post("/api/v1/tokens");
        created.then()
                .statusCode(201)
                .header("Cache-Control", "no-store")
                .header("Location", containsString("/api/v1/tokens/"))
                .body("token", startsWith("llt_"))
                .body("role", equalTo("operator"))
                .body("namespaces", equalTo(List.of("team-a", "team-b")));
        String token = created.jsonPath().getString("token");
        String id = created.jsonPath().getString("id");
        assertThat(token).startsWith("llt_" + id + "_");

        given(auth(token))
                .get("/api/v1/whoami")
                .then()
                .statusCode(200)
                .body("name", equalTo("ci-bot"))
                .body("tokenId", equalTo(id))
                .body("fleetWide", equalTo(false))
                .body("namespaces", equalTo(List.of("team-a", "team-b")));
        given(auth(token)).get("/api/v1/events").then().statusCode(200);

        String list = given(asAdmin())
                .get("/api/v1/tokens")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertThat(list).contains(id).contains("ci-bot").doesNotContain(token).doesNotContain(token.substring(17));
        given(asAdmin())
                .get("/api/v1/tokens/" + id)
                .then()
                .statusCode(200)
                .body("status", equalTo("active"))
                .body("$", org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasKey("token")));

        given(asAdmin()).delete("/api/v1/tokens/" + id).then().statusCode(204);
        given(auth(token))
                .get("/api/v1/events")
                .then()
                .statusCode(401)
                .body("detail", equalTo("this token has been revoked"));
        given(asAdmin())
                .get("/api/v1/tokens/" + id)
                .then()
                .body("status", equalTo("revoked"))
                .body("revokedBy", startsWith("test-admin ["));
        given(asAdmin()).post("/api/v1/tokens/" + id + "/revoke").then().statusCode(204);
        given(asAdmin())
                .delete("/api/v1/tokens/nosuchtoken1")
                .then()
                .statusCode(404)
                .contentType("application/problem+json");

        String audit = given(asAdmin())
                .get("/api/v1/security/audit")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertThat(audit)
                .contains("token.created")
                .contains("token.revoked")
                .contains(id)
                .doesNotContain(token.substring(17));
    }

    @Test
    void expiredTokenGets401() throws Exception {
        String token = given(asAdmin())
                .contentType("application/json")
                .body("{\"name\":\"short\",\"role\":\"viewer\",\"expiresIn\":\"PT1S\"}")
                .post("/api/v1/tokens")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath()
                .getString("token");
        given(auth(token)).get("/api/v1/events").then().statusCode(200);
        Thread.sleep(Duration.ofMillis(1200).toMillis());
        given(auth(token))
                .get("/api/v1/events")
                .then()
                .statusCode(401)
                .body("detail", equalTo("this token has expired"));
    }

    @Test
    void badTokenRequestsGetProblemsNamingTheField() {
        given(asAdmin())
                .contentType("application/json")
                .body("{\"name\":\"x\",\"role\":\"root\"}")
                .post("/api/v1/tokens")
                .then()
                .statusCode(400)
                .body("detail", startsWith("role: must be one of"));
        given(asAdmin())
                .contentType("application/json")
                .body("{\"role\":\"viewer\"}")
                .post("/api/v1/tokens")
                .then()
                .statusCode(400)
                .body("detail", startsWith("name: required"));
        given(asAdmin())
                .contentType("application/json")
                .body("{\"name\":\"x\",\"role\":\"admin\",\"namespaces\":[\"a\"]}")
                .post("/api/v1/tokens")
                .then()
                .statusCode(400)
                .body("detail", containsString("fleet-wide"));
        given(asAdmin())
                .contentType("application/json")
                .body("{\"name\":\"x\",\"role\":\"viewer\",\"namespaces\":[\"A_B\"]}")
                .post("/api/v1/tokens")
                .then()
                .statusCode(400)
                .body("detail", startsWith("namespaces:"));
        given(asAdmin())
                .contentType("application/json")
                .body("{\"name\":\"x\",\"role\":\"viewer\",\"expiresAt\":\"2001-01-01T00:00:00Z\"}")
                .post("/api/v1/tokens")
                .then()
                .statusCode(400)
                .body("detail", startsWith("expiresAt:"));
    }

    @Test
    void errorAnswersCarryNoStackTrace() {
        List<Response> answers = List.of(
                given(asAdmin())
                        .contentType("application/json")
                        .body("{\"name\": ")
                        .post("/api/v1/tokens"),
                given(asAdmin())
                        .contentType("application/json")
                        .body("{\"name\":\"x\",\"role\":\"viewer\",\"expiresIn\":\"soon\"}")
                        .post("/api/v1/tokens"),
                given(asAdmin()).contentType("text/plain").body("x").post("/api/v1/tokens"),
                given(asViewer()).queryParam("from", "yesterday").get("/api/v1/events"),
                given(asAdmin()).queryParam("limit", "many").get("/api/v1/security/audit"),
                given().header("Authorization", "Bearer llt_").get("/api/v1/events"));
        for (Response r : answers) {
            assertThat(r.statusCode()).isBetween(400, 499);
            assertThat(r.asString())
                    .doesNotContain("Exception")
                    .doesNotContain("\tat ")
                    .doesNotContain(".java:");
        }
    }

    @Test
    void securityHeadersOnApiUiAndHealthAnswers() {
        for (Response r : List.of(
                given(asViewer()).get("/api/v1/events"),
                given().get("/api/v1/events"),
                given().get("/q/health/live"),
                given().get("/"),
                given().get("/q/openapi"))) {
            r.then()
                    .header("X-Content-Type-Options", "nosniff")
                    .header("X-Frame-Options", "DENY")
                    .header("Referrer-Policy", "same-origin")
                    .header("Content-Security-Policy", containsString("frame-ancestors 'none'"));
        }
        given(asViewer())
                .get("/api/v1/events")
                .then()
                .header("Content-Security-Policy", startsWith("default-src 'none'"))
                .header("Cache-Control", "no-store");
        given().get("/").then().header("Content-Security-Policy", containsString("'unsafe-inline'"));
    }

    @Test
    void oversizedBodyIsRefusedWithoutWaitingForItWithAndWithoutAToken() throws Exception {
        // A token never used before: its check goes to the store while the body waits.
        String fresh = TestTokens.create("big-body", Role.INGEST, List.of());
        assertThat(statusLineFor100Continue("")).startsWith("HTTP/1.1 401");
        assertThat(statusLineFor100Continue(fresh)).startsWith("HTTP/1.1 413");
        given(auth(fresh))
                .contentType("application/json")
                .body("[]")
                .post("/api/v1/events")
                .then()
                .statusCode(200);
        given().get("/q/health/live").then().statusCode(200);
    }

    /** Sends only the head of a 10 MB POST that waits for "100 Continue", and returns the first status line. */
    private String statusLineFor100Continue(String token) throws Exception {
        try (java.net.Socket socket = new java.net.Socket(baseUrl.getHost(), baseUrl.getPort())) {
            socket.setSoTimeout(15_000);
            String head = "POST /api/v1/events HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + (10 * 1024 * 1024) + "\r\nExpect: 100-continue\r\n"
                    + (token.isEmpty() ? "" : "Authorization: Bearer " + token + "\r\n") + "\r\n";
            socket.getOutputStream().write(head.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            java.io.BufferedReader in = new java.io.BufferedReader(
                    new java.io.InputStreamReader(socket.getInputStream(), java.nio.charset.StandardCharsets.US_ASCII));
            return String.valueOf(in.readLine());
        }
    }

    @Test
    void healthMetricsAndOpenApiAreOpenAndTheDocumentDeclaresTheToken() {
        given().get("/q/health/live").then().statusCode(200);
        given().get("/metrics").then().statusCode(200).body(containsString("lifeline_security_auth_failures_total"));
        given().get("/q/openapi")
                .then()
                .statusCode(200)
                .body(containsString("lifelineToken"))
                .body(containsString("bearer"));
    }

    /**
     * Every route the application serves (as its OpenAPI document lists them) is decided by a line of the access
     * table written for it: an {@code /api} route must not fall through to the deny-by-default line, and a route
     * outside {@code /api} (open to everyone) must be one of the few known to be open. A new route without its rule
     * fails here.
     */
    @Test
    void everyRouteInTheOpenApiDocumentHasAnAccessRule() {
        io.restassured.path.json.JsonPath doc = given().queryParam("format", "json")
                .get("/q/openapi")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        java.util.Map<String, java.util.Map<String, Object>> paths = doc.getMap("paths");
        assertThat(paths).containsKeys("/api/v1/jobs", "/api/v1/events", "/api/v1/actions", "/api/v1/tokens");
        List<String> openOutsideApi = List.of("/auth/sso");
        List<String> missing = new java.util.ArrayList<>();
        int routes = 0;
        for (boolean metricsProtected : List.of(false, true)) {
            AccessRules rules = AccessRules.standard(metricsProtected);
            for (var path : paths.entrySet()) {
                String concrete = path.getKey().replaceAll("\\{[^}]*}", "x");
                for (String method : path.getValue().keySet()) {
                    if (!List.of("get", "put", "post", "delete", "patch").contains(method)) {
                        continue;
                    }
                    routes++;
                    AccessRules.Rule rule = rules.match(method.toUpperCase(java.util.Locale.ROOT), concrete);
                    boolean api = concrete.startsWith("/api/");
                    if (api
                            ? rule.kind() == AccessRules.Kind.DENY
                            : openOutsideApi.stream().noneMatch(concrete::startsWith)) {
                        missing.add(method.toUpperCase(java.util.Locale.ROOT) + " " + path.getKey() + " -> "
                                + rule.describe());
                    }
                }
            }
        }
        assertThat(routes).isGreaterThan(40);
        assertThat(missing)
                .as("routes without an access rule of their own (add a line to AccessRules.standard)")
                .isEmpty();
    }

    @Test
    void corsPreflightIsNotAnswered() {
        given().header("Origin", "https://evil.example")
                .header("Access-Control-Request-Method", "GET")
                .options("/api/v1/events")
                .then()
                .header("Access-Control-Allow-Origin", org.hamcrest.Matchers.nullValue());
    }
}
