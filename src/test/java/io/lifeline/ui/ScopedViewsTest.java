package io.lifeline.ui;

import static com.github.mvysny.kaributesting.v10.LocatorJ._get;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.mvysny.kaributesting.v10.GridKt;
import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.html.Div;
import io.lifeline.action.view.ActionView;
import io.lifeline.action.view.AuditEntry;
import io.lifeline.domain.alert.Silence;
import io.lifeline.domain.gpu.GpuView;
import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.security.identity.Caller;
import io.lifeline.security.identity.Role;
import io.lifeline.testing.TwoTeams;
import io.lifeline.ui.AlertsGateway.AlertRow;
import io.lifeline.ui.data.DashboardData;
import io.lifeline.ui.data.JobRow;
import io.quarkus.arc.Arc;
import io.quarkus.test.junit.QuarkusTest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every dashboard view of a viewer limited to namespace A (of {@link TwoTeams}, beside the demo fleet's teams) shows
 * A's jobs and what belongs to them only: the nodes its jobs run on (the shared node without B's pod), A's actions,
 * audit entries, alerts and silence; B's job reads as unknown.
 */
@QuarkusTest
class ScopedViewsTest {

    private TwoTeams teams;

    @BeforeEach
    void setUp() throws Exception {
        UiTestSupport.feedDemoData();
        teams = TwoTeams.get();
        Arc.container().instance(DashboardData.class).get().refresh().get(30, TimeUnit.SECONDS);
        UiTestSupport.setupAs(Caller.ofToken("scoped-ui-" + teams.tag, "viewer-a", Role.VIEWER, List.of(teams.nsA)));
    }

    @AfterEach
    void tearDown() {
        UiTestSupport.tearDown();
    }

    private boolean ofA(String job) {
        return job.startsWith(teams.nsA + "/");
    }

    @Test
    void theOverviewCountsOnlyTheCallersJobsAndTheNodesTheyRunOn() {
        UI.getCurrent().navigate(OverviewView.class);
        OverviewView view = UiTestSupport.view(OverviewView.class);
        UiTestSupport.await(() -> view.shown() != null && view.shown().nodes() > 0);
        OverviewModel m = view.shown();
        assertThat(m.nodes()).isEqualTo(2);
        assertThat(m.gpus()).isEqualTo(16);
        assertThat(m.jobsActive()).isEqualTo(2);
        assertThat(m.openIncidents()).extracting(IncidentView::job).allMatch(this::ofA);
        assertThat(m.breaching()).extracting(JobRow::name).allMatch(this::ofA);
        assertThat(m.nodesAtRisk()).extracting(OverviewModel.NodeAtRisk::name).containsExactly(teams.nodeA);
        assertThat(m.nodesAtRisk().get(0).jobs()).containsExactly(teams.jobA);
        assertThat(_get(Div.class, s -> s.withId("kpi-ettr-24h")).getElement().getTextRecursively())
                .contains("Your jobs' ETTR")
                .doesNotContain("Fleet");
        assertThat(_get(Div.class, s -> s.withId("kpi-nodes")).getElement().getTextRecursively())
                .contains("2 nodes");
    }

    @Test
    void theJobsListHoldsOnlyTheCallersJobs() {
        UI.getCurrent().navigate(JobsView.class);
        JobsView view = UiTestSupport.view(JobsView.class);
        UiTestSupport.await(() -> GridKt._size(view.grid()) > 0);
        List<String> names = new ArrayList<>();
        for (int i = 0; i < GridKt._size(view.grid()); i++) {
            names.add(GridKt._get(view.grid(), i).name());
        }
        assertThat(names).containsExactlyInAnyOrder(teams.jobA, teams.jobA2);
        assertThat(_get(com.vaadin.flow.component.html.Span.class, s -> s.withId("job-count"))
                        .getText())
                .isEqualTo("2 of 2 jobs");
    }

