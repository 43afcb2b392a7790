package io.lifeline.security;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.security.identity.Role;
import io.lifeline.testing.TestTokens;
import io.lifeline.testing.TwoTeams;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two namespaces, A and B, each with jobs on its own node and one on a node they share, events, actions with their
 * audit entries, alerts and a silence: a viewer limited to A sees exactly A's share of every read (totals included),
 * gets 404 for B's jobs and nodes, and a fleet-wide viewer sees both.
 */
@QuarkusTest
class NamespaceScopeTest {

    private static final List<String> SUBRESOURCES = List.of(
            "",
            "/timeline",
            "/incidents",
            "/checkpoints",
            "/freshness",
            "/membership",
            "/goodput",
            "/advice",
            "/stragglers",
            "/attempts",
            "/recovery");

    private static TwoTeams teams;

    @BeforeEach
    void seed() throws Exception {
        teams = TwoTeams.get();
    }

    private static String fingerprint(String suffix) {
        return teams.fingerprint(suffix);
    }

    private static RequestSpecification asA() {
        return TestTokens.auth(teams.viewerA);
    }

    private static RequestSpecification asAll() {
        return TestTokens.asViewer();
    }

    private static JsonPath get(RequestSpecification who, String path) {
        return given(who).get(path).then().statusCode(200).extract().jsonPath();
    }

    @Test
    void jobListsAndTotalsCountOnlyTheCallersNamespaces() {
        JsonPath all = get(asA(), "/api/v1/jobs?limit=1000");
        assertThat(all.getList("items.namespace", String.class)).containsOnly(teams.nsA);
        assertThat(all.getInt("total")).isEqualTo(2);
        JsonPath paged = get(asA(), "/api/v1/jobs?limit=1");
        assertThat(paged.getInt("total")).isEqualTo(2);
        assertThat(paged.getList("items.name", String.class)).hasSize(1);
        // The next page by the cursor, as on every paged list; the last page has none.
        JsonPath second = get(asA(), "/api/v1/jobs?limit=1&cursor=" + paged.getString("nextCursor"));
        assertThat(second.getInt("offset")).isEqualTo(1);
        assertThat(second.getList("items.name", String.class))
                .hasSize(1)
                .doesNotContainAnyElementsOf(paged.getList("items.name", String.class));
        assertThat(second.getString("nextCursor")).isNull();
        assertThat(all.getString("nextCursor")).isNull();
        assertThat(get(asA(), "/api/v1/jobs?namespace=" + teams.nsB).getInt("total"))
                .isZero();

        assertThat(get(asAll(), "/api/v1/jobs?namespace=" + teams.nsB).getInt("total"))
                .isEqualTo(2);
        assertThat(get(asAll(), "/api/v1/jobs?namespace=" + teams.nsA).getInt("total"))
                .isEqualTo(2);
    }

    @Test
    void anotherNamespacesJobAndItsSubResourcesAre404LikeAnUnknownJob() {
        for (String sub : SUBRESOURCES) {
            given(asA()).get("/api/v1/jobs/" + teams.jobA + sub).then().statusCode(200);
            String hidden = given(asA())
                    .get("/api/v1/jobs/" + teams.jobB + sub)
                    .then()
                    .statusCode(404)
                    .extract()
                    .path("detail");
            String unknown = given(asA())
                    .get("/api/v1/jobs/" + teams.nsB + "/nothing" + sub)
                    .then()
                    .statusCode(404)
                    .extract()
                    .path("detail");
            assertThat(hidden).as(sub).isEqualTo(unknown.replace("/nothing", "/train"));
            given(asAll()).get("/api/v1/jobs/" + teams.jobB + sub).then().statusCode(200);
        }
    }

    /** The one job sub-resource written by POST besides the stacks: a checkpoint's trust, scoped the same way. */
    @Test
    void anotherNamespacesCheckpointCannotBeMarkedAndLooksUnknown() {
        String operatorA = TestTokens.create("scope-trust-" + teams.tag, Role.OPERATOR, List.of(teams.nsA));
        String body = "{\"trusted\":true,\"reason\":\"checked by hand\"}";
        given(TestTokens.auth(operatorA))
                .contentType("application/json")
                .body(body)
                .post("/api/v1/jobs/" + teams.jobA + "/checkpoints/ca/trust")
                .then()
                .statusCode(200);
        String hidden = given(TestTokens.auth(operatorA))
                .contentType("application/json")
                .body(body)
                .post("/api/v1/jobs/" + teams.jobB + "/checkpoints/cb/trust")
                .then()
                .statusCode(404)
                .extract()
                .path("detail");
        assertThat(hidden).isEqualTo("no job named '" + teams.jobB + "'");
    }

