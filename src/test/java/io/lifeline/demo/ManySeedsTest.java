package io.lifeline.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.event.CapacityType;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.TrainerData;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A stormy fleet (frequent notices and XIDs) under a random stream of commands, for many seeds: no run
 * breaks a state machine, and the fleet invariants hold whatever the interleaving.
 */
class ManySeedsTest {

    private static final List<String> JOBS = List.of("storm/a", "storm/b", "storm/c");

    private static Scenario stormy(long seed) {
        Scenario.Checkpointing async = new Scenario.Checkpointing(240, 10, true, 50, 200, 20, "s3://storm/ckpt", 0.1);
        Scenario.Checkpointing sync = new Scenario.Checkpointing(180, 6, false, 6, 20, 10, "s3://storm/ckpt", 0.05);
        return new Scenario(
                seed,
                60,
                10,
                0.4,
                0.6,
                240,
                600,
                60L,
                List.of(
                        new Scenario.Pool("spot", CapacityType.SPOT, "z1", "p5.48xlarge", null, 8, 8, 1.0, 120),
                        new Scenario.Pool("od", CapacityType.ON_DEMAND, "z2", "a2-highgpu-8g", null, 5, 8, 0, 30)),
                List.of(
                        new Scenario.Job(
                                "storm",
                                "a",
                                null,
                                null,
                                null,
                                List.of("spot"),
                                3,
                                6,
                                8,
                                1000,
                                0,
                                500,
                                2.0,
                                256,
                                2048,
                                async),
                        new Scenario.Job(
                                "storm", "b", null, null, null, List.of(), 1, 4, 8, 1000, 20, 0, 1.0, 64, 0, sync),
                        new Scenario.Job(
                                "storm",
                                "c",
                                null,
                                null,
                                null,
                                List.of("od"),
                                2,
                                3,
                                4,
                                1000,
                                0,
                                10,
                                0.5,
                                32,
                                0,
                                sync)));
    }

    @Test
    void invariantsHoldForManySeedsUnderFaultsAndRandomCommands() {
        int shrinks = 0;
        int acks = 0;
        for (long seed = 1; seed <= 12; seed++) {
            Scenario s = stormy(seed);
            FleetSimulator sim = new FleetSimulator(s, TestScenarios.START);
            SplittableRandom commands = new SplittableRandom(seed * 31);
            Map<String, Scenario.Job> specs = new HashMap<>();
            s.jobs().forEach(j -> specs.put(j.key(), j));
            Map<String, Long> newestCheckpoint = new HashMap<>();
            Map<String, Integer> lastWorld = new HashMap<>();
            Instant last = TestScenarios.START;
            for (int minute = 1; minute <= 120; minute++) {
                randomCommand(sim, commands, minute);
                for (Event e : sim.advanceTo(TestScenarios.START.plus(Duration.ofMinutes(minute)))) {
                    assertThat(e.time()).isAfterOrEqualTo(last);
                    last = e.time();
                    if (e.data() instanceof TrainerData.Rendezvous r) {
                        Scenario.Job j = specs.get(e.subject());
                        assertThat(r.worldSize())
                                .as("seed %d: %s", seed, e)
                                .isBetween(j.minNodes() * j.procsPerNode(), j.maxNodes() * j.procsPerNode())
                                .isEqualTo(r.participants().size() * j.procsPerNode());
                        for (int i = 0; i < r.participants().size(); i++) {
                            assertThat(r.participants().get(i).firstRank()).isEqualTo(i * j.procsPerNode());
                        }
                        Integer before = lastWorld.put(e.subject(), r.worldSize());
                        if (before != null && r.worldSize() < before) {
                            shrinks++;
                        }
                    } else if (e.data() instanceof TrainerData.CheckpointCompleted c) {
                        Long before = newestCheckpoint.put(e.subject(), c.step());
                        assertThat(before == null || c.step() >= before)
                                .as("seed %d: %s", seed, e)
                                .isTrue();
                    } else if (e.data() instanceof TrainerData.CommandAck) {
                        acks++;
                    }
                }
            }
        }
        assertThat(shrinks).isGreaterThan(12);
        assertThat(acks).isGreaterThan(100);
    }

    private static void randomCommand(FleetSimulator sim, SplittableRandom r, int minute) {
        String job = JOBS.get(r.nextInt(JOBS.size()));
        String id = "cmd-" + minute;
        switch (r.nextInt(6)) {
            case 0 -> sim.requestCheckpoint(id, job, sim.now().plusSeconds(r.nextInt(5, 200)));
            case 1 -> sim.requestRescale(id, job, r.nextInt(1, 7));
            case 2 -> sim.suspend(id, job);
            case 3 -> sim.resume(id, job);
            default -> {}
        }
    }

    @Test
    void sameCommandsAtTheSameTimesGiveTheSameRun() {
        assertThat(runWithCommands()).isEqualTo(runWithCommands());
    }

    private static List<Event> runWithCommands() {
        FleetSimulator sim = new FleetSimulator(stormy(99), TestScenarios.START);
        SplittableRandom r = new SplittableRandom(5);
        List<Event> out = new ArrayList<>();
        for (int minute = 1; minute <= 30; minute++) {
            randomCommand(sim, r, minute);
            out.addAll(sim.advanceTo(TestScenarios.START.plus(Duration.ofMinutes(minute))));
        }
        return out;
    }
}
