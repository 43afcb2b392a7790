package io.lifeline.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.demo.FleetSimulator;
import io.lifeline.demo.TestScenarios;
import io.lifeline.domain.event.Event;
import io.lifeline.testing.MovableClock;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The published snapshot says what the live model says: every job's incidents and checkpoint history, and which jobs
 * each node hosts, after ten simulated minutes of a fleet with interruptions (jobs move between nodes, incidents open
 * and close), and again one snapshot later.
 */
class ModelSnapshotTest {

    @Test
    void theSnapshotAgreesWithTheLiveModel() {
        MovableClock clock = new MovableClock(TestScenarios.START);
        LiveModel model = LiveModel.create(clock);
        FleetSimulator sim = new FleetSimulator(TestScenarios.large(64, 16), TestScenarios.START);
        ModelSnapshot snapshot = ModelSnapshot.EMPTY;
        Instant now = TestScenarios.START;
        for (int minute = 1; minute <= 10; minute++) {
            now = now.plusSeconds(60);
            for (Event e : sim.advanceTo(now)) {
                model.root().apply(e);
            }
            clock.set(now);
            snapshot = ModelSnapshot.take(model, snapshot, now, 0);
            assertAgrees(model, snapshot);
        }
    }

    private static void assertAgrees(LiveModel model, ModelSnapshot snapshot) {
        assertThat(snapshot.jobs()).hasSize(model.jobs().size());
        assertThat(snapshot.jobsByNode()).isEqualTo(model.jobs().jobsByNode());
        for (ModelSnapshot.JobSnapshot j : snapshot.jobs()) {
            assertThat(j.incidents())
                    .as("incidents of %s", j.name())
                    .isEqualTo(model.jobs().incidents(j.name()).orElseThrow());
            assertThat(j.checkpoints())
                    .as("checkpoints of %s", j.name())
                    .isEqualTo(model.jobs().checkpoints(j.name()).orElse(null));
        }
        assertThat(snapshot.jobsByNode().values().stream()
                        .mapToInt(java.util.List::size)
                        .sum())
                .as("jobs hosted somewhere")
                .isPositive();
    }
}
