package io.lifeline.ui;

import static com.github.mvysny.kaributesting.v10.LocatorJ._get;
import static org.assertj.core.api.Assertions.assertThat;

import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.html.Div;
import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.security.identity.Role;
import io.lifeline.testing.CloudEvents;
import io.lifeline.testing.TestFleet;
import io.lifeline.ui.data.DashboardData;
import io.lifeline.ui.data.JobRow;
import io.quarkus.arc.Arc;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
class OverviewViewTest {

    @BeforeEach
    void setUp() throws Exception {
        UiTestSupport.feedDemoData();
        UiTestSupport.setup(Role.VIEWER);
    }

    @AfterEach
    void tearDown() {
        UiTestSupport.tearDown();
    }

    @Test
    void showsTheFleetTheJobsAndWhatInterruptionsCost() {
        UI.getCurrent().navigate(OverviewView.class);
        OverviewView view = UiTestSupport.view(OverviewView.class);
        UiTestSupport.await(() -> view.shown() != null && view.shown().nodes() >= 40);
        OverviewModel m = view.shown();
        assertThat(m.gpus()).isGreaterThanOrEqualTo(320);
        assertThat(m.jobsActive()).isPositive();
        assertThat(m.ettr24h().ettr()).isNotNull().isBetween(0.0, 1.0);
        assertThat(_get(Div.class, s -> s.withId("kpi-ettr-24h")).getElement().getTextRecursively())
                .contains("%");
        assertThat(_get(Div.class, s -> s.withId("kpi-nodes")).getElement().getTextRecursively())
                .contains(m.nodes() + " nodes");
        // The demo's 90 minutes (a fixed seed) hold interruptions: the chart of their causes is shown.
        assertThat(m.causes7d()).as("causes of the demo's interruptions").isNotEmpty();
        EChart causes = _get(EChart.class, s -> s.withId("causes-chart"));
        assertThat(causes.isVisible()).isTrue();
        assertThat(causes.option()).contains("Interruptions").contains("Lost GPU-hours");
        assertThat(m.lostGpuHours7d())
                .isPositive()
                .isCloseTo(
                        m.causes7d().stream()
                                .mapToDouble(io.lifeline.ui.data.CauseStat::lostGpuHours)
                                .sum(),
                        org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void showsTheEttrWithAndWithoutLifelinesActionsOnTheSameHistory() throws Exception {
        io.lifeline.runtime.CounterfactualService.Latest latest = Arc.container()
                .instance(io.lifeline.runtime.CounterfactualService.class)
                .get()
                .refresh()
                .get(60, TimeUnit.SECONDS);
        // The demo's 90 minutes hold spot reclaims announced 120 s ahead: those jobs are replayed both ways.
        assertThat(latest.jobs()).anyMatch(j -> j.noticed() > 0 && j.replayed());
        Arc.container().instance(DashboardData.class).get().refresh().get(30, TimeUnit.SECONDS);
        UI.getCurrent().navigate(OverviewView.class);
        OverviewView view = UiTestSupport.view(OverviewView.class);
        UiTestSupport.await(() -> view.shown() != null && view.shown().gain().computedAt() != null);
        io.lifeline.domain.replay.FleetCounterfactual g = view.shown().gain();
        assertThat(g.jobsNoticed()).isPositive();
        assertThat(g.ettrWith()).isBetween(0.0, 1.0);
        assertThat(g.ettrWithout()).isNotNull();
        String figure = _get(com.vaadin.flow.component.html.Span.class, s -> s.withId("gain-figure"))
                .getText();
        assertThat(figure)
                .startsWith("ETTR with Lifeline ")
                .contains(" / without Lifeline's actions ")
                .endsWith("(same history)");
        String caption = _get(com.vaadin.flow.component.html.Span.class, s -> s.withId("gain-caption"))
                .getText();
        assertThat(caption)
                .contains("notice policy off")
                .contains("notice-checkpoint-drain) is " + g.noticePolicyMode());
        if (!"on".equals(g.noticePolicyMode())) {
            // Tests run the policies off: Lifeline did not act, so nothing is taken off the measured ETTR.
            assertThat(g.ettrWithout()).isEqualTo(g.ettrWith());
            assertThat(caption).contains("no gain is counted");
        }
    }

    @Test
    void listsJobsBreachingTheirObjectiveStalestFirst() throws Exception {
        String stalest = "team-overview/stalest-" + CloudEvents.uniqueId().substring(0, 8);
        String fresher = "team-overview/fresher-" + CloudEvents.uniqueId().substring(0, 8);
        staleJob(fresher, 40);
        staleJob(stalest, 100);
        Arc.container().instance(DashboardData.class).get().refresh().get(30, TimeUnit.SECONDS);
        UI.getCurrent().navigate(OverviewView.class);
        OverviewView view = UiTestSupport.view(OverviewView.class);
        UiTestSupport.await(
                () -> view.shown() != null && names(view.shown().breaching()).containsAll(List.of(stalest, fresher)));

        List<JobRow> breaching = view.shown().breaching();
        assertThat(breaching).allMatch(JobRow::breached);
        assertThat(breaching)
                .isSortedAccordingTo(
                        Comparator.comparing(JobRow::freshnessRatio, Comparator.nullsLast(Comparator.reverseOrder())));
        assertThat(names(breaching).indexOf(stalest))
                .as("the staler job first")
                .isLessThan(names(breaching).indexOf(fresher));
    }

    private static List<String> names(List<JobRow> rows) {
        return rows.stream().map(JobRow::name).toList();
    }

    /** A running job on a node of its own whose last checkpoint is {@code checkpointSecondsAgo} old (objective 2 s). */
    private static void staleJob(String job, long checkpointSecondsAgo) {
        String node = "overview-" + job.substring(job.indexOf('/') + 1);
        Instant now = Instant.now();
        TestFleet fleet = new TestFleet().node(node, "overview");
        fleet.send(event(
                job,
                now.minusSeconds(300),
                EventType.JOB_SUBMITTED,
                new JobData.Submitted("team-overview", "alice", null, new ElasticPolicy(1, 1, 8, 3), 8, 1L)));
        fleet.send(event(
                job,
                now.minusSeconds(299),
                EventType.TRAINER_RENDEZVOUS,
                new TrainerData.Rendezvous("run-1", 1, 8, List.of(new TrainerData.Participant(node, 0, 8)))));
        fleet.send(
                event(job, now.minusSeconds(298), EventType.TRAINER_PROGRESS, new TrainerData.Progress(100, 1.0, 1.0)));
        fleet.send(event(
                job,
                now.minusSeconds(checkpointSecondsAgo),
                EventType.TRAINER_CHECKPOINT_COMPLETED,
                new TrainerData.CheckpointCompleted("ck-100", 100, 1L, 1.0, 1.0, null, null, null, false, null)));
        fleet.send(
                event(job, now.minusSeconds(1), EventType.TRAINER_PROGRESS, new TrainerData.Progress(150, 1.0, 1.0)));
    }

    private static Event event(String job, Instant at, EventType type, io.lifeline.domain.event.EventData data) {
        return new Event(CloudEvents.uniqueId(), "test://overview", type, job, at.truncatedTo(ChronoUnit.MILLIS), data);
    }

    @Test
    void theThemeSwitchesBetweenLightAndDark() {
        UI.getCurrent().navigate(OverviewView.class);
        UiTestSupport.view(OverviewView.class);
        var toggle = _get(com.vaadin.flow.component.button.Button.class, s -> s.withId("theme-toggle"));
        com.github.mvysny.kaributesting.v10.LocatorJ._click(toggle);
        assertThat(UI.getCurrent().getElement().getThemeList()).contains("dark");
        com.github.mvysny.kaributesting.v10.LocatorJ._click(toggle);
        assertThat(UI.getCurrent().getElement().getThemeList()).doesNotContain("dark");
    }

    @Test
    void showsTheTimeZoneTimesAreIn() {
        UI.getCurrent().navigate(OverviewView.class);
        UiTestSupport.view(OverviewView.class);
        assertThat(_get(com.vaadin.flow.component.html.Span.class, s -> s.withId("time-zone"))
                        .getText())
                .startsWith("Times in ");
    }
}
