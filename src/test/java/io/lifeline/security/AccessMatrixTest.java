package io.lifeline.security;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.security.identity.Caller;
import io.lifeline.security.identity.Role;
import io.lifeline.testing.TestTokens;
import io.lifeline.testing.TwoTeams;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The access table ({@link AccessRules}) made into a test matrix and run against the application: every route of the
 * OpenAPI document × anonymous, a fleet-wide token of each role and a token of each role limited to namespace A, each
 * aimed at team B's resources ({@link TwoTeams}). The expected answer comes from the table alone: anonymous on a
 * guarded line 401; a role the line does not name, or a scoped token on a fleet-wide line, 403; a scoped token the
 * line lets through, on another namespace's job, node, action or silence, 404; otherwise the request is passed on to
 * the endpoint, which answers neither 401 nor 403 nor a server error (the bodies are empty objects and the ids of
 * writes unknown, so nothing is changed). {@code ApiSecurityTest} fails the build for a route with no line.
 */
@QuarkusTest
class AccessMatrixTest {

    private static final List<String> METHODS = List.of("get", "put", "post", "delete", "patch");
    private static final Pattern PARAM = Pattern.compile("\\{([^}:]+)(:[^}]*)?}");

    /** A caller of the matrix: its token (null: anonymous) and who the table sees. */
    private record Who(String label, String token, Caller caller) {

        boolean scoped() {
            return caller != null && !caller.isFleetWide();
        }
    }

    @Test
    void everyRouteAnswersEveryCallerAsTheTableSays() throws Exception {
        TwoTeams teams = TwoTeams.get();
        List<Who> callers = callers(teams);
        AccessRules rules = AccessRules.standard(false);
        Map<String, Map<String, Object>> paths = given().queryParam("format", "json")
                .get("/q/openapi")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getMap("paths");
        List<String> wrong = new ArrayList<>();
        int calls = 0;
        for (Map.Entry<String, Map<String, Object>> route : new TreeMap<>(paths).entrySet()) {
            for (String method : route.getValue().keySet()) {
                if (!METHODS.contains(method)) {
                    continue;
                }
                String m = method.toUpperCase(Locale.ROOT);
                for (Who who : callers) {
                    String path = concrete(route.getKey(), m, who, teams);
                    AccessRules.Rule rule = rules.match(m, path);
                    Expected expected = expected(rule, route.getKey(), who);
                    int status = call(m, path, who).statusCode();
                    calls++;
                    if (!expected.accepts(status)) {
                        wrong.add(m + " " + path + " as " + who.label() + ": expected " + expected + " ("
                                + rule.describe() + "), got " + status);
                    }
                }
            }
        }
        assertThat(calls).isGreaterThan(40 * callers.size());
        assertThat(wrong).as("answers that differ from the access table").isEmpty();
    }

    /** What the table says a caller gets. */
    private enum Expected {
        UNAUTHORIZED(401),
        FORBIDDEN(403),
        NOT_FOUND(404),
        PASSED_ON(0);

        private final int status;

        Expected(int status) {
            this.status = status;
        }

        boolean accepts(int got) {
            return this == PASSED_ON ? got != 401 && got != 403 && got < 500 : got == status;
        }

        @Override
        public String toString() {
            return this == PASSED_ON ? "passed on (not 401, 403 or 5xx)" : String.valueOf(status);
        }
    }

    private static Expected expected(AccessRules.Rule rule, String template, Who who) {
        if (who.token() == null) {
            return rule.kind() == AccessRules.Kind.OPEN ? Expected.PASSED_ON : Expected.UNAUTHORIZED;
        }
        if (!rule.allows(who.caller())) {
            return Expected.FORBIDDEN;
        }
        return who.scoped() && namespaced(template) ? Expected.NOT_FOUND : Expected.PASSED_ON;
    }

    /** Routes naming one job, node, action or silence, each of which belongs to a namespace or to the nodes of its jobs. */
    private static boolean namespaced(String template) {
        return template.contains("{namespace}")
                || template.equals("/api/v1/nodes/{name}")
                || template.startsWith("/api/v1/actions/{id}")
                || template.equals("/api/v1/silences/{id}");
    }

    /**
     * The route with its parameters filled in: team B's job, node, action and silence for reads and for scoped
     * callers (who must get 404 and change nothing), unknown ids for a fleet-wide caller's writes.
     */
    private static String concrete(String template, String method, Who who, TwoTeams teams) {
        boolean harmless = method.equals("GET") || who.scoped() || who.token() == null;
        Matcher m = PARAM.matcher(template);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String name = m.group(1);
            String value;
            if (name.equals("namespace")) {
                value = teams.nsB;
            } else if (name.equals("name") && template.startsWith("/api/v1/nodes/")) {
                value = teams.nodeB;
            } else if (name.equals("name") && template.startsWith("/api/v1/policies/")) {
                value = method.equals("GET") ? "stale-checkpoint" : "matrix-unknown";
            } else if (name.equals("name")) {
                value = "train";
            } else if (name.equals("id") && template.startsWith("/api/v1/actions/")) {
                value = harmless ? teams.actions.get("jobB") : "act-00000000000000000000";
            } else if (name.equals("id") && template.startsWith("/api/v1/silences/")) {
                value = harmless ? teams.silences.get(teams.nsB) : "matrix-unknown";
            } else if (name.equals("what")) {
                value = "maintenance";
            } else {
                value = "matrix-unknown";
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }

    private static io.restassured.response.Response call(String method, String path, Who who) {
        RequestSpecification r = who.token() == null ? given() : given(TestTokens.auth(who.token()));
        r = r.redirects().follow(false).urlEncodingEnabled(false);
        if (path.startsWith("/api/v1/agents/")) {
            r = r.queryParam("wait", 0);
        }
        if (!method.equals("GET") && !method.equals("DELETE")) {
            r = r.contentType("application/json").body("{}");
        }
        return r.request(method, path);
    }

    private static List<Who> callers(TwoTeams teams) {
        List<Who> out = new ArrayList<>();
        out.add(new Who("anonymous", null, null));
        for (Role role : List.of(Role.VIEWER, Role.OPERATOR, Role.INGEST, Role.ADMIN)) {
            out.add(new Who(
                    "fleet-wide " + role.wireName(),
                    TestTokens.token(role),
                    Caller.ofToken("matrix", "fleet", role, List.of())));
        }
        for (Role role : List.of(Role.VIEWER, Role.OPERATOR, Role.INGEST)) {
            out.add(new Who(
                    role.wireName() + " of " + teams.nsA,
                    TestTokens.create("matrix-" + role.wireName() + "-" + teams.tag, role, List.of(teams.nsA)),
                    Caller.ofToken("matrix", "scoped", role, List.of(teams.nsA))));
        }
        return out;
    }
}
