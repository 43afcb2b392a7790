package io.lifeline.ui;

import static com.github.mvysny.kaributesting.v10.LocatorJ._click;
import static com.github.mvysny.kaributesting.v10.LocatorJ._find;
import static com.github.mvysny.kaributesting.v10.LocatorJ._get;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.mvysny.kaributesting.v10.GridKt;
import com.github.mvysny.kaributesting.v10.NotificationsKt;
import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.details.Details;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.html.Span;
import io.lifeline.domain.job.TimelineEntry;
import io.lifeline.security.identity.Role;
import io.lifeline.testing.CloudEvents;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
class JobDetailViewTest {

    @BeforeEach
    void setUp() throws Exception {
        UiTestSupport.feedDemoData();
    }

    @AfterEach
    void tearDown() {
        UiTestSupport.tearDown();
    }

    private JobDetailView open(Role role, String job) {
        UiTestSupport.setup(role);
        int q = job.indexOf('?');
        if (q < 0) {
            UI.getCurrent().navigate("jobs/" + job);
        } else {
            UI.getCurrent()
                    .navigate(
                            "jobs/" + job.substring(0, q),
                            com.vaadin.flow.router.QueryParameters.fromString(job.substring(q + 1)));
        }
        return UiTestSupport.view(JobDetailView.class);
    }

    @Test
    void showsTheTimelineChartWithWorldSizeCheckpointsAndIncidents() {
        JobDetailView view = open(Role.VIEWER, UiTestSupport.JOB);
        UiTestSupport.await(() -> view.shown() != null);
        JobDetailModel m = view.shown();
        assertThat(m.membership().worldSizeSeries()).isNotEmpty();
        assertThat(m.checkpoints().checkpoints()).isNotEmpty();
        String option = _get(EChart.class, s -> s.withId("job-timeline")).option();
        assertThat(option)
                .contains("\"step\":\"end\"")
                .contains("World size")
                .contains("Checkpoints")
                .contains(m.checkpoints().checkpoints().get(0).id());
        if (!m.incidents().isEmpty()) {
            assertThat(option).contains("markArea");
        }
        assertThat(_get(EChart.class, s -> s.withId("job-goodput-chart")).option())
                .contains("Productive");
    }

    /** The demo's llama3 runs rank 0 on spot in pool spot-p5, which also has on-demand nodes: the page says so. */
    @Test
    void showsTheSpotPlacementFlagTheIntervalPerCapacityTypeAndTheVerdict() {
        JobDetailView view = open(Role.VIEWER, UiTestSupport.JOB);
        UiTestSupport.await(() -> view.shown() != null);
        JobDetailModel m = view.shown();
        String text = _get(Div.class, s -> s.withId("job-spot")).getElement().getTextRecursively();
        assertThat(text)
                .contains("Checkpoint every")
                .contains(" on spot (")
                .contains(" on on-demand (")
                .contains("Cheaper per useful GPU-hour");
        if (m.detail().summary().state().isActive()) {
            assertThat(m.spot().placement().flagged()).isTrue();
            assertThat(text).contains("Coordinator on spot").contains("on-demand capacity exists in pool spot-p5");
        }
    }

    @Test
    void showsGoodputCheckpointsMembershipAndAdvice() {
        JobDetailView view = open(Role.VIEWER, UiTestSupport.JOB);
        UiTestSupport.await(() -> view.shown() != null);
        assertThat(GridKt._size(_get(Grid.class, s -> s.withId("job-goodput")))).isEqualTo(10);
        assertThat(GridKt._size(_get(Grid.class, s -> s.withId("job-checkpoints"))))
                .isEqualTo(view.shown().checkpoints().checkpoints().size());
        assertThat(GridKt._size(_get(Grid.class, s -> s.withId("job-rounds")))).isPositive();
        assertThat(_get(Div.class, s -> s.withId("job-advice")).getElement().getTextRecursively())
                .contains("Current interval")
                .contains("Recommended");
        assertThat(_get(Div.class, s -> s.withId("job-kpi-world")).getElement().getTextRecursively())
                .contains("min 96");
        // The demo's trainers report their own progress: that is the source the page names.
        assertThat(_get(Div.class, s -> s.withId("job-kpi-progress"))
                        .getElement()
                        .getTextRecursively())
                .contains("step ")
                .contains("source: agent");
    }

