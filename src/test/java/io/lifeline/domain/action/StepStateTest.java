package io.lifeline.domain.action;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Every legal step transition, and that nothing else is one. */
class StepStateTest {

    @Test
    void onlyTheDocumentedTransitionsAreLegal() {
        Set<String> legal =
                Set.of("PENDING>RUNNING", "RUNNING>RUNNING", "RUNNING>DONE", "RUNNING>FAILED", "RUNNING>SKIPPED");
        for (StepState from : StepState.values()) {
            for (StepState to : StepState.values()) {
                assertThat(to.canFollow(from)).as(from + " -> " + to).isEqualTo(legal.contains(from + ">" + to));
            }
        }
    }

    @Test
    void aFinishedStepNeverRunsAgain() {
        for (StepState done : EnumSet.of(StepState.DONE, StepState.FAILED, StepState.SKIPPED)) {
            assertThat(done.terminal()).isTrue();
            assertThat(StepState.RUNNING.canFollow(done)).isFalse();
        }
    }
}
