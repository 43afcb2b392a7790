package io.lifeline.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.agroal.api.AgroalDataSource;
import io.lifeline.security.identity.Role;
import io.lifeline.testing.TestFleet;
import io.lifeline.testing.TestTokens;
import io.lifeline.web.Problem;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * Hostile input on every public endpoint, table by table: oversized and deeply nested bodies and wrong content types
 * on every endpoint that takes a body, path traversal in every id, SQL metacharacters in every filter, and a flood of
 * requests from one token on a rate-limited endpoint. Every refusal is a problem document without a stack trace, no
 * answer is a 5xx, and the database keeps all its tables.
 */
@QuarkusTest
@org.junit.jupiter.api.TestMethodOrder(org.junit.jupiter.api.MethodOrderer.OrderAnnotation.class)
class HostileInputTest {

    /** Above {@code quarkus.http.limits.max-body-size} (4M). */
    private static final int OVERSIZED = 5 * 1024 * 1024;

    private static final int DEPTH = 10_000;

    @TestHTTPResource("/")
    URL base;

    @Inject
    AgroalDataSource dataSource;

    /**
     * An endpoint that reads a body.
     *
     * @param method    HTTP method
     * @param path      path (ids in it are harmless ones)
     * @param role      the role that may call it
     * @param type      a content type it accepts
     * @param strict    whether it declares the types it consumes (so a wrong one is 415); connectors take raw
     *                  provider documents whatever the content type says
     */
    record BodyEndpoint(String method, String path, Role role, String type, boolean strict) {
        @Override
        public String toString() {
            return method + " " + path;
        }
    }

    private static final List<BodyEndpoint> BODY_ENDPOINTS = List.of(
            new BodyEndpoint("POST", "/api/v1/events", Role.INGEST, "application/json", true),
            new BodyEndpoint("POST", "/api/v1/events", Role.INGEST, "application/x-ndjson", true),
            new BodyEndpoint("POST", "/api/v1/actions", Role.OPERATOR, "application/json", true),
            new BodyEndpoint("POST", "/api/v1/tokens", Role.ADMIN, "application/json", true),
            new BodyEndpoint("PUT", "/api/v1/policies/stale-checkpoint", Role.ADMIN, "application/json", true),
            new BodyEndpoint("POST", "/api/v1/silences", Role.OPERATOR, "application/json", true),
            new BodyEndpoint(
                    "POST",
                    "/api/v1/agents/team-hostile/llm/commands/cmd-1/ack",
                    Role.INGEST,
                    "application/json",
                    true),
            new BodyEndpoint("POST", "/api/v1/connectors/aws/eventbridge", Role.INGEST, "application/json", false),
            new BodyEndpoint(
                    "POST",
                    "/api/v1/connectors/aws/imds/i-0123456789abcdef0/spot/instance-action",
                    Role.INGEST,
                    "application/json",
                    false),
            new BodyEndpoint(
                    "POST", "/api/v1/connectors/azure/scheduled-events", Role.INGEST, "application/json", false),
            new BodyEndpoint(
                    "POST", "/api/v1/connectors/gcp/hostile-instance/preempted", Role.INGEST, "text/plain", false),
            new BodyEndpoint("POST", "/api/v1/connectors/torchelastic", Role.INGEST, "application/json", false),
            new BodyEndpoint(
                    "POST", "/api/v1/connectors/dcgm/hostile-node", Role.INGEST, "text/plain; version=0.0.4", false));

