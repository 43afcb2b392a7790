package io.lifeline.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.TrainerData;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How jobs react to what happens to their nodes, driven by injected faults on a quiet fleet. */
class FailuresTest {

    private static final String BIG = "team/big";

    private final List<Event> events = new ArrayList<>();

    private FleetSimulator sim(Scenario s) {
        FleetSimulator sim = new FleetSimulator(s, TestScenarios.START);
        advance(sim, Duration.ofMinutes(3));
        return sim;
    }

    private void advance(FleetSimulator sim, Duration d) {
        events.addAll(sim.advanceTo(sim.now().plus(d)));
    }

    private List<Event> after(Instant from, EventType type) {
        return events.stream()
                .filter(e -> e.type() == type && !e.time().isBefore(from))
                .toList();
    }

    private TrainerData.Rendezvous lastRendezvous(String job, Instant before) {
        return events.stream()
                .filter(e -> e.type() == EventType.TRAINER_RENDEZVOUS
                        && e.subject().equals(job)
                        && e.time().isBefore(before))
                .reduce((a, b) -> b)
                .map(e -> (TrainerData.Rendezvous) e.data())
                .orElseThrow();
    }

    private static List<String> nodes(TrainerData.Rendezvous r) {
        return r.participants().stream().map(TrainerData.Participant::node).toList();
    }

    @Test
    void aContainedEccErrorCrashesOneRankAndTheJobRestartsOnTheSameNodesLosingItsProgress() {
        FleetSimulator sim = sim(TestScenarios.quiet());
        Instant at = sim.now();
        TrainerData.Rendezvous before = lastRendezvous(BIG, at);
        TrainerData.Participant victim = before.participants().get(1);
        sim.injectXid(victim.node(), 2, 94);
        advance(sim, Duration.ofMinutes(3));
        assertThat(after(at, EventType.GPU_XID))
                .singleElement()
                .satisfies(e -> assertThat(e.subject()).isEqualTo(victim.node()));
        assertThat(after(at, EventType.NODE_NOT_READY)).isEmpty();
        assertThat(after(at, EventType.TRAINER_WORKER_FAILED)).singleElement().satisfies(e -> {
            TrainerData.WorkerFailed f = (TrainerData.WorkerFailed) e.data();
            assertThat(f.rank()).isEqualTo(victim.firstRank() + 2);
            assertThat(f.error()).contains("uncorrectable ECC error");
        });
        TrainerData.Rendezvous again = (TrainerData.Rendezvous)
                after(at, EventType.TRAINER_RENDEZVOUS).get(0).data();
        assertThat(nodes(again)).isEqualTo(nodes(before));
        assertThat(again.round()).isEqualTo(before.round() + 1);
        TrainerData.Restored restored = (TrainerData.Restored)
                after(at, EventType.TRAINER_RESTORED).get(0).data();
        assertThat(restored.step()).isEqualTo(1000);
    }

    @Test
    void aFatalXidTakesTheNodeDownTheJobMovesToASpareAndTheRepairedNodeComesBack() {
        FleetSimulator sim = sim(TestScenarios.quiet());
        Instant at = sim.now();
        String victim = lastRendezvous(BIG, at).participants().get(0).node();
        sim.injectXid(victim, 5, 79);
        advance(sim, Duration.ofMinutes(25));
        assertThat(after(at, EventType.NODE_NOT_READY)).singleElement().satisfies(e -> {
            assertThat(e.subject()).isEqualTo(victim);
            assertThat(e.time()).isEqualTo(after(at, EventType.GPU_XID).get(0).time());
        });
        assertThat(after(at, EventType.TRAINER_WORKER_FAILED))
                .hasSize(8)
                .allSatisfy(e ->
                        assertThat(((TrainerData.WorkerFailed) e.data()).node()).isEqualTo(victim));
        TrainerData.Rendezvous again = (TrainerData.Rendezvous)
                after(at, EventType.TRAINER_RENDEZVOUS).get(0).data();
        assertThat(again.worldSize()).isEqualTo(48);
        assertThat(nodes(again)).doesNotContain(victim);
        assertThat(after(at, EventType.NODE_READY)).singleElement().satisfies(e -> {
            assertThat(e.subject()).isEqualTo(victim);
            assertThat(Duration.between(at, e.time())).isBetween(Duration.ofSeconds(720), Duration.ofSeconds(1080));
        });
    }

