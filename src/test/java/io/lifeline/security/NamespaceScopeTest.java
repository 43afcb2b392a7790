package io.lifeline.security;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.alert.AlertService;
import io.lifeline.alert.AlertStore;
import io.lifeline.domain.alert.Alert;
import io.lifeline.domain.alert.AlertRule;
import io.lifeline.domain.alert.AlertState;
import io.lifeline.domain.alert.Matcher;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.NoticeKind;
import io.lifeline.runtime.ModelRuntime;
import io.lifeline.testing.CloudEvents;
import io.lifeline.testing.TestFleet;
import io.lifeline.testing.TestTokens;
import io.quarkus.arc.Arc;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two namespaces, A and B, each with jobs on its own node and one on a node they share, events, actions with their
 * audit entries, alerts and a silence: a viewer limited to A sees exactly A's share of every read (totals included),
 * gets 404 for B's jobs and nodes, and a fleet-wide viewer sees both.
 */
@QuarkusTest
class NamespaceScopeTest {

    private static final String TAG = UUID.randomUUID().toString().substring(0, 8);
    private static final String NS_A = "scope-a-" + TAG;
    private static final String NS_B = "scope-b-" + TAG;
    private static final String NODE_A = "scope-node-a-" + TAG;
    private static final String NODE_B = "scope-node-b-" + TAG;
    /** Hosts a job of each namespace. */
    private static final String NODE_S = "scope-node-s-" + TAG;
    private static final String JOB_A = NS_A + "/train";
    private static final String JOB_A2 = NS_A + "/eval";
    private static final String JOB_B = NS_B + "/train";
    private static final String JOB_B2 = NS_B + "/eval";
    private static final List<String> SUBRESOURCES = List.of("", "/timeline", "/incidents", "/checkpoints", "/freshness",
            "/membership", "/goodput", "/advice");

    private static boolean seeded;
    private static String viewerA;
    private static final Map<String, String> ACTIONS = new TreeMap<>();
    private static final Map<String, String> SILENCES = new TreeMap<>();

    @BeforeEach
    void seed() throws Exception {
        synchronized (NamespaceScopeTest.class) {
            if (seeded) {
                return;
            }
            new TestFleet().node(NODE_A, "scope-pool").node(NODE_B, "scope-pool").node(NODE_S, "scope-pool")
                    .job(JOB_A, 0, 0, NODE_A).job(JOB_A2, 0, 0, NODE_S).job(JOB_B, 0, 0, NODE_B).job(JOB_B2, 0, 0, NODE_S)
                    .checkpoint(JOB_A, "ca", 50, 5).checkpoint(JOB_B, "cb", 50, 5);
            for (String node : List.of(NODE_A, NODE_B)) {
                new TestFleet().send(node, EventType.NODE_INTERRUPTION_NOTICE, new NodeData.InterruptionNotice(
                        NoticeKind.MAINTENANCE, "test", Instant.now().plus(Duration.ofHours(2))));
            }
            Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
            List<String> samples = List.of(CloudEvents.gpuSample(CloudEvents.uniqueId(), NODE_A, now, 50),
                    CloudEvents.gpuSample(CloudEvents.uniqueId(), NODE_B, now, 50),
                    gpuOf(NODE_S, 0, "a-pod", NS_A, now), gpuOf(NODE_S, 1, "b-pod", NS_B, now));
            given(TestTokens.asIngest()).contentType("application/json").body(CloudEvents.array(samples))
                    .post("/api/v1/events").then().statusCode(200);
            Arc.container().instance(ModelRuntime.class).get().barrier().get(30, TimeUnit.SECONDS);
            ACTIONS.put("jobA", action("checkpoint-now", JOB_A, "{\"deadlineSeconds\":2}"));
            ACTIONS.put("jobB", action("checkpoint-now", JOB_B, "{\"deadlineSeconds\":2}"));
            ACTIONS.put("nodeA", action("uncordon", NODE_A, "{}"));
            ACTIONS.put("nodeB", action("uncordon", NODE_B, "{}"));
            AlertStore store = Arc.container().instance(AlertStore.class).get();
            store.recordEvaluation(List.of(), List.of(alert("a", NS_A, Map.of("job", JOB_A)),
                    alert("b", NS_B, Map.of("job", JOB_B)), alert("na", null, Map.of("node", NODE_A)),
                    alert("nb", null, Map.of("node", NODE_B))), List.of(), now);
            AlertService alerts = Arc.container().instance(AlertService.class).get();
            for (String ns : List.of(NS_A, NS_B)) {
                SILENCES.put(ns, alerts.create(Caller.unrestricted("tests"), List.of(Matcher.equal("namespace", ns)),
                        null, null, Duration.ofHours(1), "scope test", "test").id());
            }
            viewerA = TestTokens.create("scope-viewer-a-" + TAG, Role.VIEWER, List.of(NS_A));
            seeded = true;
        }
    }