    @Test
    void goodputRollupsCoverOnlyTheCallersJobs() {
        JsonPath byNs = get(asA(), "/api/v1/goodput?by=namespace");
        assertThat(byNs.getList("key", String.class)).containsExactly(teams.nsA);
        assertThat(byNs.getInt("[0].jobs")).isEqualTo(2);
        assertThat(get(asA(), "/api/v1/goodput").getInt("[0].jobs")).isEqualTo(2);
        assertThat(get(asAll(), "/api/v1/goodput?by=namespace").getList("key", String.class))
                .contains(teams.nsA, teams.nsB);
    }

    @Test
    void nodesGpusAndHealthOnlyWhereTheCallersJobsRun() {
        JsonPath nodes = get(asA(), "/api/v1/nodes?limit=5000");
        assertThat(nodes.getList("items.name", String.class)).containsExactly(teams.nodeA, teams.nodeS);
        assertThat(nodes.getInt("total")).isEqualTo(2);
        JsonPath firstNode = get(asA(), "/api/v1/nodes?limit=1");
        assertThat(get(asA(), "/api/v1/nodes?limit=1&cursor=" + firstNode.getString("nextCursor"))
                        .getList("items.name", String.class))
                .containsExactly(teams.nodeS);
        JsonPath firstGpu = get(asA(), "/api/v1/gpus?limit=1");
        assertThat(get(asA(), "/api/v1/gpus?limit=1&cursor=" + firstGpu.getString("nextCursor"))
                        .getInt("offset"))
                .isEqualTo(1);
        given(asA()).get("/api/v1/gpus?cursor=bm90LW91cnM").then().statusCode(400);
        given(asA())
                .get("/api/v1/gpus?offset=1&cursor=" + firstGpu.getString("nextCursor"))
                .then()
                .statusCode(400);
        given(asA()).get("/api/v1/nodes/" + teams.nodeA).then().statusCode(200);
        given(asA()).get("/api/v1/nodes/" + teams.nodeB).then().statusCode(404);
        assertThat(get(asA(), "/api/v1/gpus?limit=20000").getList("items.node", String.class))
                .containsOnly(teams.nodeA, teams.nodeS)
                .contains(teams.nodeA, teams.nodeS);
        // On the shared node, B's pod and namespace are left out of the GPU it uses.
        JsonPath shared = get(asA(), "/api/v1/gpus?node=" + teams.nodeS);
        assertThat(shared.getList("items.pod", String.class)).contains("a-pod").doesNotContain("b-pod");
        assertThat(shared.getList("items.namespace", String.class)).doesNotContain(teams.nsB);
        assertThat(get(asA(), "/api/v1/nodes/" + teams.nodeS).getList("gpus.pod", String.class))
                .doesNotContain("b-pod");
        assertThat(get(asAll(), "/api/v1/gpus?node=" + teams.nodeS).getList("items.pod", String.class))
                .contains("a-pod", "b-pod");
        assertThat(get(asA(), "/api/v1/gpus?node=" + teams.nodeB).getInt("total"))
                .isZero();
        assertThat(get(asA(), "/api/v1/fleet/notices").getList("node", String.class))
                .contains(teams.nodeA)
                .doesNotContain(teams.nodeB);
        assertThat(get(asAll(), "/api/v1/fleet/notices").getList("node", String.class))
                .contains(teams.nodeA, teams.nodeB);
        int gpusOfA = get(asA(), "/api/v1/gpus?limit=20000").getInt("total");
        assertThat(healthTotal(asA())).isEqualTo(gpusOfA);
        assertThat(healthTotal(asAll())).isGreaterThan(gpusOfA);

        assertThat(get(asAll(), "/api/v1/nodes?limit=5000").getList("items.name", String.class))
                .contains(teams.nodeA, teams.nodeB);
        given(asAll()).get("/api/v1/nodes/" + teams.nodeB).then().statusCode(200);
        assertThat(get(asAll(), "/api/v1/gpus?node=" + teams.nodeB).getInt("total"))
                .isPositive();
    }

    private static int healthTotal(RequestSpecification who) {
        JsonPath health = get(who, "/api/v1/fleet/health");
        int sum = 0;
        for (String verdict : List.of("healthy", "degraded", "failed")) {
            sum += health.getList(verdict, Integer.class).stream()
                    .mapToInt(Integer::intValue)
                    .sum();
        }
        return sum;
    }

