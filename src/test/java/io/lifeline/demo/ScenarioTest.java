package io.lifeline.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ScenarioTest {

    @Test
    void aQuietScenarioHasNoProblems() {
        assertThat(TestScenarios.quiet().problems()).isEmpty();
    }

    @Test
    void duplicatePoolAndJobNamesAreProblems() {
        Scenario q = TestScenarios.quiet();
        Scenario dup = new Scenario(
                1,
                10,
                10,
                0,
                0,
                300,
                900,
                null,
                List.of(q.pools().get(0), q.pools().get(0)),
                List.of(q.jobs().get(0), q.jobs().get(0)));
        assertThat(dup.problems())
                .containsExactly(
                        "pools[1].name: duplicate pool name 'spot-a'", "jobs[1].name: duplicate job 'team/big'");
    }

    @Test
    void checkpointSettingsMustBeConsistent() {
        Scenario.Checkpointing c = new Scenario.Checkpointing(20, 15, true, 5, 10, 10, "s3://b", 0.9);
        Scenario s = new Scenario(
                1,
                10,
                10,
                0,
                0,
                300,
                900,
                -1L,
                List.of(TestScenarios.spot(4, 0)),
                List.of(TestScenarios.job("j", "spot-a", 1, 2, c)));
        assertThat(s.problems())
                .containsExactlyInAnyOrder(
                        "firstNoticeAfterSeconds: must be >= 0, got -1",
                        "jobs[0].checkpoint.uploadSeconds: must be >= blockingSeconds (15.0) for an async save, got 5.0",
                        "jobs[0].checkpoint.blockingSeconds: must be less than half of intervalSeconds (20), got 15.0",
                        "jobs[0].checkpoint.failureRate: must be between 0 and 0.5, got 0.9");
    }

    @Test
    void theProviderFollowsTheInstanceType() {
        assertThat(TestScenarios.spot(1, 0).provider()).isEqualTo("aws");
        Scenario.Pool gcp = new Scenario.Pool(
                "g", io.lifeline.domain.event.CapacityType.SPOT, "us-central1-a", "a3-highgpu-8g", null, 1, 8, 0, 30);
        assertThat(gcp.provider()).isEqualTo("gcp");
        assertThat(gcp.resolvedGpuModel()).isEqualTo(GpuModel.H100_80GB);
    }
}