    private static String gpuOf(String node, int index, String pod, String namespace, Instant time) {
        return CloudEvents.event(CloudEvents.uniqueId(), "test/dcgm", "gpu.sample", node, time, "{\"uuid\":\"GPU-" + node
                + "-" + index + "\",\"index\":" + index + ",\"utilizationPercent\":50,\"pod\":\"" + pod
                + "\",\"namespace\":\"" + namespace + "\"}");
    }

    private static String action(String kind, String target, String params) {
        return given(TestTokens.asOperator()).contentType(ContentType.JSON)
                .body("{\"kind\":\"" + kind + "\",\"target\":\"" + target + "\",\"params\":" + params
                        + ",\"reason\":\"scope test\"}")
                .post("/api/v1/actions").then().statusCode(201).extract().path("id");
    }

    private static Alert alert(String suffix, String namespace, Map<String, String> extra) {
        Map<String, String> labels = new TreeMap<>(extra);
        AlertRule rule = namespace == null ? AlertRule.LEMON_NODE : AlertRule.CHECKPOINT_STALE;
        labels.put("alertname", rule.alertName());
        labels.put("severity", "warning");
        if (namespace != null) {
            labels.put("namespace", namespace);
        }
        Instant active = Instant.now().minusSeconds(120);
        return new Alert(fingerprint(suffix), rule, labels, Map.of("summary", "scope " + suffix), AlertState.FIRING,
                active, active.plusSeconds(60), null, Instant.now(), 1.0, namespace, List.of());
    }

    private static String fingerprint(String suffix) {
        return "scope-" + TAG + "-" + suffix;
    }

    private static RequestSpecification asA() {
        return TestTokens.auth(viewerA);
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
        assertThat(all.getList("items.namespace", String.class)).containsOnly(NS_A);
        assertThat(all.getInt("total")).isEqualTo(2);
        JsonPath paged = get(asA(), "/api/v1/jobs?limit=1");
        assertThat(paged.getInt("total")).isEqualTo(2);
        assertThat(paged.getList("items.name", String.class)).hasSize(1);
        assertThat(get(asA(), "/api/v1/jobs?namespace=" + NS_B).getInt("total")).isZero();

        assertThat(get(asAll(), "/api/v1/jobs?namespace=" + NS_B).getInt("total")).isEqualTo(2);
        assertThat(get(asAll(), "/api/v1/jobs?namespace=" + NS_A).getInt("total")).isEqualTo(2);
    }

    @Test
    void anotherNamespacesJobAndItsSubResourcesAre404LikeAnUnknownJob() {
        for (String sub : SUBRESOURCES) {
            given(asA()).get("/api/v1/jobs/" + JOB_A + sub).then().statusCode(200);
            String hidden = given(asA()).get("/api/v1/jobs/" + JOB_B + sub).then().statusCode(404)
                    .extract().path("detail");
            String unknown = given(asA()).get("/api/v1/jobs/" + NS_B + "/nothing" + sub).then().statusCode(404)
                    .extract().path("detail");
            assertThat(hidden).as(sub).isEqualTo(unknown.replace("/nothing", "/train"));
            given(asAll()).get("/api/v1/jobs/" + JOB_B + sub).then().statusCode(200);
        }
    }

