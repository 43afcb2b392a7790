package io.lifeline.domain.alert;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.alert.AlertSnapshot.BrakeFacts;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The automation-brake rule: fires at once while the brake is engaged, resolves when a person resets it. */
class AutomationBrakeRuleTest {

    private static final Instant T0 = Instant.parse("2026-11-29T12:00:00Z");

    private static AlertSnapshot snapshot(BrakeFacts brake) {
        return new AlertSnapshot(List.of(), List.of(), List.of(), List.of(), List.of(), null, brake);
    }

    private static Evaluation at(AlertEngine e, AlertSnapshot s, long minutes) {
        return e.evaluate(s, List.of(), T0.plus(Duration.ofMinutes(minutes)));
    }

    @Test
    void anEngagedBrakeFiresAtOnceAndResolvesOnReset() {
        AlertEngine e = new AlertEngine(AlertRules.defaults(), 100, 10);
        BrakeFacts engaged = new BrakeFacts(
                true,
                T0,
                "it would take an 11th node within 10 min fleet-wide, more than 10",
                "notice-checkpoint-drain",
                "spot-17",
                "spot-p5",
                12);
        assertThat(at(e, snapshot(BrakeFacts.RELEASED), 0).changes()).isEmpty();
        assertThat(at(e, snapshot(engaged), 1).changes()).singleElement().satisfies(c -> {
            assertThat(c.to()).isEqualTo(AlertState.FIRING);
            assertThat(c.alert().labels())
                    .containsEntry("alertname", "AutomationBrakeEngaged")
                    .containsEntry("severity", "critical")
                    .containsEntry("policy", "notice-checkpoint-drain")
                    .containsEntry("pool", "spot-p5");
            assertThat(c.alert().annotations().get("description"))
                    .contains("spot-17", "more than 10", "12 decision(s) held", "/api/v1/policies/brake/reset");
        });
        assertThat(at(e, snapshot(engaged), 2).changes()).isEmpty();
        assertThat(at(e, snapshot(BrakeFacts.RELEASED), 3).changes())
                .singleElement()
                .satisfies(c -> assertThat(c.to()).isEqualTo(AlertState.RESOLVED));
    }

    @Test
    void aBrakeThatCouldNotBeReadKeepsItsAlert() {
        AlertEngine e = new AlertEngine(AlertRules.defaults(), 100, 10);
        BrakeFacts engaged = new BrakeFacts(true, T0, "more than 5 of pool a", "fatal-xid-drain", "a-1", "a", 1);
        assertThat(at(e, snapshot(engaged), 0).changes()).hasSize(1);
        assertThat(at(e, snapshot(null), 1).changes()).isEmpty();
    }
}
