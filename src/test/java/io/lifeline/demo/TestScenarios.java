package io.lifeline.demo;

import io.lifeline.demo.runtime.ScenarioParser;
import io.lifeline.domain.event.CapacityType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Scenarios for the simulator's tests: the built-in one and small ones built in code. */
public final class TestScenarios {

    public static final Instant START = Instant.parse("2026-01-31T12:00:00Z");

    private TestScenarios() {}

    static Scenario builtIn() {
        return new ScenarioParser().loadDefault();
    }

    static Scenario.Checkpointing asyncCheckpoint(long interval) {
        return new Scenario.Checkpointing(interval, 12, true, 60, 300, 30, "s3://test-ckpt/runs", 0);
    }

    static Scenario.Job job(String name, String pool, int min, int max, Scenario.Checkpointing c) {
        return new Scenario.Job(
                "team", name, "owner", "high", "main", List.of(pool), min, max, 8, 100, 0, 1000, 2.0, 256, 4096, c);
    }

    static Scenario.Pool spot(int nodes, double rate) {
        return new Scenario.Pool("spot-a", CapacityType.SPOT, "us-east-1a", "p5.48xlarge", null, nodes, 8, rate, 120);
    }

    static Scenario.Pool onDemand(int nodes) {
        return new Scenario.Pool("od-b", CapacityType.ON_DEMAND, "us-east-1b", "p4d.24xlarge", null, nodes, 8, 0, 120);
    }

    /**
     * A quiet fleet (no notices, no XIDs) for command tests: 8 spot nodes with a 4..6 job and a spare
     * node, 4 on-demand nodes with a 2..3 job.
     */
    static Scenario quiet() {
        return new Scenario(
                7,
                10,
                10,
                0,
                0,
                300,
                900,
                null,
                List.of(spot(8, 0), onDemand(4)),
                List.of(
                        job("big", "spot-a", 4, 6, asyncCheckpoint(300)),
                        job(
                                "small",
                                "od-b",
                                2,
                                3,
                                new Scenario.Checkpointing(200, 5, false, 5, 20, 15, "gs://test-ckpt/runs", 0))));
    }

    /** A copy of a scenario with another seed. */
    static Scenario withSeed(Scenario s, long seed) {
        return new Scenario(
                seed,
                s.telemetryIntervalSeconds(),
                s.progressIntervalSeconds(),
                s.xidRatePerNodeHour(),
                s.fatalXidFraction(),
                s.replacementDelaySeconds(),
                s.nodeRepairSeconds(),
                s.firstNoticeAfterSeconds(),
                s.pools(),
                s.jobs());
    }

    /** A large fleet for load: {@code nodes} 8-GPU nodes in two pools and {@code jobs} jobs of 2..6 nodes. */
    public static Scenario large(int nodes, int jobs) {
        List<Scenario.Job> js = new ArrayList<>();
        for (int i = 0; i < jobs; i++) {
            js.add(new Scenario.Job(
                    "load-" + i % 8,
                    "job-" + i,
                    null,
                    null,
                    null,
                    List.of(),
                    2,
                    6,
                    8,
                    100,
                    0,
                    0,
                    1.5,
                    256,
                    0,
                    asyncCheckpoint(600)));
        }
        return new Scenario(
                11,
                10,
                10,
                0.01,
                0.4,
                300,
                1200,
                null,
                List.of(spot(nodes / 2, 0.05), onDemand(nodes - nodes / 2)),
                js);
    }
}