    @Test
    void eventsOfTheCallersJobsAndTheirNodesOnly() {
        JsonPath page = get(asA(), "/api/v1/events?limit=1000&order=desc");
        List<String> subjects = page.getList("events.subject", String.class);
        assertThat(subjects)
                .contains(teams.jobA, teams.jobA2, teams.nodeA, teams.nodeS)
                .doesNotContain(teams.jobB, teams.jobB2, teams.nodeB)
                .allMatch(s -> s.startsWith(teams.nsA + "/") || s.equals(teams.nodeA) || s.equals(teams.nodeS));
        // Filtered before the page is cut: a one-event page is still one of A's.
        assertThat(get(asA(), "/api/v1/events?limit=1&order=desc").getList("events.subject", String.class))
                .singleElement()
                .matches(s -> s.startsWith(teams.nsA + "/") || s.equals(teams.nodeA) || s.equals(teams.nodeS));
        assertThat(get(asA(), "/api/v1/events?subject=" + teams.jobB).getList("events"))
                .isEmpty();
        assertThat(get(asA(), "/api/v1/events?subject=" + teams.nodeB).getList("events"))
                .isEmpty();

        assertThat(get(asAll(), "/api/v1/events?subject=" + teams.jobB).getList("events"))
                .isNotEmpty();
        assertThat(get(asAll(), "/api/v1/events?subject=" + teams.nodeB).getList("events"))
                .isNotEmpty();
    }

    @Test
    void actionsOfTheCallersJobsAndNodesOnly() {
        List<String> ids = get(asA(), "/api/v1/actions?limit=500").getList("items.id", String.class);
        assertThat(ids)
                .contains(teams.actions.get("jobA"), teams.actions.get("nodeA"))
                .doesNotContain(teams.actions.get("jobB"), teams.actions.get("nodeB"));
        assertThat(get(asA(), "/api/v1/actions?limit=500").getList("items.target", String.class))
                .allMatch(t -> t.startsWith(teams.nsA + "/") || t.equals(teams.nodeA));
        given(asA()).get("/api/v1/actions/" + teams.actions.get("jobA")).then().statusCode(200);
        given(asA()).get("/api/v1/actions/" + teams.actions.get("jobB")).then().statusCode(404);
        given(asA()).get("/api/v1/actions/" + teams.actions.get("nodeB")).then().statusCode(404);

        List<String> everything = new ArrayList<>();
        for (String target : List.of(teams.jobA, teams.jobB, teams.nodeA, teams.nodeB)) {
            everything.addAll(get(asAll(), "/api/v1/actions?target=" + target).getList("items.id", String.class));
        }
        assertThat(everything).containsAll(teams.actions.values());
    }

    @Test
    void auditEntriesOfTheCallersActionsOnly() {
        JsonPath audit = get(asA(), "/api/v1/audit?limit=1000");
        assertThat(audit.getList("items.target", String.class))
                .contains(teams.jobA, teams.nodeA)
                .allMatch(t -> t.startsWith(teams.nsA + "/") || t.equals(teams.nodeA));
        assertThat(audit.getList("items.actionId", String.class))
                .contains(teams.actions.get("jobA"))
                .doesNotContain(teams.actions.get("jobB"), teams.actions.get("nodeB"));
        assertThat(get(asA(), "/api/v1/audit?target=" + teams.jobB).getList("items"))
                .isEmpty();
        assertThat(get(asA(), "/api/v1/audit?what=policy.updated").getList("items"))
                .isEmpty();

        assertThat(get(asAll(), "/api/v1/audit?target=" + teams.jobB).getList("items.actionId", String.class))
                .contains(teams.actions.get("jobB"));
    }

    @Test
    void alertsAndSilencesOfTheCallersNamespacesAndNodesOnly() {
        List<String> fingerprints = get(asA(), "/api/v1/alerts?limit=5000").getList("alerts.fingerprint", String.class);
        assertThat(fingerprints)
                .contains(fingerprint("a"), fingerprint("na"))
                .doesNotContain(fingerprint("b"), fingerprint("nb"));
        assertThat(get(asA(), "/api/v1/alerts?limit=5000").getList("alerts.namespace", String.class))
                .allMatch(ns -> ns == null || ns.equals(teams.nsA));
        for (String f : List.of("a", "b", "na", "nb")) {
            assertThat(get(asAll(), "/api/v1/alerts?fingerprint=" + fingerprint(f))
                            .getList("alerts"))
                    .hasSize(1);
        }

        List<String> silences = get(asA(), "/api/v1/silences").getList("silences.id", String.class);
        assertThat(silences).contains(teams.silences.get(teams.nsA)).doesNotContain(teams.silences.get(teams.nsB));
        given(asA())
                .get("/api/v1/silences/" + teams.silences.get(teams.nsB))
                .then()
                .statusCode(404);
        given(asA())
                .get("/api/v1/silences/" + teams.silences.get(teams.nsA))
                .then()
                .statusCode(200);
        assertThat(get(asAll(), "/api/v1/silences").getList("silences.id", String.class))
                .contains(teams.silences.get(teams.nsA), teams.silences.get(teams.nsB));
    }
}
