package io.lifeline.ui;

import static com.github.mvysny.kaributesting.v10.LocatorJ._find;
import static com.github.mvysny.kaributesting.v10.LocatorJ._setValue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.github.mvysny.kaributesting.v10.GridKt;
import com.vaadin.flow.component.Component;
import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.html.Anchor;
import com.vaadin.flow.component.sidenav.SideNavItem;
import com.vaadin.flow.router.QueryParameters;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.fleet.reliability.GroupBy;
import io.lifeline.domain.fleet.reliability.InterruptionCause;
import io.lifeline.domain.fleet.reliability.LemonNode;
import io.lifeline.domain.fleet.reliability.ReliabilityRow;
import io.lifeline.domain.job.recoverytime.PhaseGroupBy;
import io.lifeline.domain.job.recoverytime.RecoveryPhaseRow;
import io.lifeline.ingest.IngestGateway;
import io.lifeline.runtime.ModelRuntime;
import io.lifeline.security.identity.Caller;
import io.lifeline.security.identity.Role;
import io.lifeline.testing.HandCountedFleet;
import io.lifeline.testing.TestFleet;
import io.lifeline.testing.TwiceRecoveredJob;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ArcContainer;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The Reliability page against the hand-counted fleet of {@link HandCountedFleet} fed through the real ingest
 * pipeline (dated ten days back, tagged so it sits beside other tests' nodes), a lemon pool, and a job of a namespace
 * of its own running on s3 and o2: the page shows the hand-counted MTBF per pool with its intervals, the lemon with
 * its evidence, keeps its selections in the URL, and a viewer limited to that namespace sees the figures of those
 * two nodes only.
 */
@QuarkusTest
class ReliabilityViewTest {

    private static Seed seed;
    private static ArcContainer seededIn;

    /** The seeded names. */
    record Seed(
            String tag, Instant t0, String spot, String onDemand, String lemonPool, String lemon, String namespace) {}

    static synchronized Seed seed() throws Exception {
        if (seed != null && seededIn == Arc.container()) {
            return seed;
        }
        String tag = "-rel" + UUID.randomUUID().toString().substring(0, 6);
        Instant t0 = Instant.now().minus(Duration.ofDays(10)).truncatedTo(ChronoUnit.MILLIS);
        List<Event> events = new ArrayList<>(HandCountedFleet.events(t0, tag));
        events.addAll(HandCountedFleet.lemonPool(t0, "lemon-pool" + tag, "lemon" + tag + "-"));
        IngestGateway gateway = Arc.container().instance(IngestGateway.class).get();
        gateway.submit(events).toCompletableFuture().get(30, TimeUnit.SECONDS);
        Arc.container().instance(ModelRuntime.class).get().barrier().get(30, TimeUnit.SECONDS);
        String ns = "rel-team" + tag;
        new TestFleet().job(ns + "/train", 0, 0, "s3" + tag, "o2" + tag);
        seed = new Seed(
                tag,
                t0,
                HandCountedFleet.SPOT_POOL + tag,
                HandCountedFleet.ON_DEMAND_POOL + tag,
                "lemon-pool" + tag,
                "lemon" + tag + "-9",
                ns);
        seededIn = Arc.container();
        return seed;
    }

    @AfterEach
    void tearDown() {
        UiTestSupport.tearDown();
    }

    private static ReliabilityView open(Caller caller, Map<String, String> query) {
        UiTestSupport.setupAs(caller);
        UI.getCurrent().navigate("reliability", QueryParameters.simple(query));
        return UiTestSupport.view(ReliabilityView.class);
    }

    private static Optional<ReliabilityRow> row(ReliabilityView view, String group) {
        return view.report() == null
                ? Optional.empty()
                : view.report().rows().stream()
                        .filter(r -> r.group().equals(group))
                        .findFirst();
    }

    private static String shown(ReliabilityView view, String group) {
        List<ReliabilityRow> items = view.grid().getListDataView().getItems().toList();
        int at = items.stream().map(ReliabilityRow::group).toList().indexOf(group);
        assertThat(at).as("row of %s", group).isNotNegative();
        return String.join(" | ", GridKt._getFormattedRow(view.grid(), at));
    }

    /** Hours the nodes still in service gained since the seed's "now" (ten days after t0). */
    private static double since(Seed s) {
        return Duration.between(s.t0().plus(Duration.ofDays(10)), Instant.now()).toMillis() / 3_600_000.0;
    }

    /**
     * Node hours of a group whose {@code inService} nodes are still in service: its hand-counted hours plus the time
     * they gained since the seed's "now", counted by the report at some moment between {@code sinceBefore} (taken
     * before the view was opened) and this call; a loaded machine may put many seconds between the two.
     */
    private static void assertNodeHours(double actual, double counted, int inService, Seed s, double sinceBefore) {
        assertThat(actual).isBetween(counted + inService * sinceBefore - 0.01, counted + inService * since(s) + 0.01);
    }

    @Test
    void showsTheHandCountedMtbfPerPoolWithItsIntervalsAndTheLemonWithItsEvidence() throws Exception {
        Seed s = seed();
        double before = since(s);
        ReliabilityView view =
                open(Caller.ofToken("rel-admin" + s.tag(), "test-admin", Role.ADMIN, List.of()), Map.of());
        UiTestSupport.await(
                () -> row(view, s.spot()).isPresent() && row(view, s.onDemand()).isPresent());
        assertThat(view.report().windowDays()).isEqualTo(30);
        assertThat(view.report().groupBy()).isEqualTo(GroupBy.POOL);

        ReliabilityRow spot = row(view, s.spot()).orElseThrow();
        assertThat(spot.interruptions()).isEqualTo(HandCountedFleet.SPOT_INTERRUPTIONS);
        // s2 and s3 are still in service: they add the time since the seed's "now".
        assertNodeHours(spot.nodeHours(), HandCountedFleet.SPOT_NODE_SECONDS / 3600.0, 2, s, before);
        assertThat(spot.mtbfHours()).isCloseTo(HandCountedFleet.SPOT_MTBF_HOURS, within(0.01));
        assertThat(shown(view, s.spot()))
                .contains(
                        "| 20.0 |",
                        "| 4 |",
                        "spot reclaim 1",
                        "not ready 1",
                        "gpu failure 1",
                        "termination 1",
                        "| 120.0 h (");
        ReliabilityRow od = row(view, s.onDemand()).orElseThrow();
        assertThat(od.mtbfHours()).isCloseTo(HandCountedFleet.ON_DEMAND_MTBF_HOURS, within(0.01));
        // Exact 95 % limits for 5 events (1.6235, 11.668) over 480 node-hours, per 1,000 node-days and as MTBF.
        assertThat(shown(view, s.onDemand()))
                .contains("| 5 |", "not ready 5", "| 96.0 h (41.1 h – 295.7 h) |", "| 250.0 (81.2 – 583.4)");

        String option = view.chart().option();
        assertThat(option).contains("\"" + s.spot() + "\"", "\"" + s.onDemand() + "\"", "boxplot", "\"type\":\"log\"");
        assertThat(view.chart().getElement().getAttribute("aria-label"))
                .contains(s.spot() + " 120.0 h (", s.onDemand() + " 96.0 h (41.1 h – 295.7 h)");

        UiTestSupport.await(() -> view.lemons()
                .getListDataView()
                .getItems()
                .anyMatch(l -> l.node().equals(s.lemon())));
        List<LemonNode> lemons = view.lemons().getListDataView().getItems().toList();
        int at = lemons.stream().map(LemonNode::node).toList().indexOf(s.lemon());
        LemonNode lemon = lemons.get(at);
        assertThat(lemon.pool()).isEqualTo(s.lemonPool());
        assertThat(lemon.interruptions()).isEqualTo(8);
        assertThat(lemon.tailProbability()).isLessThan(1e-4);
        assertThat(lemons).noneMatch(l -> l.pool().equals(s.spot()) || l.pool().equals(s.onDemand()));
        Anchor link = (Anchor) GridKt._getCellComponent(view.lemons(), at, "node");
        assertThat(link.getHref()).isEqualTo("fleet?node=" + s.lemon());
        Component evidence = GridKt._getCellComponent(view.lemons(), at, "evidence");
        assertThat(evidence.getChildren().count()).isEqualTo(8);
        assertThat(evidence.getElement().getTextRecursively()).contains("not ready: KubeletNotReady");

        assertThat(_find(SideNavItem.class)).anySatisfy(i -> {
            assertThat(i.getLabel()).isEqualTo("Reliability");
            assertThat(i.getPath()).isEqualTo("reliability");
        });
    }

    @Test
    void theWindowGroupingAndCauseComeFromTheUrlAndChangeTheReport() throws Exception {
        Seed s = seed();
        ReliabilityView view = open(
                Caller.ofToken("rel-viewer" + s.tag(), "test-viewer", Role.VIEWER, List.of()),
                Map.of("window", "7d", "groupBy", "zone", "cause", "not-ready"));
        UiTestSupport.await(() -> view.report() != null && view.report().groupBy() == GroupBy.ZONE);
        assertThat(view.windowSelect().getValue()).isEqualTo("7d");
        assertThat(view.groupBySelect().getValue()).isEqualTo(GroupBy.ZONE);
        assertThat(view.causeSelect().getValue()).isEqualTo("not-ready");
        assertThat(view.report().windowDays()).isEqualTo(7);
        assertThat(view.report().cause()).isEqualTo(InterruptionCause.NOT_READY);
        assertThat(view.grid().getColumnByKey("group").getHeaderText()).isEqualTo("Zone");
        assertThat(row(view, "us-east-1b")).isPresent();

        _setValue(view.groupBySelect(), GroupBy.CAPACITY_TYPE);
        _setValue(view.causeSelect(), ReliabilityView.ALL);
        _setValue(view.windowSelect(), "90d");
        UiTestSupport.await(() -> view.report().groupBy() == GroupBy.CAPACITY_TYPE
                && view.report().cause() == null
                && view.report().windowDays() == 90);
        assertThat(row(view, "on-demand")).isPresent();
        assertThat(view.grid().getColumnByKey("group").getHeaderText()).isEqualTo("Capacity type");
    }

    @Test
    void aViewerLimitedToANamespaceSeesTheFiguresOfItsJobsNodesOnly() throws Exception {
        Seed s = seed();
        double before = since(s);
        ReliabilityView view = open(
                Caller.ofToken("rel-scoped" + s.tag(), "viewer-rel", Role.VIEWER, List.of(s.namespace())), Map.of());
        UiTestSupport.await(() -> row(view, s.onDemand()).isPresent());
        // Only s3 (no interruption, five days in service) and o2 (five over ten days) host the namespace's job.
        assertThat(view.report().rows())
                .extracting(ReliabilityRow::group)
                .containsExactlyInAnyOrder(s.spot(), s.onDemand());
        ReliabilityRow spot = row(view, s.spot()).orElseThrow();
        assertNodeHours(spot.nodeHours(), 120, 1, s, before);
        assertThat(spot.interruptions()).isZero();
        assertThat(shown(view, s.spot())).contains("| 5.0 |", "| 0 |", "no interruption (≥ ");
        ReliabilityRow od = row(view, s.onDemand()).orElseThrow();
        assertNodeHours(od.nodeHours(), 240, 1, s, before);
        assertThat(od.mtbfHours()).isCloseTo(48, within(0.01));
        assertThat(shown(view, s.onDemand())).contains("| 10.0 |", "| 5 |", "| 48.0 h (");
        assertThat(view.report().lemons()).isEmpty();
        assertThat(view.chart().option()).doesNotContain("lemon-pool");
    }

    /**
     * The job of {@link TwiceRecoveredJob}, seen by a viewer of its namespace: the section of recovery time by phase
     * counts its two interruptions, the cells hold the median and 90th percentile worked out there (detection 30 and
     * 90 s, rendezvous 10 and 30 s, restore 60 and 20 s), the chart stacks the medians, and the window and grouping
     * come from the URL and change the report.
     */
    @Test
    void recoveryTimeByPhaseForTheViewersJobs() throws Exception {
        TwiceRecoveredJob job =
                TwiceRecoveredJob.tagged(UUID.randomUUID().toString().substring(0, 8));
        job.post(Instant.now().minus(Duration.ofDays(2)).truncatedTo(ChronoUnit.SECONDS));
        Arc.container().instance(ModelRuntime.class).get().barrier().get(30, TimeUnit.SECONDS);
        ReliabilityView view = open(
                Caller.ofToken("rel-phases" + job.namespace(), "viewer-phases", Role.VIEWER, List.of(job.namespace())),
                Map.of("phasesWindow", "30d"));
        RecoveryPhasesSection phases = view.phases();
        UiTestSupport.await(
                () -> phases.report() != null && phases.report().all().incidents() == 2);
        assertThat(phases.windowSelect().getValue()).isEqualTo("30d");
        assertThat(phases.report().windowDays()).isEqualTo(30);
        assertThat(phases.report().groupBy()).isEqualTo(PhaseGroupBy.CAUSE);
        List<RecoveryPhaseRow> items =
                phases.grid().getListDataView().getItems().toList();
        assertThat(items).extracting(RecoveryPhasesPresenter::group).containsExactly("All", "software error");
        String row = String.join(" | ", GridKt._getFormattedRow(phases.grid(), 1));
        assertThat(row)
                .startsWith(
                        "software error | 2 | 30 s / 1 min 30 s | 0 s / 0 s | 0 s / 0 s | 10 s / 30 s | 20 s / 1 min |");
        assertThat(phases.grid().getColumnByKey("detection").getHeaderText()).isEqualTo("Detection p50 / p90");
        assertThat(phases.chart().option()).contains("\"stack\":\"median\"", "\"software error (2)\"");
        assertThat(phases.chart().getElement().getAttribute("aria-label"))
                .contains("software error (2): detection 30 s, decision 0 s, rescheduling 0 s, rendezvous 10 s");

        _setValue(phases.bySelect(), PhaseGroupBy.POOL);
        UiTestSupport.await(() -> phases.report().groupBy() == PhaseGroupBy.POOL);
        assertThat(phases.grid().getColumnByKey("group").getHeaderText()).isEqualTo("Pool");
        assertThat(phases.grid().getListDataView().getItems().toList())
                .extracting(RecoveryPhasesPresenter::group)
                .containsExactly("All", job.pool());
    }
}