    /** A fresh token per endpoint and case: rate limits count per token, and these tests must not starve others. */
    private static RequestSpecification as(Role role) {
        String name = "hostile-" + role.wireName() + "-"
                + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffL);
        return TestTokens.auth(TestTokens.create(name, role, List.of()));
    }

    private static Response send(BodyEndpoint e, String contentType, String body) {
        RequestSpecification r = given(as(e.role())).contentType(contentType);
        // The HTTP client encodes a string only for the types it knows; bytes go as they are.
        r = contentType.startsWith("application/x-www-form-urlencoded")
                ? r.body(body)
                : r.body(body.getBytes(StandardCharsets.UTF_8));
        return r.request(e.method(), e.path());
    }

    /** A refusal: the status asked for, a problem document, nothing of the server's insides. */
    private static void assertProblem(
            SoftAssertions soft, String what, int status, int got, String contentType, String body) {
        soft.assertThat(got).as("%s: status (body %s)", what, cut(body)).isEqualTo(status);
        assertProblemShape(soft, what, contentType, body);
    }

    private static void assertProblemShape(SoftAssertions soft, String what, String contentType, String body) {
        soft.assertThat(contentType)
                .as("%s: content type (body %s)", what, cut(body))
                .startsWith(Problem.MEDIA_TYPE);
        soft.assertThat(body)
                .as("%s: no stack trace", what)
                .doesNotContain("at io.")
                .doesNotContain("Exception")
                .doesNotContain(".java:")
                .doesNotContain("\tat ");
    }

    private static String cut(String s) {
        return s == null ? null : s.length() > 300 ? s.substring(0, 300) + "..." : s;
    }

    /** Hostile requests fail in many ways; none of those failures may log or echo a token. Runs last. */
    @Test
    @org.junit.jupiter.api.Order(Integer.MAX_VALUE)
    void noTokenOfTheRunLeakedIntoTheLogOrAnswers() throws Exception {
        io.lifeline.testing.TokenLeaks.assertNotLeaked(io.lifeline.testing.TokenLeaks.knownTokens());
    }

    @Test
    void oversizedBodiesAreRefusedWith413Problems() throws Exception {
        SoftAssertions soft = new SoftAssertions();
        for (BodyEndpoint e : BODY_ENDPOINTS) {
            String token = TestTokens.create("hostile-big", e.role(), List.of());
            RawAnswer r = announceOversized(e, token, false);
            soft.assertThat(r.status()).as("%s (announced)", e).isEqualTo(413);
            soft.assertThat(r.contentType()).as("%s (announced)", e).startsWith("application/problem+json");
            soft.assertThat(r.body()).as("%s (announced)", e).contains("larger than the limit");
        }
        // Clients that wait for "100 Continue" get the bare 413 (a body would hang the JDK's HttpClient).
        RawAnswer waiting = announceOversized(
                BODY_ENDPOINTS.get(0),
                TestTokens.create("hostile-big", BODY_ENDPOINTS.get(0).role(), List.of()),
                true);
        soft.assertThat(waiting.status()).isEqualTo(413);
        soft.assertThat(waiting.body()).isEmpty();
        soft.assertAll();
        given().get("/q/health/ready").then().statusCode(200);
    }

    /** A status, content type and body read off the wire. */
    record RawAnswer(int status, String contentType, String body) {}

    /**
     * Announces a body larger than the limit (optionally asking for "100 Continue" first, as curl does) and reads the
     * answer, which must come without the body being sent.
     */
    private RawAnswer announceOversized(BodyEndpoint e, String token, boolean expectContinue) throws Exception {
        try (java.net.Socket socket = new java.net.Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(15_000);
            String head = e.method() + " " + e.path() + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: " + e.type()
                    + "\r\nContent-Length: " + OVERSIZED + (expectContinue ? "\r\nExpect: 100-continue" : "")
                    + "\r\nAuthorization: Bearer " + token
                    + "\r\n\r\n";
            socket.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            return readAnswer(new java.io.DataInputStream(socket.getInputStream()));
        }
    }

    /** Reads one HTTP/1.1 answer: status line, headers, and a body of the announced length. */
    private static RawAnswer readAnswer(java.io.DataInputStream in) throws java.io.IOException {
        String status = line(in);
        int length = 0;
        String type = "";
        for (String h = line(in); !h.isEmpty(); h = line(in)) {
            String lower = h.toLowerCase(java.util.Locale.ROOT);
            if (lower.startsWith("content-length:")) {
                length = Integer.parseInt(h.substring(15).trim());
            } else if (lower.startsWith("content-type:")) {
                type = h.substring(13).trim();
            }
        }
        byte[] body = new byte[length];
        in.readFully(body);
        return new RawAnswer(Integer.parseInt(status.split(" ")[1]), type, new String(body, StandardCharsets.UTF_8));
    }

    private static String line(java.io.DataInputStream in) throws java.io.IOException {
        StringBuilder b = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new java.io.EOFException("connection closed after: " + b);
            }
            if (c != '\r') {
                b.append((char) c);
            }
        }
        return b.toString();
    }

    @Test
    void oversizedChunkedBodiesAreRefusedToo() throws Exception {
        byte[] big = ("[\"" + "a".repeat(OVERSIZED) + "\"]").getBytes(StandardCharsets.US_ASCII);
        SoftAssertions soft = new SoftAssertions();
        for (BodyEndpoint e : List.of(BODY_ENDPOINTS.get(0), BODY_ENDPOINTS.get(2), BODY_ENDPOINTS.get(7))) {
            RawAnswer r = sendChunked(e, TestTokens.create("hostile-chunked", e.role(), List.of()), big);
            soft.assertThat(r.status())
                    .as("%s (chunked): status (body %s)", e, cut(r.body()))
                    .isEqualTo(413);
        }
        soft.assertAll();
        given().get("/q/health/ready").then().statusCode(200);
    }

    /**
     * Sends a body in chunks, no length announced, so that the server finds out while reading; the answer is read
     * while the body is still going out, since a server that refuses stops reading and may close the connection
     * before the client has finished (the status line has then arrived already).
     */
    private RawAnswer sendChunked(BodyEndpoint e, String token, byte[] body) throws Exception {
        try (java.net.Socket socket = new java.net.Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(30_000);
            java.io.OutputStream out = socket.getOutputStream();
            out.write((e.method() + " " + e.path() + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: " + e.type()
                            + "\r\nTransfer-Encoding: chunked\r\nAuthorization: Bearer " + token + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            java.io.DataInputStream in = new java.io.DataInputStream(socket.getInputStream());
            CompletableFuture<RawAnswer> answer = CompletableFuture.supplyAsync(() -> {
                try {
                    return readAnswer(in);
                } catch (java.io.IOException failed) {
                    throw new java.io.UncheckedIOException(failed);
                }
            });
            int chunk = 64 * 1024;
            try {
                for (int at = 0; at < body.length && !answer.isDone(); at += chunk) {
                    int n = Math.min(chunk, body.length - at);
                    out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                    out.write(body, at, n);
                    out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                }
                out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
            } catch (java.io.IOException stoppedReading) {
                // The server has refused the body and closed its side; its answer was sent before.
            }
            return answer.get(40, TimeUnit.SECONDS);
        }
    }

    @Test
    void deeplyNestedJsonIsAProblemNotACrash() {
        String nestedArray = "[".repeat(DEPTH) + "]".repeat(DEPTH);
        String nestedObject = "{\"a\":".repeat(DEPTH) + "1" + "}".repeat(DEPTH);
        SoftAssertions soft = new SoftAssertions();
        for (BodyEndpoint e : BODY_ENDPOINTS) {
            for (String body : List.of(nestedArray, nestedObject)) {
                Response r = send(e, e.type(), body);
                assertProblem(
                        soft, e + " nested " + body.charAt(0), 400, r.statusCode(), r.contentType(), r.asString());
            }
        }
        soft.assertAll();
    }

    @Test
    void wrongContentTypesAre415Problems() {
        SoftAssertions soft = new SoftAssertions();
        for (BodyEndpoint e :
                BODY_ENDPOINTS.stream().filter(BodyEndpoint::strict).toList()) {
            for (String type : List.of("text/plain", "application/xml", "application/x-www-form-urlencoded")) {
                Response r = send(e, type, "kind=drain&target=n1");
                assertProblem(soft, e + " as " + type, 415, r.statusCode(), r.contentType(), r.asString());
            }
        }
        soft.assertAll();
    }

    @Test
    void connectorsGivenTheWrongKindOfDocumentRefuseItWithoutCrashing() {
        SoftAssertions soft = new SoftAssertions();
        for (BodyEndpoint e : BODY_ENDPOINTS.stream().filter(b -> !b.strict()).toList()) {
            for (String body : List.of("<xml>not this</xml>", "\u0000\u0001\u0002", "{\"a\":", "")) {
                Response r = send(e, "application/xml", body);
                if (body.isEmpty() && r.statusCode() == 200) {
                    // An empty batch of lines is nothing to do, as an empty event array is.
                    soft.assertThat(r.asString()).as("%s with nothing", e).contains("\"accepted\":0");
                    continue;
                }
                soft.assertThat(r.statusCode()).as("%s with %s", e, body).isEqualTo(400);
                assertProblemShape(soft, e + " with " + body, r.contentType(), r.asString());
            }
        }
        soft.assertAll();
    }

    /** Path traversal, plainly encoded, double-encoded and with encoded dots. */
    private static final List<String> TRAVERSALS = List.of(
            "..%2F..%2Fetc%2Fpasswd",
            "..%252F..%252Fetc%252Fpasswd",
            "%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
            "%252E%252E%252F%252E%252E%252Fetc%252Fpasswd",
            "..%5C..%5Cetc%5Cpasswd",
            "..%00",
            "%2e%2e");

    /**
     * An endpoint with an id in its path.
     *
     * @param method  HTTP method
     * @param path    path with {@code {id}} where the hostile id goes
     * @param role    the role that may call it
     */
    record IdEndpoint(String method, String path, Role role) {}

    private static final List<IdEndpoint> ID_ENDPOINTS = List.of(
            new IdEndpoint("GET", "/api/v1/nodes/{id}", Role.VIEWER),
            new IdEndpoint("GET", "/api/v1/jobs/{id}/llm", Role.VIEWER),
            new IdEndpoint("GET", "/api/v1/jobs/team/{id}", Role.VIEWER),
            new IdEndpoint("GET", "/api/v1/jobs/team/{id}/timeline", Role.VIEWER),
            new IdEndpoint("GET", "/api/v1/jobs/{id}/llm/goodput", Role.VIEWER),
            new IdEndpoint("GET", "/api/v1/actions/{id}", Role.VIEWER),
            new IdEndpoint("POST", "/api/v1/actions/{id}/cancel", Role.OPERATOR),
            new IdEndpoint("GET", "/api/v1/tokens/{id}", Role.ADMIN),
            new IdEndpoint("DELETE", "/api/v1/tokens/{id}", Role.ADMIN),
            new IdEndpoint("POST", "/api/v1/tokens/{id}/revoke", Role.ADMIN),
            new IdEndpoint("GET", "/api/v1/silences/{id}", Role.VIEWER),
            new IdEndpoint("DELETE", "/api/v1/silences/{id}", Role.OPERATOR),
            new IdEndpoint("GET", "/api/v1/policies/{id}", Role.VIEWER),
            new IdEndpoint("PUT", "/api/v1/policies/{id}", Role.ADMIN),
            new IdEndpoint("GET", "/api/v1/agents/{id}/llm/commands?wait=0", Role.INGEST),
            new IdEndpoint("GET", "/api/v1/agents/team/{id}/commands?wait=0", Role.INGEST),
            new IdEndpoint("POST", "/api/v1/agents/team/llm/commands/{id}/ack", Role.INGEST),
            new IdEndpoint("POST", "/api/v1/connectors/dcgm/{id}", Role.INGEST),
            new IdEndpoint("POST", "/api/v1/connectors/gcp/{id}/preempted", Role.INGEST),
            new IdEndpoint("POST", "/api/v1/connectors/aws/imds/{id}/spot-instance-action", Role.INGEST),
            new IdEndpoint("POST", "/api/v1/connectors/aws/imds/i-0123456789abcdef0/{id}", Role.INGEST));

    /** Bodies that would be accepted with a harmless id, so only the id can be the reason for a refusal. */
    private static final Map<String, String> GOOD_BODIES = Map.of(
            "/ack", "{\"status\":\"done\"}",
            "/policies/", "{\"mode\":\"off\"}",
            "/dcgm/", "DCGM_FI_DEV_GPU_TEMP{gpu=\"0\",UUID=\"GPU-1\"} 40\n",
            "/preempted", "TRUE",
            "/imds/", "{\"action\":\"terminate\",\"time\":\"2026-01-01T00:00:00Z\"}");

    @Test
    void traversalInIdsFindsNothingAndReadsNoFile() {
        SoftAssertions soft = new SoftAssertions();
        Map<Role, RequestSpecification> tokens = new java.util.EnumMap<>(Role.class);
        for (IdEndpoint e : ID_ENDPOINTS) {
            String body = GOOD_BODIES.entrySet().stream()
                    .filter(b -> e.path().contains(b.getKey()))
                    .map(Map.Entry::getValue)
                    .findFirst()
                    .orElse("{}");
            for (String id : TRAVERSALS) {
                String path = e.path().replace("{id}", id);
                // A fresh token per request for the rate-limited POSTs; one per role for the rest.
                RequestSpecification auth =
                        e.method().equals("GET") || e.method().equals("DELETE")
                                ? tokens.computeIfAbsent(e.role(), HostileInputTest::as)
                                : as(e.role());
                Response r = given(auth)
                        .urlEncodingEnabled(false)
                        .contentType("application/json")
                        .body(body.getBytes(StandardCharsets.UTF_8))
                        .request(e.method(), path);
                String what = e.method() + " " + path;
                soft.assertThat(r.contentType()).as(what).doesNotStartWith("text/html");
                if (id.equals("%2e%2e") && r.statusCode() < 400) {
                    // "%2e%2e" is ".." (RFC 3986): the path resolves to its parent, checked by the rule table like
                    // any other; where the parent is a listing this token may read, it is answered.
                    soft.assertThat(r.statusCode())
                            .as("%s: status (body %s)", what, cut(r.asString()))
                            .isEqualTo(200);
                    continue;
                }
                soft.assertThat(r.statusCode())
                        .as("%s: status (body %s)", what, cut(r.asString()))
                        .isIn(400, 403, 404);
                assertProblemShape(soft, what, r.contentType(), r.asString());
                soft.assertThat(r.asString()).as(what).doesNotContain("root:");
            }
        }
        soft.assertAll();
    }

    /** Every filter parameter of every listing. */
    private static final Map<String, List<String>> FILTERS = Map.ofEntries(
            Map.entry("/api/v1/events", List.of("subject", "type", "from", "to", "cursor", "order", "limit")),
            Map.entry(
                    "/api/v1/actions",
                    List.of("kind", "state", "target", "requestedBy", "from", "to", "limit", "cursor")),
            Map.entry(
                    "/api/v1/audit",
                    List.of("actor", "what", "target", "actionId", "from", "to", "limit", "cursor", "before")),
            Map.entry("/api/v1/nodes", List.of("pool", "capacityType", "state", "health", "limit", "offset")),
            Map.entry("/api/v1/gpus", List.of("node", "health", "limit", "offset")),
            Map.entry("/api/v1/jobs", List.of("namespace", "state", "breached", "limit", "offset")),
            Map.entry("/api/v1/jobs/team-hostile/llm/timeline", List.of("from", "to", "cursor", "limit")),
            Map.entry("/api/v1/goodput", List.of("by")),
            Map.entry("/api/v1/alerts", List.of("state", "rule", "namespace", "fingerprint", "limit")),
            Map.entry("/api/v1/silences", List.of("expired")),
            Map.entry("/api/v1/security/audit", List.of("limit")));

    private static final List<String> SQL = List.of(
            "' OR 1=1 --",
            ";DROP TABLE event_log;--",
            "x'; DROP TABLE action; --",
            "1 OR 1=1",
            "%' OR ''='",
            "x\u0000y",
            "\" OR \"\"=\"",
            "1) UNION SELECT token_hash FROM api_token --");

    @Test
    void sqlMetacharactersInFiltersAreRefusedOrMatchNothing() throws Exception {
        Set<String> tablesBefore = tables();
        assertThat(tablesBefore).isNotEmpty();
        new TestFleet().node("hostile-sql-node", "pool").job("team-hostile/llm", 0, 0, "hostile-sql-node");
        SoftAssertions soft = new SoftAssertions();
        RequestSpecification admin = TestTokens.asAdmin();
        for (Map.Entry<String, List<String>> f : FILTERS.entrySet()) {
            for (String param : f.getValue()) {
                for (String value : SQL) {
                    Response r = given(admin).queryParam(param, value).get(f.getKey());
                    String what = "GET " + f.getKey() + "?" + param + "=" + value;
                    soft.assertThat(r.statusCode())
                            .as("%s: status (body %s)", what, cut(r.asString()))
                            .isIn(200, 400);
                    if (r.statusCode() == 400) {
                        assertProblemShape(soft, what, r.contentType(), r.asString());
                    } else {
                        soft.assertThat(r.contentType()).as(what).startsWith("application/json");
                        soft.assertThat(r.asString())
                                .as(what)
                                .doesNotContain("token_hash")
                                .doesNotContain("llt_");
                    }
                }
            }
        }
        soft.assertAll();
        assertThat(tables()).as("the schema after the hostile filters").isEqualTo(tablesBefore);
        // The data is still there and still found by honest filters.
        given(admin)
                .queryParam("subject", "hostile-sql-node")
                .get("/api/v1/events")
                .then()
                .statusCode(200)
                .body("events.size()", org.hamcrest.Matchers.greaterThan(0));
        given(admin).get("/api/v1/nodes/hostile-sql-node").then().statusCode(200);
    }

    private Set<String> tables() throws Exception {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("select table_schema || '.' || table_name from information_schema.tables "
                        + "where table_schema not in ('pg_catalog', 'information_schema')")) {
            Set<String> out = new TreeSet<>();
            while (rs.next()) {
                out.add(rs.getString(1));
            }
            return out;
        }
    }

    @Test
    void thousandConcurrentActionRequestsFromOneTokenAreRateLimitedAndTheServerStaysHealthy() throws Exception {
        String node =
                "hostile-flood-" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffL);
        new TestFleet().node(node, "pool");
        String token = TestTokens.create("flood-actions", Role.OPERATOR, List.of());
        HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
        HttpRequest request = HttpRequest.newBuilder(URI.create(base.toString()).resolve("/api/v1/actions"))
                .timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"kind\":\"drain\",\"target\":\"" + node + "\",\"reason\":\"flood\",\"dryRun\":true}"))
                .build();
        List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            sent.add(client.sendAsync(request, HttpResponse.BodyHandlers.ofString()));
        }
        CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
        List<HttpResponse<String>> answers =
                sent.stream().map(CompletableFuture::join).toList();
        Map<Integer, Long> byStatus =
                answers.stream().collect(Collectors.groupingBy(HttpResponse::statusCode, Collectors.counting()));
        assertThat(byStatus.keySet()).as("statuses %s", byStatus).containsOnly(200, 429);
        // A burst of 20 and 2 per second: most of the thousand are refused.
        assertThat(byStatus.get(200)).as("statuses %s", byStatus).isBetween(20L, 200L);
        HttpResponse<String> limited =
                answers.stream().filter(r -> r.statusCode() == 429).findFirst().orElseThrow();
        assertThat(limited.headers().firstValue("Retry-After"))
                .hasValueSatisfying(v -> assertThat(Long.parseLong(v)).isPositive());
        assertThat(limited.headers().firstValue("Content-Type")).hasValue(Problem.MEDIA_TYPE);

        given().get("/q/health/ready").then().statusCode(200).body("status", org.hamcrest.Matchers.equalTo("UP"));
        given(TestTokens.asViewer()).get("/api/v1/actions").then().statusCode(200);
        given(TestTokens.asViewer()).get("/api/v1/nodes/" + node).then().statusCode(200);
    }
}
