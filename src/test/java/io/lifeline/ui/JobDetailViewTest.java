package io.lifeline.ui;

import static com.github.mvysny.kaributesting.v10.LocatorJ._click;
import static com.github.mvysny.kaributesting.v10.LocatorJ._find;
import static com.github.mvysny.kaributesting.v10.LocatorJ._get;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.mvysny.kaributesting.v10.GridKt;
import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.html.Span;
import io.lifeline.security.Role;
import io.quarkus.test.junit.QuarkusTest;
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
            UI.getCurrent().navigate("jobs/" + job.substring(0, q),
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
        assertThat(option).contains("\"step\":\"end\"").contains("World size").contains("Checkpoints")
                .contains(m.checkpoints().checkpoints().get(0).id());
        if (!m.incidents().isEmpty()) {
            assertThat(option).contains("markArea");
        }
        assertThat(_get(EChart.class, s -> s.withId("job-goodput-chart")).option()).contains("Productive");
    }

    @Test
    void showsGoodputCheckpointsMembershipAndAdvice() {
        JobDetailView view = open(Role.VIEWER, UiTestSupport.JOB);
        UiTestSupport.await(() -> view.shown() != null);
        assertThat(GridKt._size(_get(Grid.class, s -> s.withId("job-goodput")))).isEqualTo(9);
        assertThat(GridKt._size(_get(Grid.class, s -> s.withId("job-checkpoints"))))
                .isEqualTo(view.shown().checkpoints().checkpoints().size());
        assertThat(GridKt._size(_get(Grid.class, s -> s.withId("job-rounds")))).isPositive();
        assertThat(_get(Div.class, s -> s.withId("job-advice")).getElement().getTextRecursively())
                .contains("Current interval").contains("Recommended");
        assertThat(_get(Div.class, s -> s.withId("job-kpi-world")).getElement().getTextRecursively()).contains("min 96");
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
        UiTestSupport.await(() -> dialog.shownImpact() != null || impact.getElement().getTextRecursively().contains("Refused"));
        assertThat(dialog.shownImpact()).as(impact.getElement().getTextRecursively()).isNotNull();
        assertThat(dialog.shownImpact().jobs()).contains(UiTestSupport.JOB);
        assertThat(impact.getElement().getTextRecursively()).contains("Work at risk").contains("Ranks affected");
        assertThat(_get(Button.class, s -> s.withId("action-confirm")).isEnabled()).isTrue();
    }

    @Test
    void theTimelinesTimeWindowComesFromTheUrl() {
        long to = java.time.Instant.now().toEpochMilli() / 1000 * 1000;
        long from = to - 30 * 60_000;
        JobDetailView view = open(Role.VIEWER, UiTestSupport.JOB + "?from=" + java.time.Instant.ofEpochMilli(from)
                + "&to=" + java.time.Instant.ofEpochMilli(to));
        UiTestSupport.await(() -> view.shown() != null);
        String option = _get(EChart.class, s -> s.withId("job-timeline")).option();
        assertThat(option).contains("\"startValue\":" + from).contains("\"endValue\":" + to);
        assertThat(_get(EChart.class, s -> s.withId("job-timeline")).getElement().getAttribute("aria-label"))
                .contains("Interruption timeline of " + UiTestSupport.JOB);
    }

    @Test
    void anUnknownJobSaysSo() {
        JobDetailView view = open(Role.VIEWER, "nowhere/nothing");
        Div state = _get(Div.class, s -> s.withId("job-state"));
        UiTestSupport.await(() -> state.getElement().getTextRecursively().contains("No job"));
        assertThat(view.shown()).isNull();
    }
}
