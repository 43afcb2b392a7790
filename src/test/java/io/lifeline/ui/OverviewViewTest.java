package io.lifeline.ui;

import static com.github.mvysny.kaributesting.v10.LocatorJ._get;
import static org.assertj.core.api.Assertions.assertThat;

import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.html.Div;
import io.lifeline.security.Role;
import io.quarkus.test.junit.QuarkusTest;
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
        assertThat(_get(Div.class, s -> s.withId("kpi-ettr-24h")).getElement().getTextRecursively()).contains("%");
        assertThat(_get(Div.class, s -> s.withId("kpi-nodes")).getElement().getTextRecursively())
                .contains(m.nodes() + " nodes");
        EChart causes = _get(EChart.class, s -> s.withId("causes-chart"));
        if (m.causes7d().isEmpty()) {
            assertThat(causes.isVisible()).isFalse();
        } else {
            assertThat(causes.option()).contains("Interruptions").contains("Lost GPU-hours");
            assertThat(m.lostGpuHours7d()).isGreaterThanOrEqualTo(0);
        }
    }

    @Test
    void listsJobsBreachingTheirObjectiveStalestFirst() {
        UI.getCurrent().navigate(OverviewView.class);
        OverviewView view = UiTestSupport.view(OverviewView.class);
        UiTestSupport.await(() -> view.shown() != null && view.shown().nodes() > 0);
        var breaching = view.shown().breaching();
        assertThat(breaching).allMatch(io.lifeline.ui.data.JobRow::breached);
        for (int i = 1; i < breaching.size(); i++) {
            Double prev = breaching.get(i - 1).freshnessRatio();
            Double cur = breaching.get(i).freshnessRatio();
            if (prev != null && cur != null) {
                assertThat(prev).isGreaterThanOrEqualTo(cur);
            }
        }
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
        assertThat(_get(com.vaadin.flow.component.html.Span.class, s -> s.withId("time-zone")).getText())
                .startsWith("Times in ");
    }
}
