package io.lifeline.domain.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.action.ActionKind;
import io.lifeline.domain.action.FleetFixture;
import io.lifeline.domain.action.PlanResult;
import io.lifeline.domain.policy.colocation.ColocationRules;
import io.lifeline.domain.policy.colocation.DemandTrigger;
import io.lifeline.domain.policy.colocation.LendingWindow;
import io.lifeline.domain.policy.colocation.WindowSchedule;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The co-location policy on the pure model, with the fixture's clock: FleetFixture.T0 is Wednesday 1 May 2024,
 * 12:00 in Paris.
 */
class ColocationPolicyTest {

    private static final ZoneId PARIS = ZoneId.of("Europe/Paris");
    private static final LendingWindow DAY = new LendingWindow(
            "day",
            "a100",
            new WindowSchedule.Weekly(
                    EnumSet.range(DayOfWeek.MONDAY, DayOfWeek.FRIDAY), LocalTime.of(8, 0), LocalTime.of(20, 0), PARIS));

    private FleetFixture f;

    @BeforeEach
    void fleet() {
        f = new FleetFixture();
        for (int i = 1; i <= 5; i++) {
            f.node("a" + i, "a100");
        }
        f.node("h1", "h100");
        f.job("team-a/llm", 2, 4, "a1", "a2", "a3", "a4");
    }

    private static PolicySettings settings(PolicyName p, PolicyMode mode, Map<String, PolicyMode> overrides) {
        Map<PolicyName, PolicySettings.Entry> m = new EnumMap<>(PolicyName.class);
        m.put(p, new PolicySettings.Entry(mode, overrides));
        return new PolicySettings(m);
    }

    private List<PolicyDecision> pass(ColocationPolicy p, PolicyMode mode) {
        return p.decisions(
                settings(PolicyName.COLOCATION, mode, Map.of()), f.model.jobs(), f.model.fleet(), f.clock.instant());
    }

    private static ColocationPolicy policy(LendingWindow... windows) {
        return new ColocationPolicy(new ColocationRules(List.of(windows), List.of()), Map.of());
    }

    @Test
    void anOpenWindowShrinksTheJobToItsMinimumCheckpointFirst() {
        List<PolicyDecision> d = pass(policy(DAY), PolicyMode.ON);
        assertThat(d).singleElement().satisfies(x -> {
            assertThat(x.policy()).isEqualTo(PolicyName.COLOCATION);
            assertThat(x.request().kind()).isEqualTo(ActionKind.RESCALE);
            assertThat(x.request().target()).isEqualTo("team-a/llm");
            assertThat(x.request().params()).containsEntry("workers", "2").containsEntry("checkpointFirst", "true");
            assertThat(x.request().reason()).contains("window day open", "pool a100", "from 4 to 2");
        });
        PlanResult plan = f.planner().plan(d.get(0).request(), f.clock.instant());
        assertThat(plan.ok()).as("the planner accepts it: %s", plan).isTrue();
        assertThat(pass(policy(DAY), PolicyMode.ON).get(0).idempotencyKey())
                .as("the same decision the next pass")
                .isEqualTo(d.get(0).idempotencyKey());
    }

    @Test
    void dryRunDecidesTheSamePlanInDryRunMode() {
        PolicyDecision on = pass(policy(DAY), PolicyMode.ON).get(0);
        PolicyDecision dry = pass(policy(DAY), PolicyMode.DRY_RUN).get(0);
        assertThat(dry.mode()).isEqualTo(PolicyMode.DRY_RUN);
        assertThat(dry.request()).isEqualTo(on.request());
        assertThat(dry.idempotencyKey()).isEqualTo(on.idempotencyKey());
        assertThat(pass(policy(DAY), PolicyMode.OFF)).isEmpty();
    }

    @Test
    void aPoolOverrideTurnsItOnForThatPoolOnly() {
        PolicySettings s = settings(PolicyName.COLOCATION, PolicyMode.OFF, Map.of("pool:a100", PolicyMode.ON));
        assertThat(policy(DAY).decisions(s, f.model.jobs(), f.model.fleet(), f.clock.instant()))
                .hasSize(1);
        PolicySettings ns = settings(PolicyName.COLOCATION, PolicyMode.ON, Map.of("namespace:team-a", PolicyMode.OFF));
        assertThat(policy(DAY).decisions(ns, f.model.jobs(), f.model.fleet(), f.clock.instant()))
                .isEmpty();
    }

