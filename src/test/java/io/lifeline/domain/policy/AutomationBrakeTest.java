package io.lifeline.domain.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.action.ActionRequest;
import io.lifeline.domain.policy.AutomationBrake.Outcome;
import io.lifeline.domain.policy.AutomationBrake.Settings;
import io.lifeline.domain.policy.AutomationBrake.State;
import io.lifeline.domain.policy.AutomationBrake.Target;
import io.lifeline.domain.policy.AutomationBrake.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AutomationBrakeTest {

    private static final Instant T0 = Instant.parse("2026-03-02T09:00:00Z");
    private static final Settings DEFAULTS = Settings.defaults();
    private static final String NOTICE = "notice-checkpoint-drain";

    /** Decides on each node in turn, one second apart, keeping the state; returns the last outcome. */
    private static Outcome[] takeAll(Settings s, State start, String pool, int poolNodes, int count, Instant from) {
        Outcome[] out = new Outcome[count];
        State st = start;
        for (int i = 0; i < count; i++) {
            out[i] = AutomationBrake.decide(
                    s, st, new Target(pool + "-n" + i, pool, poolNodes), NOTICE, from.plusSeconds(i));
            st = out[i].state();
        }
        return out;
    }

    @Test
    void defaultsAreAFifthOfAPoolAtLeastTwoNodesAndTenFleetWideInTenMinutes() {
        assertThat(DEFAULTS.window()).isEqualTo(Duration.ofMinutes(10));
        assertThat(DEFAULTS.fleetNodes()).isEqualTo(10);
        assertThat(DEFAULTS.poolBound(26)).isEqualTo(5);
        assertThat(DEFAULTS.poolBound(16)).isEqualTo(3);
        assertThat(DEFAULTS.poolBound(5)).isEqualTo(2);
        assertThat(DEFAULTS.poolBound(100)).isEqualTo(20);
        assertThat(DEFAULTS.poolBound(0)).isEqualTo(2);
    }

    @Test
    void aPoolGivesUpItsShareThenTheBrakeEngagesAndHoldsEveryFurtherDecision() {
        Outcome[] o = takeAll(DEFAULTS, State.INITIAL, "spot-p5", 26, 8, T0);
        for (int i = 0; i < 5; i++) {
            assertThat(o[i].verdict()).as("decision %d", i).isEqualTo(Verdict.ALLOWED);
        }
        assertThat(o[5].verdict()).isEqualTo(Verdict.TRIPPED);
        assertThat(o[5].reason()).contains("a 6th node of pool spot-p5 (26 live)", "more than 5", "20 % of the pool");
        assertThat(o[5].state().engaged().node()).isEqualTo("spot-p5-n5");
        assertThat(o[6].verdict()).isEqualTo(Verdict.HELD);
        assertThat(o[7].verdict()).isEqualTo(Verdict.HELD);
        assertThat(o[7].reason()).contains("engaged since " + T0.plusSeconds(5), "a person resets it");
        assertThat(o[7].state().held()).isEqualTo(3);
        assertThat(o[7].state().taken()).hasSize(5);
    }

    @Test
    void theFleetWideBoundCountsEveryPool() {
        State st = State.INITIAL;
        Outcome last = null;
        for (int i = 0; i < 11; i++) {
            String pool = "pool-" + (i % 4);
            last = AutomationBrake.decide(DEFAULTS, st, new Target("n" + i, pool, 100), NOTICE, T0.plusSeconds(i));
            st = last.state();
            if (i < 10) {
                assertThat(last.verdict()).as("decision %d", i).isEqualTo(Verdict.ALLOWED);
            }
        }
        assertThat(last.verdict()).isEqualTo(Verdict.TRIPPED);
        assertThat(last.reason()).contains("an 11th node within 10 min fleet-wide, more than 10");
    }

    @Test
    void theWindowSlides() {
        Outcome[] first = takeAll(DEFAULTS, State.INITIAL, "a", 10, 2, T0);
        assertThat(first[1].verdict()).isEqualTo(Verdict.ALLOWED);
        // A third node of the pool 9 minutes later would be more than its 2; 10 minutes after the first two, it is not.
        Target third = new Target("a-n2", "a", 10);
        assertThat(AutomationBrake.decide(DEFAULTS, first[1].state(), third, NOTICE, T0.plus(Duration.ofMinutes(9)))
                        .verdict())
                .isEqualTo(Verdict.TRIPPED);
        Outcome later = AutomationBrake.decide(
                DEFAULTS,
                first[1].state(),
                third,
                NOTICE,
                T0.plus(Duration.ofMinutes(10)).plusSeconds(1));
        assertThat(later.verdict()).isEqualTo(Verdict.ALLOWED);
        assertThat(later.state().taken()).extracting(AutomationBrake.Take::node).containsExactly("a-n2");
    }

    @Test
    void aNodeCountsOnceHoweverManyPoliciesWantIt() {
        Outcome a = AutomationBrake.decide(DEFAULTS, State.INITIAL, new Target("n1", "a", 3), NOTICE, T0);
        Outcome b = AutomationBrake.decide(
                DEFAULTS, a.state(), new Target("n1", "a", 3), "fatal-xid-drain", T0.plusSeconds(5));
        assertThat(b.verdict()).isEqualTo(Verdict.ALREADY_COUNTED);
        assertThat(b.verdict().allows()).isTrue();
        assertThat(AutomationBrake.takenInWindow(DEFAULTS, b.state(), T0.plusSeconds(6)))
                .isEqualTo(1);
    }

    @Test
    void aResetReleasesTheBrakeAndStartsTheWindowAfresh() {
        Outcome[] o = takeAll(DEFAULTS, State.INITIAL, "a", 10, 4, T0);
        assertThat(o[2].verdict()).isEqualTo(Verdict.TRIPPED);
        State reset = AutomationBrake.reset(
                o[3].state(), "alice [tok1]", "forged notices, source revoked", T0.plusSeconds(60));
        assertThat(reset.isEngaged()).isFalse();
        assertThat(reset.taken()).isEmpty();
        assertThat(reset.lastReset().by()).isEqualTo("alice [tok1]");
        Outcome after =
                AutomationBrake.decide(DEFAULTS, reset, new Target("a-n9", "a", 10), NOTICE, T0.plusSeconds(61));
        assertThat(after.verdict()).isEqualTo(Verdict.ALLOWED);
    }

    @Test
    void theBrakeStaysEngagedAfterTheWindowUntilAPersonResetsIt() {
        Outcome[] o = takeAll(DEFAULTS, State.INITIAL, "a", 10, 3, T0);
        Outcome dayLater = AutomationBrake.decide(
                DEFAULTS, o[2].state(), new Target("b-n1", "b", 50), NOTICE, T0.plus(Duration.ofDays(1)));
        assertThat(dayLater.verdict()).isEqualTo(Verdict.HELD);
    }

    @Test
    void aNodeWithoutAPoolCountsFleetWideOnly() {
        Outcome o = AutomationBrake.decide(DEFAULTS, State.INITIAL, new Target("stray", null, 0), NOTICE, T0);
        assertThat(o.verdict()).isEqualTo(Verdict.ALLOWED);
        assertThat(o.pool()).isNull();
        assertThat(o.fleet().taken()).isZero();
    }

    @Test
    void switchedOffItLetsEverythingThroughAndCountsNothing() {
        Settings off = new Settings(false, Duration.ofMinutes(10), 0.2, 2, 10);
        Outcome[] o = takeAll(off, State.INITIAL, "a", 10, 30, T0);
        assertThat(o).allMatch(x -> x.verdict() == Verdict.ALLOWED);
        assertThat(o[29].state().taken()).isEmpty();
    }

    @Test
    void theTargetCountsThePoolsLiveNodesOnly() {
        io.lifeline.domain.action.FleetFixture f = new io.lifeline.domain.action.FleetFixture();
        f.node("a1", "a").node("a2", "a").node("a3", "a").node("b1", "b");
        f.apply(
                "a3",
                io.lifeline.domain.event.EventType.NODE_TERMINATED,
                new io.lifeline.domain.event.NodeData.Terminated("reclaimed"));
        assertThat(AutomationBrake.target(f.model.fleet(), "a1")).isEqualTo(new Target("a1", "a", 2));
        assertThat(AutomationBrake.target(f.model.fleet(), "b1")).isEqualTo(new Target("b1", "b", 1));
        assertThat(AutomationBrake.target(f.model.fleet(), "nowhere")).isEqualTo(new Target("nowhere", null, 0));
    }

    @Test
    void onlyDrainsTakeNodes() {
        assertThat(AutomationBrake.takesNode(new ActionRequest(ActionKind.DRAIN, "n1", Map.of(), "")))
                .isTrue();
        assertThat(AutomationBrake.takesNode(new ActionRequest(ActionKind.UNCORDON, "n1", Map.of(), "")))
                .isFalse();
        assertThat(AutomationBrake.takesNode(new ActionRequest(ActionKind.RESCALE, "a/b", Map.of(), "")))
                .isFalse();
    }

    @Test
    void theCountsPerPoolAreForViews() {
        Outcome[] a = takeAll(DEFAULTS, State.INITIAL, "a", 50, 3, T0);
        Outcome b =
                AutomationBrake.decide(DEFAULTS, a[2].state(), new Target("b-n0", "b", 50), NOTICE, T0.plusSeconds(10));
        assertThat(AutomationBrake.takenByPool(DEFAULTS, b.state(), T0.plusSeconds(11)))
                .containsEntry("a", 3)
                .containsEntry("b", 1);
    }

    @Test
    void settingsOutsideTheirRangeAreRefusedNamingTheKey() {
        assertThatThrownBy(() -> new Settings(true, Duration.ZERO, 0.2, 2, 10)).hasMessageStartingWith("window");
        assertThatThrownBy(() -> new Settings(true, Duration.ofMinutes(1), 1.5, 2, 10))
                .hasMessageStartingWith("pool-share");
        assertThatThrownBy(() -> new Settings(true, Duration.ofMinutes(1), 0.2, 0, 10))
                .hasMessageStartingWith("pool-min-nodes");
        assertThatThrownBy(() -> new Settings(true, Duration.ofMinutes(1), 0.2, 2, 0))
                .hasMessageStartingWith("fleet-nodes");
    }

    @Test
    void ordinalsReadAsEnglish() {
        assertThat(AutomationBrake.ordinal(1)).isEqualTo("a 1st");
        assertThat(AutomationBrake.ordinal(2)).isEqualTo("a 2nd");
        assertThat(AutomationBrake.ordinal(3)).isEqualTo("a 3rd");
        assertThat(AutomationBrake.ordinal(8)).isEqualTo("an 8th");
        assertThat(AutomationBrake.ordinal(11)).isEqualTo("an 11th");
        assertThat(AutomationBrake.ordinal(12)).isEqualTo("a 12th");
        assertThat(AutomationBrake.ordinal(21)).isEqualTo("a 21st");
    }
}
