package io.lifeline.domain.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lifeline.domain.job.checkpoint.PriorityBoostPolicy;
import io.lifeline.domain.job.checkpoint.PriorityBoostPolicy.Decision;
import io.lifeline.domain.job.checkpoint.PriorityBoostPolicy.Settings;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The checkpoint-aware priority boost, decided on the model's freshness with the model's (injected) clock. */
class PriorityBoostPolicyTest {

    private final JobDriver d = new JobDriver("ml/llm");
    /** 2 nodes × 8 GPUs: 16 GPUs, so 4 GPU-hours are at risk 15 minutes after a checkpoint. */
    private final PriorityBoostPolicy policy = new PriorityBoostPolicy(new Settings(1000, 4.0, Duration.ZERO), d.clock);

    private Decision at(String hms) {
        d.now(hms);
        return policy.decide(d.freshness());
    }

    @Test
    void boostedOnceTheWorkAtRiskReachesTheThresholdAndDroppedByTheNextCheckpoint() {
        d.runningOn(2, "10:00:00");
        assertThat(at("10:14:59").boosted()).isFalse();
        Decision boosted = at("10:15:00");
        assertThat(boosted.boost()).isEqualTo(1000);
        assertThat(boosted.at()).isEqualTo(JobDriver.at("10:15:00"));
        assertThat(boosted.reason())
                .isEqualTo("4.00 GPU-hours at risk, checkpoint age 900 s since the job first trained: "
                        + "at or above 4.00 GPU-hours");
        assertThat(at("10:20:00").boosted()).isTrue();

        d.checkpointStarted("10:20:00", "ckpt-1", 1200, true)
                .checkpointCompleted("10:20:30", "ckpt-1", 1200, 30, 2, true);
        Decision dropped = at("10:20:30");
        assertThat(dropped.boosted()).isFalse();
        assertThat(dropped.reason())
                .startsWith(
                        "0.00 GPU-hours at risk, checkpoint age 0 s since checkpoint ckpt-1 " + "(step 1200): below");
        // 15 minutes later the same job is worth protecting again
        assertThat(at("10:35:29").boosted()).isFalse();
        assertThat(at("10:35:30").boosted()).isTrue();
    }

    @Test
    void aJobThatVerifiesIsDroppedOnlyByAVerifiedCheckpoint() {
        d.runningOn(2, "10:00:00");
        d.checkpointStarted("10:01:00", "ckpt-0", 100, true)
                .checkpointCompleted("10:01:10", "ckpt-0", 100, 10, 1, true)
                .checkpointVerified("10:01:20", "ckpt-0", true);
        assertThat(at("10:20:00").boosted()).isTrue();
        d.checkpointStarted("10:20:00", "ckpt-1", 1200, true)
                .checkpointCompleted("10:20:30", "ckpt-1", 1200, 30, 2, true);
        // completed but not verified: still counted from ckpt-0 (19.5 min × 16 GPUs = 5.2 GPU-hours)
        assertThat(at("10:20:40").boosted()).isTrue();
        d.checkpointVerified("10:21:00", "ckpt-1", true);
        assertThat(at("10:21:00").boosted()).isFalse();
    }

    @Test
    void aJobOffItsNodesIsNotBoosted() {
        d.runningOn(2, "10:00:00");
        assertThat(at("10:30:00").boosted()).isTrue();
        d.preempted("10:30:00");
        Decision waiting = at("10:31:00");
        assertThat(waiting.boosted()).isFalse();
        assertThat(waiting.reason()).isEqualTo("the job holds no GPU: nothing at risk");
        assertThat(policy.decide(null).boosted()).isFalse();
    }

    @Test
    void theAgeThresholdAloneBoostsASmallJob() {
        PriorityBoostPolicy byAge = new PriorityBoostPolicy(new Settings(50, 0, Duration.ofMinutes(45)), d.clock);
        d.runningOn(1, "10:00:00");
        d.now("10:44:59");
        assertThat(byAge.decide(d.freshness()).boosted()).isFalse();
        d.now("10:45:00");
        Decision boosted = byAge.decide(d.freshness());
        assertThat(boosted.boost()).isEqualTo(50);
        assertThat(boosted.reason()).endsWith("at or above 2700 s");
    }

    @Test
    void badSettingsAreRefusedWithTheirReason() {
        assertThatThrownBy(() -> new Settings(0, 4, Duration.ZERO)).hasMessageContaining("at least 1");
        assertThatThrownBy(() -> new Settings(10, -1, Duration.ZERO)).hasMessageContaining("0 or more");
        assertThatThrownBy(() -> new Settings(10, Double.NaN, Duration.ZERO)).hasMessageContaining("0 or more");
        assertThatThrownBy(() -> new Settings(10, 0, Duration.ZERO)).hasMessageContaining("both are 0");
        assertThatThrownBy(() -> new Settings(10, 1, Duration.ofSeconds(-1))).hasMessageContaining("negative");
    }
}