    @Test
    void overlappingWindowsShrinkOnce() {
        LendingWindow lunch = new LendingWindow(
                "lunch",
                "a100",
                new WindowSchedule.Weekly(
                        EnumSet.allOf(DayOfWeek.class), LocalTime.of(11, 0), LocalTime.of(14, 0), PARIS));
        ColocationPolicy both = policy(DAY, lunch);
        assertThat(both.lending("a100", f.clock.instant()).windows()).containsExactly("day", "lunch");
        List<PolicyDecision> d = pass(both, PolicyMode.ON);
        assertThat(d).singleElement().satisfies(x -> {
            assertThat(x.request().params()).containsEntry("workers", "2");
            assertThat(x.request().reason()).contains("window day open", "window lunch open");
        });
        // At 19:00 Paris only "day" is open, at 21:00 neither.
        f.later(7 * 3600);
        assertThat(both.lending("a100", f.clock.instant()).windows()).containsExactly("day");
        f.later(2 * 3600);
        assertThat(both.lending("a100", f.clock.instant()).lends()).isFalse();
    }

    @Test
    void aJobAlreadyAtItsMinimumIsLeftAloneAndSaysSo() {
        f.job("team-b/small", 2, 4, "a5", "h1");
        ColocationPolicy p = policy(DAY);
        f.job("team-a/llm", 2, 4, "a1", "a2");
        ColocationPolicy.Pass pass = p.pass(
                settings(PolicyName.COLOCATION, PolicyMode.ON, Map.of()),
                f.model.jobs(),
                f.model.fleet(),
                f.clock.instant());
        assertThat(pass.decisions()).extracting(d -> d.request().target()).doesNotContain("team-a/llm");
        assertThat(pass.notes())
                .filteredOn(n -> n.job().equals("team-a/llm"))
                .singleElement()
                .satisfies(n -> assertThat(n.note()).startsWith("already at its minimum of 2"));
    }

    @Test
    void afterTheWindowTheJobGrowsBackToItsMaximumAsNodesAreFree() {
        f.job("team-a/llm", 2, 4, "a1", "a2");
        f.later(9 * 3600); // 21:00 in Paris
        List<PolicyDecision> d = pass(policy(DAY), PolicyMode.ON);
        assertThat(d).singleElement().satisfies(x -> {
            assertThat(x.request().params()).containsEntry("workers", "4").containsEntry("checkpointFirst", "true");
            assertThat(x.request().reason()).contains("no longer lends", "grow from 2 to 4");
            assertThat(x.idempotencyKey()).startsWith("colocation:grow:team-a/llm:2->4:");
        });
    }

    @Test
    void capacityGrowLeavesALendingPoolAlone() {
        f.job("team-a/llm", 2, 4, "a1", "a2");
        // Past the job's start-up grace and the free nodes' settling time, with its trainers reporting: ready to grow.
        f.later(180);
        f.progress("team-a/llm", 100);
        Map<PolicyName, PolicySettings.Entry> m = new EnumMap<>(PolicyName.class);
        m.put(PolicyName.CAPACITY_GROW, new PolicySettings.Entry(PolicyMode.ON, Map.of()));
        PolicyEngine e = new PolicyEngine(new PolicySettings(m));
        assertThat(e.periodic(f.model.jobs(), f.model.fleet(), f.clock.instant()))
                .as("without co-location")
                .extracting(d -> d.policy())
                .containsExactly(PolicyName.CAPACITY_GROW);
        e.colocation(policy(DAY));
        assertThat(e.periodic(f.model.jobs(), f.model.fleet(), f.clock.instant()))
                .as("co-location off, pool lending")
                .isEmpty();
    }

    @Test
    void aDemandTriggerLendsWhileActiveAndStopsAfterItsHold() {
        DemandTrigger chat = new DemandTrigger(
                "chat", "a100", new DemandTrigger.PendingPods("serving", "chat"), 3, Duration.ofMinutes(10));
        ColocationPolicy p = new ColocationPolicy(new ColocationRules(List.of(), List.of(chat)), Map.of());
        assertThat(pass(p, PolicyMode.ON)).as("no reading yet").isEmpty();

        p = p.withDemand("chat", p.demand().get("chat").sampled(7, f.clock.instant(), 3, chat.hold()));
        List<PolicyDecision> shrink = pass(p, PolicyMode.ON);
        assertThat(shrink).singleElement().satisfies(x -> {
            assertThat(x.request().params()).containsEntry("workers", "2");
            assertThat(x.request().reason()).contains("demand chat above its threshold");
        });

        f.job("team-a/llm", 2, 4, "a1", "a2"); // shrunk
        f.later(60);
        p = p.withDemand("chat", p.demand().get("chat").sampled(1, f.clock.instant(), 3, chat.hold()));
        assertThat(pass(p, PolicyMode.ON)).as("below, but not for the hold yet").isEmpty();
        f.later(600);
        p = p.withDemand("chat", p.demand().get("chat").sampled(0, f.clock.instant(), 3, chat.hold()));
        assertThat(pass(p, PolicyMode.ON))
                .singleElement()
                .satisfies(x -> assertThat(x.request().params()).containsEntry("workers", "4"));
    }
}