    @Test
    void goodputRollupsCoverOnlyTheCallersJobs() {
        JsonPath byNs = get(asA(), "/api/v1/goodput?by=namespace");
        assertThat(byNs.getList("key", String.class)).containsExactly(NS_A);
        assertThat(byNs.getInt("[0].jobs")).isEqualTo(2);
        assertThat(get(asA(), "/api/v1/goodput").getInt("[0].jobs")).isEqualTo(2);
        assertThat(get(asAll(), "/api/v1/goodput?by=namespace").getList("key", String.class)).contains(NS_A, NS_B);
    }

    @Test
    void nodesGpusAndHealthOnlyWhereTheCallersJobsRun() {
        JsonPath nodes = get(asA(), "/api/v1/nodes?limit=5000");
        assertThat(nodes.getList("items.name", String.class)).containsExactly(NODE_A, NODE_S);
        assertThat(nodes.getInt("total")).isEqualTo(2);
        given(asA()).get("/api/v1/nodes/" + NODE_A).then().statusCode(200);
        given(asA()).get("/api/v1/nodes/" + NODE_B).then().statusCode(404);
        assertThat(get(asA(), "/api/v1/gpus?limit=20000").getList("items.node", String.class))
                .containsOnly(NODE_A, NODE_S).contains(NODE_A, NODE_S);
        // On the shared node, B's pod and namespace are left out of the GPU it uses.
        JsonPath shared = get(asA(), "/api/v1/gpus?node=" + NODE_S);
        assertThat(shared.getList("items.pod", String.class)).contains("a-pod").doesNotContain("b-pod");
        assertThat(shared.getList("items.namespace", String.class)).doesNotContain(NS_B);
        assertThat(get(asA(), "/api/v1/nodes/" + NODE_S).getList("gpus.pod", String.class)).doesNotContain("b-pod");
        assertThat(get(asAll(), "/api/v1/gpus?node=" + NODE_S).getList("items.pod", String.class))
                .contains("a-pod", "b-pod");
        assertThat(get(asA(), "/api/v1/gpus?node=" + NODE_B).getInt("total")).isZero();
        assertThat(get(asA(), "/api/v1/fleet/notices").getList("node", String.class)).contains(NODE_A)
                .doesNotContain(NODE_B);
        assertThat(get(asAll(), "/api/v1/fleet/notices").getList("node", String.class)).contains(NODE_A, NODE_B);
        int gpusOfA = get(asA(), "/api/v1/gpus?limit=20000").getInt("total");
        assertThat(healthTotal(asA())).isEqualTo(gpusOfA);
        assertThat(healthTotal(asAll())).isGreaterThan(gpusOfA);

        assertThat(get(asAll(), "/api/v1/nodes?limit=5000").getList("items.name", String.class))
                .contains(NODE_A, NODE_B);
        given(asAll()).get("/api/v1/nodes/" + NODE_B).then().statusCode(200);
        assertThat(get(asAll(), "/api/v1/gpus?node=" + NODE_B).getInt("total")).isPositive();
    }

    private static int healthTotal(RequestSpecification who) {
        JsonPath health = get(who, "/api/v1/fleet/health");
        int sum = 0;
        for (String verdict : List.of("healthy", "degraded", "failed")) {
            sum += health.getList(verdict, Integer.class).stream().mapToInt(Integer::intValue).sum();
        }
        return sum;
    }

    @Test
    void eventsOfTheCallersJobsAndTheirNodesOnly() {
        JsonPath page = get(asA(), "/api/v1/events?limit=1000&order=desc");
        List<String> subjects = page.getList("events.subject", String.class);
        assertThat(subjects).contains(JOB_A, JOB_A2, NODE_A, NODE_S).doesNotContain(JOB_B, JOB_B2, NODE_B)
                .allMatch(s -> s.startsWith(NS_A + "/") || s.equals(NODE_A) || s.equals(NODE_S));
        // Filtered before the page is cut: a one-event page is still one of A's.
        assertThat(get(asA(), "/api/v1/events?limit=1&order=desc").getList("events.subject", String.class))
                .singleElement().matches(s -> s.startsWith(NS_A + "/") || s.equals(NODE_A) || s.equals(NODE_S));
        assertThat(get(asA(), "/api/v1/events?subject=" + JOB_B).getList("events")).isEmpty();
        assertThat(get(asA(), "/api/v1/events?subject=" + NODE_B).getList("events")).isEmpty();

        assertThat(get(asAll(), "/api/v1/events?subject=" + JOB_B).getList("events")).isNotEmpty();
        assertThat(get(asAll(), "/api/v1/events?subject=" + NODE_B).getList("events")).isNotEmpty();
    }