    /** Under the advice, a line per storage target the job writes to: bandwidth, free space, time until full. */
    @Test
    void showsALinePerStorageTargetTheJobWritesTo() {
        JobDetailView view = open(Role.VIEWER, UiTestSupport.JOB);
        UiTestSupport.await(() -> view.shown() != null);
        assertThat(view.shown().storage()).isNotEmpty();
        String advice =
                _get(Div.class, s -> s.withId("job-advice")).getElement().getTextRecursively();
        assertThat(advice)
                .contains("Storage " + view.shown().storage().get(0).target() + ": writes at")
                .contains("slowest tenth")
                .contains("kept by");
    }

    /** The recovery section reads what {@code GET .../recovery} answers, and the Restarts card counts failures. */
    @Test
    void showsTheRecoverySectionWithBothBudgetsTheLaddersModeAndTheRestartsAgainstFailures() {
        JobDetailView view = open(Role.VIEWER, UiTestSupport.JOB);
        UiTestSupport.await(() -> view.shown() != null);
        var recovery = view.shown().recovery();
        assertThat(recovery).isNotNull();
        assertThat(recovery.job()).isEqualTo(UiTestSupport.JOB);
        assertThat(_get(Div.class, s -> s.withId("job-recovery-budgets"))
                        .getElement()
                        .getTextRecursively())
                .contains("Failures", recovery.budgets().failures() + " / ")
                .contains("With notice or by plan", recovery.budgets().planned() + " / ");
        assertThat(_get(Div.class, s -> s.withId("job-recovery-mode"))
                        .getElement()
                        .getTextRecursively())
                .contains("Ladder " + recovery.mode());
        var summary = view.shown().detail().summary();
        String restarts =
                _get(Div.class, s -> s.withId("job-kpi-restarts")).getElement().getTextRecursively();
        if (summary.maxRestarts() != null) {
            assertThat(restarts)
                    .contains(recovery.budgets().failures() + " failures of a budget of " + summary.maxRestarts());
        }
    }

    @Test
    void aViewerSeesNoActionButtons() {
        JobDetailView view = open(Role.VIEWER, UiTestSupport.JOB);
        UiTestSupport.await(() -> view.shown() != null);
        assertThat(_find(Button.class, s -> s.withId("action-checkpoint"))).isEmpty();
        assertThat(_find(Button.class, s -> s.withId("action-rescale"))).isEmpty();
        assertThat(_find(Button.class, s -> s.withClasses("ll-restore"))).isEmpty();
        assertThat(_find(Span.class, s -> s.withId("actions-unavailable"))).isEmpty();
    }

    @Test
    void anOperatorsCheckpointNowShowsTheDryRunImpactBeforeAnythingHappens() {
        JobDetailView view = open(Role.OPERATOR, UiTestSupport.JOB);
        UiTestSupport.await(() -> view.shown() != null);
        assertThat(_find(Button.class, s -> s.withId("action-rescale"))).hasSize(1);
        _click(_get(Button.class, s -> s.withId("action-checkpoint")));
        ActionDialog dialog = _get(ActionDialog.class);
        Div impact = _get(Div.class, s -> s.withId("action-impact"));
        UiTestSupport.await(() -> dialog.shownImpact() != null
                || impact.getElement().getTextRecursively().contains("Refused"));
        assertThat(dialog.shownImpact())
                .as(impact.getElement().getTextRecursively())
                .isNotNull();
        assertThat(dialog.shownImpact().jobs()).contains(UiTestSupport.JOB);
        assertThat(impact.getElement().getTextRecursively())
                .contains("Work at risk")
                .contains("Ranks affected");
        assertThat(_get(Button.class, s -> s.withId("action-confirm")).isEnabled())
                .isTrue();
    }

    @Test
    void theTimelinesTimeWindowComesFromTheUrl() {
        long to = java.time.Instant.now().toEpochMilli() / 1000 * 1000;
        long from = to - 30 * 60_000;
        JobDetailView view = open(
                Role.VIEWER,
                UiTestSupport.JOB + "?from=" + java.time.Instant.ofEpochMilli(from) + "&to="
                        + java.time.Instant.ofEpochMilli(to));
        UiTestSupport.await(() -> view.shown() != null);
        String option = _get(EChart.class, s -> s.withId("job-timeline")).option();
        assertThat(option).contains("\"startValue\":" + from).contains("\"endValue\":" + to);
        assertThat(_get(EChart.class, s -> s.withId("job-timeline"))
                        .getElement()
                        .getAttribute("aria-label"))
                .contains("Interruption timeline of " + UiTestSupport.JOB);
    }

    @Test
    void anUnknownJobSaysSo() {
        JobDetailView view = open(Role.VIEWER, "nowhere/nothing");
        Div state = _get(Div.class, s -> s.withId("job-state"));
        UiTestSupport.await(() -> state.getElement().getTextRecursively().contains("No job"));
        assertThat(view.shown()).isNull();
    }

