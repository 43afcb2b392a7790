package io.lifeline.ui;

import static com.github.mvysny.kaributesting.v10.LocatorJ._get;
import static com.github.mvysny.kaributesting.v10.LocatorJ._setValue;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.mvysny.kaributesting.v10.GridKt;
import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.checkbox.Checkbox;
import com.vaadin.flow.component.combobox.ComboBox;
import com.vaadin.flow.component.textfield.TextField;
import io.lifeline.domain.job.JobState;
import io.lifeline.security.identity.Role;
import io.lifeline.ui.data.JobRow;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
class JobsViewTest {

    private JobsView view;

    @BeforeEach
    void setUp() throws Exception {
        UiTestSupport.feedDemoData();
        UiTestSupport.setup(Role.VIEWER);
        UI.getCurrent().navigate(JobsView.class);
        view = UiTestSupport.view(JobsView.class);
        UiTestSupport.await(() -> GridKt._size(view.grid()) >= 3);
    }

    @AfterEach
    void tearDown() {
        UiTestSupport.tearDown();
    }

    @Test
    void listsEveryJobWithWorldSizeFreshnessEttrAndLoss() {
        int row = -1;
        for (int i = 0; i < GridKt._size(view.grid()); i++) {
            if (GridKt._get(view.grid(), i).name().equals(UiTestSupport.JOB)) {
                row = i;
            }
        }
        assertThat(row).isNotNegative();
        JobRow job = GridKt._get(view.grid(), row);
        assertThat(job.minWorldSize()).isEqualTo(96);
        assertThat(job.maxWorldSize()).isEqualTo(128);
        assertThat(GridKt._getFormattedRow(view.grid(), row))
                .anyMatch(c -> c.contains("(96–128)"))
                .anyMatch(c -> c.endsWith("%") || c.equals("—"));
    }

    @Test
    void searchNarrowsTheGrid() {
        _setValue(_get(TextField.class, s -> s.withId("job-search")), "llama");
        assertThat(GridKt._size(view.grid())).isEqualTo(1);
        assertThat(GridKt._get(view.grid(), 0).name()).isEqualTo(UiTestSupport.JOB);
    }

    @Test
    @SuppressWarnings("unchecked")
    void filtersByStateAndStaleCheckpoint() {
        ComboBox<JobState> state = _get(ComboBox.class, s -> s.withId("job-state"));
        _setValue(state, JobState.SUCCEEDED);
        assertThat(GridKt._findAll(view.grid())).allMatch(j -> j.state() == JobState.SUCCEEDED);
        _setValue(state, null);
        _setValue(_get(Checkbox.class, s -> s.withId("job-breached")), true);
        assertThat(GridKt._findAll(view.grid())).allMatch(JobRow::breached);
    }

    @Test
    void aPastedLinkOpensTheSameSearchAndFilters() {
        UI.getCurrent().navigate("jobs", com.vaadin.flow.router.QueryParameters.fromString("q=llama"));
        JobsView fromLink = UiTestSupport.view(JobsView.class);
        UiTestSupport.await(() -> GridKt._size(fromLink.grid()) == 1);
        assertThat(GridKt._get(fromLink.grid(), 0).name()).isEqualTo(UiTestSupport.JOB);
        assertThat(_get(TextField.class, s -> s.withId("job-search")).getValue())
                .isEqualTo("llama");
        UI.getCurrent().navigate("jobs", com.vaadin.flow.router.QueryParameters.fromString("state=succeeded"));
        UiTestSupport.await(
                () -> GridKt._findAll(view().grid()).stream().allMatch(j -> j.state() == JobState.SUCCEEDED));
        assertThat(_get(TextField.class, s -> s.withId("job-search")).getValue())
                .isEmpty();
    }

    private JobsView view() {
        return UiTestSupport.view(JobsView.class);
    }

    @Test
    void clickingAJobOpensItsDetail() {
        _setValue(_get(TextField.class, s -> s.withId("job-search")), "llama");
        GridKt._clickItem(view.grid(), 0, 0, false, false, false, false);
        JobDetailView detail = UiTestSupport.view(JobDetailView.class);
        UiTestSupport.await(() -> detail.shown() != null);
        assertThat(detail.shown().name()).isEqualTo(UiTestSupport.JOB);
    }
}
