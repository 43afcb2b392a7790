package io.lifeline.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.job.JobState;
import io.lifeline.domain.job.straggler.Straggler;
import io.lifeline.domain.job.straggler.StragglerView;
import io.lifeline.domain.job.straggler.SuggestedDrain;
import io.lifeline.ui.data.JobRow;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the job page's Stragglers section and the fleet view's list say. */
class StragglerSectionTest {

    private static final Instant AT = Instant.parse("2026-03-01T10:40:00Z");
    private static final StragglerView SLOW = new StragglerView(
            List.of(new Straggler(1, "node-b", 0, 0, 0.301, 0.101, 2.98, AT, AT.plusSeconds(90), 4)),
            List.of("node-b"),
            2,
            0.101,
            AT.plusSeconds(120),
            12,
            0.0067,
            new SuggestedDrain("node-b", "straggler: rank 1 of ml/x on node-b", true));
    private static final StragglerView HEALTHY = new StragglerView(List.of(), List.of(), 2, 0.1, AT, 12, 0, null);

    @Test
    void theSectionNamesTheRankItsNodeAndGpuTheSlowdownAndTheCost() {
        List<String> lines = StragglerSection.lines(SLOW);
        assertThat(lines.get(0)).contains("2 ranks reporting", "median step 0.101 s");
        assertThat(lines.get(1)).contains("rank 1 on node-b, GPU 0", "0.301 s per step", "2.98x");
        StragglerSection section = new StragglerSection(null);
        section.show(SLOW, "ml");
        String text = section.getElement().getTextRecursively();
        assertThat(text).contains("1 straggling rank").contains("rank 1 on node-b");
        assertThat(text).as("a viewer is offered no drain").doesNotContain("Drain node-b");
        section.show(HEALTHY, "ml");
        assertThat(section.getElement().getTextRecursively())
                .contains("No straggler")
                .doesNotContain("rank 1");
        section.show(StragglerView.NONE, "ml");
        assertThat(section.getElement().getTextRecursively()).contains("No step times reported yet");
    }

    @Test
    void theFleetListsTheJobsHeldBackMostCostlyFirst() {
        StragglerView worse = new StragglerView(SLOW.stragglers(), SLOW.nodes(), 2, 0.1, AT, 12, 3.5, null);
        List<String> lines = FleetStragglers.lines(
                List.of(row("ml/a", SLOW), row("ml/b", HEALTHY), row("ml/c", worse), row("ml/d", null)));
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).startsWith("ml/c: rank 1 on node-b (GPU 0) at 2.98x");
        assertThat(lines.get(1)).startsWith("ml/a:");
        FleetStragglers fleet = new FleetStragglers();
        fleet.show(List.of(row("ml/b", HEALTHY)));
        assertThat(fleet.getElement().getTextRecursively()).contains("No job is held back by a straggler");
    }

    private static JobRow row(String name, StragglerView v) {
        return new JobRow(
                name, "ml", JobState.RUNNING, 2, 1, 2, null, 0, false, null, 0, 0, null, null, false, "p", "spot", v);
    }
}