    @Test
    void withoutACheckpointThatSurvivesANodeTheFreshnessCardSaysNoneAndWhatItsAgeIs() throws Exception {
        Instant t0 = Instant.now().minusSeconds(60);
        String job = "fresh-ui/node-local";
        List<String> events = List.of(
                CloudEvents.event(
                        CloudEvents.uniqueId(),
                        "test/agent",
                        "job.submitted",
                        job,
                        t0,
                        "{\"namespace\":\"fresh-ui\",\"elastic\":{\"minNodes\":1,\"maxNodes\":2,\"procsPerNode\":1,"
                                + "\"maxRestarts\":3},\"gpusPerNode\":0}"),
                CloudEvents.event(
                        CloudEvents.uniqueId(),
                        "test/agent",
                        "trainer.rendezvous",
                        job,
                        t0.plusSeconds(1),
                        "{\"runId\":\"r\",\"round\":0,\"worldSize\":2,\"participants\":[{\"node\":\"fresh-n1\","
                                + "\"firstRank\":0,\"rankCount\":1},{\"node\":\"fresh-n2\",\"firstRank\":1,"
                                + "\"rankCount\":1}]}"),
                CloudEvents.event(
                        CloudEvents.uniqueId(),
                        "test/agent",
                        "trainer.progress",
                        job,
                        t0.plusSeconds(2),
                        "{\"step\":10}"),
                CloudEvents.event(
                        CloudEvents.uniqueId(),
                        "test/agent",
                        "trainer.checkpoint.completed",
                        job,
                        t0.plusSeconds(3),
                        "{\"checkpointId\":\"step-10\",\"step\":10,\"durationSeconds\":1,"
                                + "\"blockingSeconds\":1,\"uri\":\"file:///nvme/step-10/\",\"durable\":false,"
                                + "\"replicas\":[\"fresh-n1\"]}"));
        TestTokens.api()
                .contentType(ContentType.JSON)
                .body(CloudEvents.array(events))
                .post("/api/v1/events")
                .then()
                .statusCode(200);
        io.quarkus.arc.Arc.container()
                .instance(io.lifeline.runtime.ModelRuntime.class)
                .get()
                .barrier()
                .get(30, java.util.concurrent.TimeUnit.SECONDS);

        JobDetailView view = open(Role.VIEWER, job);
        UiTestSupport.await(() -> view.shown() != null);
        String card =
                _get(Div.class, s -> s.withId("job-kpi-freshness")).getElement().getTextRecursively();
        assertThat(card)
                .contains("none")
                .contains("of training unprotected")
                .contains("NODE-LOCAL: newest step-10 is lost with its node");
    }

    @Test
    void loadMorePagesThroughTheWholeTimelineIncludingWhatLeftMemory() throws Exception {
        // More entries than memory keeps (500) and than six pages hold: job.submitted, then one job.updated a second.
        int updates = 649;
        Instant t0 = Instant.parse("2026-03-03T08:00:00Z");
        String job = "hist-ui/long";
        List<String> events = new ArrayList<>();
        events.add(CloudEvents.event(
                CloudEvents.uniqueId(),
                "test/k8s",
                "job.submitted",
                job,
                t0,
                "{\"namespace\":\"hist-ui\",\"elastic\":{\"minNodes\":1,\"maxNodes\":2,\"procsPerNode\":8,"
                        + "\"maxRestarts\":10},\"gpusPerNode\":8}"));
        for (int i = 1; i <= updates; i++) {
            events.add(CloudEvents.event(
                    CloudEvents.uniqueId(),
                    "test/k8s",
                    "job.updated",
                    job,
                    t0.plusSeconds(i),
                    "{\"checkpointIntervalSeconds\":" + (600 + i) + "}"));
        }
        // In batches smaller than the ring, which the model drains after each batch it applies.
        for (List<String> part : List.of(events.subList(0, 300), events.subList(300, events.size()))) {
            TestTokens.api()
                    .contentType(ContentType.JSON)
                    .body(CloudEvents.array(part))
                    .post("/api/v1/events")
                    .then()
                    .statusCode(200);
        }
        io.quarkus.arc.Arc.container()
                .instance(io.lifeline.runtime.ModelRuntime.class)
                .get()
                .barrier()
                .get(30, java.util.concurrent.TimeUnit.SECONDS);

        JobDetailView view = open(Role.VIEWER, job);
        // The job is read off the UI thread; its sections show once it has arrived.
        UiTestSupport.await(() -> view.shown() != null);
        Grid<?> grid = _get(Grid.class, s -> s.withId("job-timeline-entries"));
        Button more = _get(Button.class, s -> s.withId("timeline-more"));
        UiTestSupport.await(() -> GridKt._size(grid) == JobDetailView.ENTRIES_PAGE && more.isEnabled());
        // Time order, like the API: the first page starts with the oldest entries, long gone from memory.
        assertThat(view.listedEntries().get(0).type()).isEqualTo("job.submitted");
        assertThat(view.listedEntries().get(0).time()).isEqualTo(t0);
        int clicks = 0;
        while (more.isEnabled()) {
            int before = GridKt._size(grid);
            _click(more);
            UiTestSupport.await(() -> GridKt._size(grid) > before
                    || !more.isEnabled() && !more.getText().equals("Load more"));
            assertThat(++clicks).isLessThan(20);
        }
        assertThat(clicks).isEqualTo(6);
        List<TimelineEntry> all = view.listedEntries();
        assertThat(all).hasSize(updates + 1);
        for (int i = 0; i < all.size(); i++) {
            assertThat(all.get(i).time()).as("entry %d", i).isEqualTo(t0.plusSeconds(i));
        }
        assertThat(all).extracting(TimelineEntry::seq).doesNotHaveDuplicates();
        assertThat(more.getText()).isEqualTo("All entries shown");
        assertThat(_get(Span.class, s -> s.withId("timeline-entries-state")).getText())
                .isEqualTo((updates + 1) + " entries shown");
    }

