package io.lifeline.testing;

import static io.restassured.RestAssured.given;

import io.lifeline.alert.AlertService;
import io.lifeline.alert.store.AlertStore;
import io.lifeline.domain.alert.Alert;
import io.lifeline.domain.alert.AlertRule;
import io.lifeline.domain.alert.AlertState;
import io.lifeline.domain.alert.Matcher;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.NoticeKind;
import io.lifeline.runtime.ModelRuntime;
import io.lifeline.security.identity.Caller;
import io.lifeline.security.identity.Role;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ArcContainer;
import io.restassured.http.ContentType;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * Two namespaces, A and B, in the running application, for the tests of what a caller limited to A sees: each has a
 * job on a node of its own and one on a node they share ({@link #nodeS}), a checkpoint, a pending maintenance
 * notice on its own node, GPUs with pods (A's and B's on the shared node), actions on its job and its node with their
 * audit entries, a firing job alert and a node alert, and a silence confined to it. Seeded once per application (a
 * new tag each time, so names never clash with other tests' data); {@link #viewerA} is a viewer token limited to A.
 */
public final class TwoTeams {

    private static TwoTeams seeded;
    private static ArcContainer seededIn;

    public final String tag = UUID.randomUUID().toString().substring(0, 8);
    public final String nsA = "scope-a-" + tag;
    public final String nsB = "scope-b-" + tag;
    public final String nodeA = "scope-node-a-" + tag;
    public final String nodeB = "scope-node-b-" + tag;
    /** Hosts a job of each namespace. */
    public final String nodeS = "scope-node-s-" + tag;

    public final String jobA = nsA + "/train";
    public final String jobA2 = nsA + "/eval";
    public final String jobB = nsB + "/train";
    public final String jobB2 = nsB + "/eval";
    /** Action ids by what they target: {@code jobA}, {@code jobB}, {@code nodeA}, {@code nodeB}. */
    public final Map<String, String> actions = new TreeMap<>();
    /** Silence ids by namespace. */
    public final Map<String, String> silences = new TreeMap<>();

    public String viewerA;

    private TwoTeams() {}

    /** The two teams of the running application, seeded on first use. */
    public static synchronized TwoTeams get() throws Exception {
        ArcContainer container = Arc.container();
        if (seeded == null || seededIn != container) {
            TwoTeams t = new TwoTeams();
            t.seed();
            seeded = t;
            seededIn = container;
        }
        return seeded;
    }

    /** The fingerprint of the seeded alert {@code a}, {@code b} (job alerts), {@code na} or {@code nb} (node alerts). */
    public String fingerprint(String suffix) {
        return "scope-" + tag + "-" + suffix;
    }

    private void seed() throws Exception {
        new TestFleet()
                .node(nodeA, "scope-pool")
                .node(nodeB, "scope-pool")
                .node(nodeS, "scope-pool")
                .job(jobA, 0, 0, nodeA)
                .job(jobA2, 0, 0, nodeS)
                .job(jobB, 0, 0, nodeB)
                .job(jobB2, 0, 0, nodeS)
                .checkpoint(jobA, "ca", 50, 5)
                .checkpoint(jobB, "cb", 50, 5);
        for (String node : List.of(nodeA, nodeB)) {
            new TestFleet()
                    .send(
                            node,
                            EventType.NODE_INTERRUPTION_NOTICE,
                            new NodeData.InterruptionNotice(
                                    NoticeKind.MAINTENANCE,
                                    "test",
                                    Instant.now().plus(Duration.ofHours(2))));
        }
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        List<String> samples = List.of(
                CloudEvents.gpuSample(CloudEvents.uniqueId(), nodeA, now, 50),
                CloudEvents.gpuSample(CloudEvents.uniqueId(), nodeB, now, 50),
                gpuOf(nodeS, 0, "a-pod", nsA, now),
                gpuOf(nodeS, 1, "b-pod", nsB, now));
        given(TestTokens.asIngest())
                .contentType("application/json")
                .body(CloudEvents.array(samples))
                .post("/api/v1/events")
                .then()
                .statusCode(200);
        Arc.container().instance(ModelRuntime.class).get().barrier().get(30, TimeUnit.SECONDS);
        actions.put("jobA", action("checkpoint-now", jobA, "{\"deadlineSeconds\":2}"));
        actions.put("jobB", action("checkpoint-now", jobB, "{\"deadlineSeconds\":2}"));
        actions.put("nodeA", action("uncordon", nodeA, "{}"));
        actions.put("nodeB", action("uncordon", nodeB, "{}"));
        AlertStore store = Arc.container().instance(AlertStore.class).get();
        store.recordEvaluation(
                List.of(),
                List.of(
                        alert("a", nsA, Map.of("job", jobA)),
                        alert("b", nsB, Map.of("job", jobB)),
                        alert("na", null, Map.of("node", nodeA)),
                        alert("nb", null, Map.of("node", nodeB))),
                List.of(),
                now);
        AlertService alerts = Arc.container().instance(AlertService.class).get();
        for (String ns : List.of(nsA, nsB)) {
            silences.put(
                    ns,
                    alerts.create(
                                    Caller.unrestricted("tests"),
                                    List.of(Matcher.equal("namespace", ns)),
                                    null,
                                    null,
                                    Duration.ofHours(1),
                                    "scope test",
                                    "test")
                            .id());
        }
        viewerA = TestTokens.create("scope-viewer-a-" + tag, Role.VIEWER, List.of(nsA));
    }

    private static String gpuOf(String node, int index, String pod, String namespace, Instant time) {
        return CloudEvents.event(
                CloudEvents.uniqueId(),
                "test/dcgm",
                "gpu.sample",
                node,
                time,
                "{\"uuid\":\"GPU-" + node
                        + "-" + index + "\",\"index\":" + index + ",\"utilizationPercent\":50,\"pod\":\"" + pod
                        + "\",\"namespace\":\"" + namespace + "\"}");
    }

    private static String action(String kind, String target, String params) {
        return given(TestTokens.asOperator())
                .contentType(ContentType.JSON)
                .body("{\"kind\":\"" + kind + "\",\"target\":\"" + target + "\",\"params\":" + params
                        + ",\"reason\":\"scope test\"}")
                .post("/api/v1/actions")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
    }

    private Alert alert(String suffix, String namespace, Map<String, String> extra) {
        Map<String, String> labels = new TreeMap<>(extra);
        AlertRule rule = namespace == null ? AlertRule.LEMON_NODE : AlertRule.CHECKPOINT_STALE;
        labels.put("alertname", rule.alertName());
        labels.put("severity", "warning");
        if (namespace != null) {
            labels.put("namespace", namespace);
        }
        Instant active = Instant.now().minusSeconds(120);
        return new Alert(
                fingerprint(suffix),
                rule,
                labels,
                Map.of("summary", "scope " + suffix),
                AlertState.FIRING,
                active,
                active.plusSeconds(60),
                null,
                Instant.now(),
                1.0,
                namespace,
                List.of());
    }
}