    @Test
    void belowMinNodesTheJobWaitsForReplacementCapacityThenRendezvousAgain() {
        Scenario s = new Scenario(
                3,
                10,
                10,
                0,
                0,
                300,
                900,
                null,
                List.of(TestScenarios.spot(2, 0)),
                List.of(TestScenarios.job("pair", "spot-a", 2, 2, TestScenarios.asyncCheckpoint(300))));
        FleetSimulator sim = sim(s);
        Instant at = sim.now();
        sim.injectNotice("spot-a-0001");
        advance(sim, Duration.ofMinutes(15));
        Event terminated = after(at, EventType.NODE_TERMINATED).get(0);
        assertThat(terminated.time()).isEqualTo(at.plusSeconds(120));
        assertThat(after(at, EventType.TRAINER_RESTARTED)).hasSize(1);
        Event registered = after(at, EventType.NODE_REGISTERED).get(0);
        assertThat(registered.subject()).isEqualTo("spot-a-0002");
        Event rendezvous = after(at, EventType.TRAINER_RENDEZVOUS).get(0);
        assertThat(rendezvous.time())
                .isAfter(after(at, EventType.NODE_READY).get(0).time());
        assertThat(nodes((TrainerData.Rendezvous) rendezvous.data()))
                .containsExactlyInAnyOrder("spot-a-0000", "spot-a-0002");
        assertThat(after(rendezvous.time(), EventType.TRAINER_RESTORED)).hasSize(1);
    }

    @Test
    void aJobThatUsesUpItsRestartsFailsAndFreesItsNodes() {
        Scenario.Job fragile = new Scenario.Job(
                "team",
                "fragile",
                null,
                null,
                null,
                List.of("spot-a"),
                1,
                2,
                8,
                0,
                0,
                0,
                2.0,
                256,
                0,
                TestScenarios.asyncCheckpoint(300));
        Scenario.Job patient = new Scenario.Job(
                "team",
                "patient",
                null,
                null,
                null,
                List.of("spot-a"),
                1,
                2,
                8,
                10,
                0,
                0,
                2.0,
                256,
                0,
                TestScenarios.asyncCheckpoint(300));
        Scenario s = new Scenario(
                3, 10, 10, 0, 0, 300, 900, null, List.of(TestScenarios.spot(3, 0)), List.of(fragile, patient));
        FleetSimulator sim = sim(s);
        Instant at = sim.now();
        String node = lastRendezvous("team/fragile", at).participants().get(0).node();
        sim.injectXid(node, 0, 94);
        advance(sim, Duration.ofMinutes(5));
        assertThat(after(at, EventType.JOB_FINISHED)).singleElement().satisfies(e -> {
            assertThat(e.subject()).isEqualTo("team/fragile");
            assertThat(((JobData.Finished) e.data()).outcome()).isEqualTo(JobData.Outcome.FAILED);
            assertThat(((JobData.Finished) e.data()).reason()).startsWith("exceeded max restarts (0)");
        });
        assertThat(after(at, EventType.TRAINER_PROGRESS))
                .noneMatch(e -> e.subject().equals("team/fragile"));
        // The patient job grows onto the nodes the failed one gave back.
        assertThat(after(at, EventType.TRAINER_RENDEZVOUS)).anySatisfy(e -> {
            assertThat(e.subject()).isEqualTo("team/patient");
            assertThat(((TrainerData.Rendezvous) e.data()).worldSize()).isEqualTo(16);
        });
    }

    @Test
    void faultInjectionRefusesUnknownNodesGpusAndCodes() {
        FleetSimulator sim = sim(TestScenarios.quiet());
        assertThatThrownBy(() -> sim.injectNotice("nope")).hasMessage("no live node 'nope'");
        assertThatThrownBy(() -> sim.injectXid("spot-a-0000", 8, 79)).hasMessage("gpu: must be between 0 and 7, got 8");
        assertThatThrownBy(() -> sim.injectXid("spot-a-0000", 0, 62))
                .hasMessageStartingWith("xid: the simulator knows");
    }
}