    @Test
    void theHangSectionShowsTheIncidentItsSuspectAndTheStacksGroupedWithTheOddOneOutOpen() throws Exception {
        String job = UiTestSupport.hungJob("stuck-operator");
        JobDetailView view = open(Role.OPERATOR, job);
        UiTestSupport.await(() -> view.shown() != null);
        assertThat(view.shown().stacks()).isNotNull();
        // Still judged while the hang incident waits for its restart: what is stuck now.
        assertThat(_get(Div.class, s -> s.withId("job-hang-verdict"))
                        .getElement()
                        .getTextRecursively())
                .contains("No progress for", "2 ranks reporting");
        assertThat(_get(Div.class, s -> s.withId("job-hang-incident"))
                        .getElement()
                        .getTextRecursively())
                .contains("Hung: incident open", "suspect rank 1 on hang-n2", "hang-n2");
        assertThat(_get(Div.class, s -> s.withId("job-hang-stacks-head"))
                        .getElement()
                        .getTextRecursively())
                .contains("hang-1", "2 of 2 ranks answered", "2 distinct stacks");
        List<Details> groups = _find(Details.class, s -> s.withClasses("ll-stack-group"));
        assertThat(groups).hasSize(2);
        Details odd = _get(Details.class, s -> s.withClasses("ll-odd-one-out"));
        assertThat(odd.isOpened()).isTrue();
        String oddText = odd.getElement().getTextRecursively();
        assertThat(oddText)
                .contains("odd one out", "1 rank (1)", "loader.py:12 in read_shard", "on hang-n2")
                // innermost last, as Python prints them
                .containsSubsequence("train.py:88 in main", "train.py:47 in next_batch", "loader.py:12 in read_shard");
        Details crowd = groups.stream().filter(d -> d != odd).findFirst().orElseThrow();
        assertThat(crowd.isOpened()).isFalse();
        assertThat(crowd.getElement().getTextRecursively())
                .contains("waiting in a collective", "all_reduce")
                .doesNotContain("odd one out");
        // The incident list names the cause like any other, and how long the job hung.
        Grid<?> incidents = _get(Grid.class, s -> s.withId("job-incidents"));
        assertThat(GridKt._getFormattedRow(incidents, 0)).contains("hang", "open", "hang-n2");
        // An operator may ask the ranks for their stacks now.
        Button capture = _get(Button.class, s -> s.withId("job-hang-capture"));
        _click(capture);
        UiTestSupport.await(() -> !NotificationsKt.getNotifications().isEmpty() && capture.isEnabled());
    }

    @Test
    void aViewerSeesTheHangSectionWithoutTheCaptureButton() throws Exception {
        String job = UiTestSupport.hungJob("stuck-viewer");
        JobDetailView view = open(Role.VIEWER, job);
        UiTestSupport.await(() -> view.shown() != null);
        assertThat(_find(Details.class, s -> s.withClasses("ll-stack-group"))).hasSize(2);
        assertThat(_find(Button.class, s -> s.withId("job-hang-capture"))).isEmpty();
    }
}