    @Test
    void actionsOfTheCallersJobsAndNodesOnly() {
        List<String> ids = get(asA(), "/api/v1/actions?limit=500").getList("items.id", String.class);
        assertThat(ids).contains(ACTIONS.get("jobA"), ACTIONS.get("nodeA"))
                .doesNotContain(ACTIONS.get("jobB"), ACTIONS.get("nodeB"));
        assertThat(get(asA(), "/api/v1/actions?limit=500").getList("items.target", String.class))
                .allMatch(t -> t.startsWith(NS_A + "/") || t.equals(NODE_A));
        given(asA()).get("/api/v1/actions/" + ACTIONS.get("jobA")).then().statusCode(200);
        given(asA()).get("/api/v1/actions/" + ACTIONS.get("jobB")).then().statusCode(404);
        given(asA()).get("/api/v1/actions/" + ACTIONS.get("nodeB")).then().statusCode(404);

        List<String> everything = new ArrayList<>();
        for (String target : List.of(JOB_A, JOB_B, NODE_A, NODE_B)) {
            everything.addAll(get(asAll(), "/api/v1/actions?target=" + target).getList("items.id", String.class));
        }
        assertThat(everything).containsAll(ACTIONS.values());
    }

    @Test
    void auditEntriesOfTheCallersActionsOnly() {
        JsonPath audit = get(asA(), "/api/v1/audit?limit=1000");
        assertThat(audit.getList("items.target", String.class)).contains(JOB_A, NODE_A)
                .allMatch(t -> t.startsWith(NS_A + "/") || t.equals(NODE_A));
        assertThat(audit.getList("items.actionId", String.class)).contains(ACTIONS.get("jobA"))
                .doesNotContain(ACTIONS.get("jobB"), ACTIONS.get("nodeB"));
        assertThat(get(asA(), "/api/v1/audit?target=" + JOB_B).getList("items")).isEmpty();
        assertThat(get(asA(), "/api/v1/audit?what=policy.updated").getList("items")).isEmpty();

        assertThat(get(asAll(), "/api/v1/audit?target=" + JOB_B).getList("items.actionId", String.class))
                .contains(ACTIONS.get("jobB"));
    }

    @Test
    void alertsAndSilencesOfTheCallersNamespacesAndNodesOnly() {
        List<String> fingerprints = get(asA(), "/api/v1/alerts?limit=5000").getList("alerts.fingerprint", String.class);
        assertThat(fingerprints).contains(fingerprint("a"), fingerprint("na"))
                .doesNotContain(fingerprint("b"), fingerprint("nb"));
        assertThat(get(asA(), "/api/v1/alerts?limit=5000").getList("alerts.namespace", String.class))
                .allMatch(ns -> ns == null || ns.equals(NS_A));
        for (String f : List.of("a", "b", "na", "nb")) {
            assertThat(get(asAll(), "/api/v1/alerts?fingerprint=" + fingerprint(f)).getList("alerts")).hasSize(1);
        }

        List<String> silences = get(asA(), "/api/v1/silences").getList("silences.id", String.class);
        assertThat(silences).contains(SILENCES.get(NS_A)).doesNotContain(SILENCES.get(NS_B));
        given(asA()).get("/api/v1/silences/" + SILENCES.get(NS_B)).then().statusCode(404);
        given(asA()).get("/api/v1/silences/" + SILENCES.get(NS_A)).then().statusCode(200);
        assertThat(get(asAll(), "/api/v1/silences").getList("silences.id", String.class))
                .contains(SILENCES.get(NS_A), SILENCES.get(NS_B));
    }
}
