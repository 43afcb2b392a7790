package io.lifeline.policy.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.policy.AutomationBrake;
import io.lifeline.domain.policy.AutomationBrake.State;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The brake's state survives its stored form, engaged or not; the fresh table's empty object is the initial state. */
class BrakeStoreCodecTest {

    private static final Instant T = Instant.parse("2026-03-02T09:14:07Z");

    @Test
    void anEngagedStateReadsBackAsItWasWritten() {
        State s = new State(
                List.of(
                        new AutomationBrake.Take("n1", "spot-p5", T, "notice-checkpoint-drain"),
                        new AutomationBrake.Take("n2", null, T.plusSeconds(1), "fatal-xid-drain")),
                new AutomationBrake.Trip(T.plusSeconds(2), "notice-checkpoint-drain", "n3", "spot-p5", "more than 5"),
                4,
                new AutomationBrake.Reset(T.minusSeconds(600), "alice [tok1]", null));
        String json = BrakeStore.encode(s);
        assertThat(json).doesNotContain("\"engaged\":true").contains("2026-03-02T09:14:07Z");
        assertThat(BrakeStore.decode(json)).isEqualTo(s);
    }

    @Test
    void aReleasedStateAndTheFreshRowReadBack() {
        assertThat(BrakeStore.decode(BrakeStore.encode(State.INITIAL))).isEqualTo(State.INITIAL);
        assertThat(BrakeStore.decode("{}")).isEqualTo(State.INITIAL);
    }
}
