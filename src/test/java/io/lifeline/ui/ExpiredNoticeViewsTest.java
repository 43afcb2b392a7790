package io.lifeline.ui;

import static com.github.mvysny.kaributesting.v10.LocatorJ._get;
import static org.assertj.core.api.Assertions.assertThat;

import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.router.QueryParameters;
import io.lifeline.security.identity.Role;
import io.lifeline.testing.CloudEvents;
import io.lifeline.testing.TestTokens;
import io.lifeline.ui.data.DashboardData;
import io.quarkus.arc.Arc;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A notice past its deadline is shown expired on the node panel and is not among Overview's nodes at risk. */
@QuarkusTest
class ExpiredNoticeViewsTest {

    private final Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    private final String expired = "expired-" + CloudEvents.uniqueId().substring(0, 8);
    private final String pending = "pending-" + CloudEvents.uniqueId().substring(0, 8);

    @BeforeEach
    void setUp() throws Exception {
        UiTestSupport.feedDemoData();
        String data = "{\"pool\":\"expiry-pool\",\"capacityType\":\"spot\",\"gpuCount\":8}";
        List<String> events = List.of(
                CloudEvents.event(
                        CloudEvents.uniqueId(), "test/k8s", "node.registered", expired, now.minusSeconds(900), data),
                CloudEvents.event(
                        CloudEvents.uniqueId(), "test/k8s", "node.registered", pending, now.minusSeconds(900), data),
                notice(expired, now.minusSeconds(600), now.minusSeconds(480)),
                notice(pending, now, now.plusSeconds(3600)));
        TestTokens.api()
                .contentType("application/cloudevents-batch+json")
                .body(CloudEvents.array(events))
                .post("/api/v1/events")
                .then()
                .statusCode(200);
        Arc.container().instance(DashboardData.class).get().refresh().get(30, TimeUnit.SECONDS);
        UiTestSupport.setup(Role.VIEWER);
    }

    @AfterEach
    void tearDown() {
        UiTestSupport.tearDown();
    }

    private static String notice(String node, Instant at, Instant deadline) {
        return CloudEvents.event(
                CloudEvents.uniqueId(),
                "cloud/aws",
                "node.interruption_notice",
                node,
                at,
                "{\"kind\":\"spot_reclaim\",\"provider\":\"aws\",\"deadline\":\"" + deadline + "\"}");
    }

    @Test
    void overviewsNodesAtRiskHoldThePendingNoticeAndNotTheExpiredOne() {
        UI.getCurrent().navigate(OverviewView.class);
        OverviewView view = UiTestSupport.view(OverviewView.class);
        UiTestSupport.await(() -> view.shown() != null
                && view.shown().nodesAtRisk().stream().anyMatch(n -> n.name().equals(pending)));
        assertThat(view.shown().nodesAtRisk())
                .extracting(OverviewModel.NodeAtRisk::name)
                .contains(pending)
                .doesNotContain(expired);
    }

    @Test
    void theNodePanelSaysTheNoticeExpired() {
        UI.getCurrent().navigate("fleet", QueryParameters.fromString("node=" + expired));
        FleetView view = UiTestSupport.view(FleetView.class);
        UiTestSupport.await(() -> view.panel().shown() != null);
        assertThat(view.panel().shown().detail().notice().expired()).isTrue();
        assertThat(_get(Div.class, s -> s.withId("node-notice")).getElement().getTextRecursively())
                .startsWith("Expired spot reclaim notice");
    }
}
