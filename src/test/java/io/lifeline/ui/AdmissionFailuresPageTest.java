package io.lifeline.ui;

import static io.lifeline.testing.TestTokens.api;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.hasItem;

import com.github.mvysny.kaributesting.v10.GridKt;
import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.html.Anchor;
import com.vaadin.flow.router.QueryParameters;
import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.fleet.reliability.NodeAdmissionFailures;
import io.lifeline.ingest.IngestGateway;
import io.lifeline.runtime.ModelRuntime;
import io.lifeline.security.identity.Caller;
import io.lifeline.security.identity.Role;
import io.quarkus.arc.Arc;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Pods rejected at admission on one node, sent through the real ingest pipeline: the reliability API and the
 * Reliability page count them for that node and call it a suspect.
 */
@QuarkusTest
class AdmissionFailuresPageTest {

    @AfterEach
    void tearDown() {
        UiTestSupport.tearDown();
    }

    @Test
    void theRejectionsOfANodeAreCountedOnTheReliabilityPageAndItsApi() throws Exception {
        String tag = UUID.randomUUID().toString().substring(0, 6);
        String node = "swallow-" + tag;
        Instant t0 = Instant.now().minusSeconds(300).truncatedTo(ChronoUnit.MILLIS);
        List<Event> events = new ArrayList<>();
        events.add(new Event(
                "reg-" + node,
                "test://admission",
                EventType.NODE_REGISTERED,
                node,
                t0,
                new NodeData.Registered("g5-" + tag, CapacityType.ON_DEMAND, "z", "g5.48xlarge", 8, null)));
        events.add(
                new Event("ready-" + node, "test://admission", EventType.NODE_READY, node, t0, new NodeData.Ready()));
        for (int i = 0; i < 6; i++) {
            events.add(new Event(
                    "pod/" + tag + "-" + i + "/admission_failed",
                    "test://admission",
                    EventType.NODE_ADMISSION_FAILED,
                    node,
                    t0.plusSeconds(10 + i),
                    new NodeData.AdmissionFailed(
                            "arc-runners/workflow-" + i,
                            "UnexpectedAdmissionError",
                            "Pod was rejected: Allocate failed due to ... GPU is lost, which is unexpected")));
        }
        Arc.container()
                .instance(IngestGateway.class)
                .get()
                .submit(events)
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        Arc.container().instance(ModelRuntime.class).get().barrier().get(30, TimeUnit.SECONDS);

        api().get("/api/v1/fleet/reliability?window=7d")
                .then()
                .statusCode(200)
                .body("admissionFailures.node", hasItem(node))
                .body("admissionFailures.find { it.node == '" + node + "' }.count", org.hamcrest.Matchers.equalTo(6))
                .body(
                        "admissionFailures.find { it.node == '" + node + "' }.suspect",
                        org.hamcrest.Matchers.equalTo(true));

        UiTestSupport.setupAs(Caller.ofToken("adm-admin" + tag, "test-admin", Role.ADMIN, List.of()));
        UI.getCurrent().navigate("reliability", QueryParameters.simple(Map.of("window", "7d")));
        ReliabilityView view = UiTestSupport.view(ReliabilityView.class);
        UiTestSupport.await(() -> view.admissions()
                .getListDataView()
                .getItems()
                .anyMatch(a -> a.node().equals(node)));
        List<NodeAdmissionFailures> rows =
                view.admissions().getListDataView().getItems().toList();
        int at = rows.stream().map(NodeAdmissionFailures::node).toList().indexOf(node);
        assertThat(String.join(" | ", GridKt._getFormattedRow(view.admissions(), at)))
                .contains("g5-" + tag, "6", "swallows pods now");
        Anchor link = (Anchor) GridKt._getCellComponent(view.admissions(), at, "node");
        assertThat(link.getHref()).isEqualTo("fleet?node=" + node);
    }
}
