package io.lifeline.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.action.view.ActionStepView;
import io.lifeline.action.view.ActionView;
import io.lifeline.demo.FleetSimulator;
import io.lifeline.demo.runtime.ScenarioParser;
import io.lifeline.domain.action.ActionState;
import io.lifeline.domain.action.StepState;
import io.lifeline.domain.policy.PolicyName;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The quick start's first ten minutes with the policies on, on a clock the test moves: the demo fleet, the model, the
 * policy runner and the executor as the application wires them. No automatic action may fail because Lifeline acted
 * at the wrong time: on a job still starting ("not training"), on a job not submitted yet ("no such job"), or by
 * waiting for a rendezvous the fleet could not hold. Run on a fresh install, and on one that remembers an earlier
 * session (the model already knows the jobs, training an hour ago), which is how the wall of red was first seen.
 */
class QuickStartPoliciesTest {

    /** What a failure caused by Lifeline's own timing says. */
    private static final List<String> TIMING = List.of("not training", "no such job", "no rendezvous at");
    /** The policies that answer an outside event at once, never held back by the readiness gate. */
    private static final List<String> URGENT =
            List.of(PolicyName.NOTICE_CHECKPOINT_DRAIN.requester(), PolicyName.FATAL_XID_DRAIN.requester());

    @Test
    void aFreshQuickStartsFirstTenMinutesHaveNoAutomaticActionFailedByTiming() throws Exception {
        try (QuickStartRig rig = new QuickStartRig("quick-start-fresh")) {
            rig.start();
            rig.advance(600);
            assertNoTimingFailures(rig);
        }
    }

    @Test
    void aQuickStartOverAnEarlierSessionHasNoAutomaticActionFailedByTiming() throws Exception {
        try (QuickStartRig rig = new QuickStartRig("quick-start-again")) {
            // The earlier session: the same fleet ran for an hour and stopped an hour ago.
            FleetSimulator earlier = new FleetSimulator(
                    new ScenarioParser().loadDefault(), QuickStartRig.START.minus(Duration.ofHours(2)));
            rig.apply(earlier.advanceTo(QuickStartRig.START.minus(Duration.ofHours(1))));
            rig.start();
            rig.advance(600);
            assertNoTimingFailures(rig);
            // The jobs the model remembered as training were left alone until their trainers answered, and it says so.
            assertThat(rig.policyActions())
                    .filteredOn(a -> a.outcome() != null && a.outcome().startsWith("skipped: "))
                    .extracting(ActionView::outcome)
                    .anySatisfy(o -> assertThat(o).contains("no progress from its" + " trainers"))
                    .anySatisfy(o -> assertThat(o).contains("inside the start-up grace"));
        }
    }

    private static void assertNoTimingFailures(QuickStartRig rig) {
        List<ActionView> all = rig.policyActions();
        List<String> failures = new ArrayList<>();
        for (ActionView a : all) {
            if (URGENT.contains(a.requestedBy())) {
                // A notice or a fatal XID is timed by the outside world: a trainer still restoring from the previous
                // reclaim may refuse the drain's save, and the drain goes on and says so.
                continue;
            }
            List<String> said = new ArrayList<>();
            if (a.state() == ActionState.FAILED && a.outcome() != null) {
                said.add(a.outcome());
            }
            for (ActionStepView s : a.steps()) {
                if (s.state() == StepState.FAILED && s.detail() != null) {
                    said.add(s.name() + ": " + s.detail());
                }
            }
            for (String text : said) {
                if (TIMING.stream().anyMatch(text::contains)) {
                    failures.add(a.requestedBy() + " " + a.kind().wire() + " " + a.target() + " ("
                            + a.state().wire() + "): " + text);
                }
            }
        }
        assertThat(all).as("the policies acted at all").isNotEmpty();
        assertThat(failures)
                .as(
                        "automatic actions failed by Lifeline's own timing, of %s",
                        all.stream()
                                .map(a ->
                                        a.requestedBy() + " " + a.kind().wire() + " " + a.target() + ": " + a.outcome())
                                .toList())
                .isEmpty();
    }
}