    @Test
    void anotherNamespacesJobReadsAsUnknown() {
        UI.getCurrent().navigate("jobs/" + teams.jobA);
        JobDetailView mine = UiTestSupport.view(JobDetailView.class);
        UiTestSupport.await(() -> mine.shown() != null);

        UI.getCurrent().navigate("jobs/" + teams.jobB);
        JobDetailView other = UiTestSupport.view(JobDetailView.class);
        UiTestSupport.await(() -> _get(Div.class, s -> s.withId("job-state"))
                .getElement()
                .getTextRecursively()
                .contains("No job " + teams.jobB + " is known"));
        assertThat(other.shown()).isNull();
    }

    @Test
    void theFleetShowsTheNodesOfTheCallersJobsAndNoOtherTeamsPods() {
        UI.getCurrent().navigate(FleetView.class);
        FleetView view = UiTestSupport.view(FleetView.class);
        UiTestSupport.await(() -> view.shown() != null && !view.shown().nodes().isEmpty());
        assertThat(view.shown().nodes()).containsExactlyInAnyOrder(teams.nodeA, teams.nodeS);

        view.openNode(teams.nodeS);
        UiTestSupport.await(() -> view.panel().shown() != null);
        NodePanelModel shared = view.panel().shown();
        assertThat(shared.jobs()).containsExactly(teams.jobA2);
        assertThat(shared.detail().gpus())
                .extracting(GpuView::pod)
                .contains("a-pod")
                .doesNotContain("b-pod");
        assertThat(shared.detail().gpus()).extracting(GpuView::namespace).doesNotContain(teams.nsB);

        view.openNode(teams.nodeB);
        UiTestSupport.await(() -> !view.panel().isVisible());
    }

    @Test
    void actionsAndTheAuditTrailOfTheCallersJobsAndNodesOnly() {
        UI.getCurrent().navigate(ActionsView.class);
        ActionsView actions = UiTestSupport.view(ActionsView.class);
        UiTestSupport.await(() -> GridKt._size(actions.grid()) > 0);
        List<ActionView> shown = actions.grid().getListDataView().getItems().toList();
        assertThat(shown)
                .extracting(ActionView::id)
                .contains(teams.actions.get("jobA"), teams.actions.get("nodeA"))
                .doesNotContain(teams.actions.get("jobB"), teams.actions.get("nodeB"));
        assertThat(shown).extracting(ActionView::target).allMatch(t -> ofA(t) || t.equals(teams.nodeA));

        UI.getCurrent().navigate(AuditView.class);
        AuditView audit = UiTestSupport.view(AuditView.class);
        UiTestSupport.await(() -> GridKt._size(audit.grid()) > 0);
        List<AuditEntry> entries = audit.grid().getListDataView().getItems().toList();
        assertThat(entries)
                .extracting(AuditEntry::actionId)
                .contains(teams.actions.get("jobA"))
                .doesNotContain(teams.actions.get("jobB"), teams.actions.get("nodeB"));
        assertThat(entries).extracting(AuditEntry::target).allMatch(t -> ofA(t) || t.equals(teams.nodeA));
    }

    @Test
    void alertsAndSilencesOfTheCallersNamespaceAndNodesOnly() {
        UI.getCurrent().navigate(AlertsView.class);
        AlertsView view = UiTestSupport.view(AlertsView.class);
        UiTestSupport.await(() -> GridKt._size(view.grid()) > 0);
        List<AlertRow> alerts = view.grid().getListDataView().getItems().toList();
        assertThat(alerts)
                .extracting(AlertRow::fingerprint)
                .contains(teams.fingerprint("a"), teams.fingerprint("na"))
                .doesNotContain(teams.fingerprint("b"), teams.fingerprint("nb"));
        assertThat(alerts)
                .allMatch(a -> a.labels().get("namespace") == null
                        || a.labels().get("namespace").equals(teams.nsA));
        List<Silence> silences = view.silences().getListDataView().getItems().toList();
        assertThat(silences)
                .extracting(Silence::id)
                .contains(teams.silences.get(teams.nsA))
                .doesNotContain(teams.silences.get(teams.nsB));
    }
}
