package io.lifeline.domain.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.lifeline.domain.job.checkpoint.CheckpointHistory;
import io.lifeline.domain.job.checkpoint.CheckpointStatus;
import io.lifeline.domain.job.checkpoint.CheckpointView;
import io.lifeline.domain.job.checkpoint.FreshnessView;
import io.lifeline.domain.job.checkpoint.RestoreView;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Checkpoint states, every field of the events, lineage, freshness and its objective. */
class CheckpointFreshnessTest {

    private final JobDriver d = new JobDriver("ml/llm");

    private CheckpointHistory history() {
        return d.jobs.checkpoints("ml/llm").orElseThrow();
    }

    private CheckpointView checkpoint(String id) {
        return history().checkpoints().stream()
                .filter(c -> c.id().equals(id))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void aCompletedCheckpointKeepsEveryFieldOfItsEvents() {
        d.runningOn(2, "10:00:00");
        d.checkpointStarted("10:10:00", "ckpt-1", 1000, true)
                .checkpointCompleted("10:11:00", "ckpt-1", 1000, 60, 4.5, true);
        CheckpointView c = checkpoint("ckpt-1");
        assertThat(c.status()).isEqualTo(CheckpointStatus.COMPLETED);
        assertThat(c.good()).isTrue();
        assertThat(c.step()).isEqualTo(1000);
        assertThat(c.startedAt()).isEqualTo(JobDriver.at("10:10:00"));
        assertThat(c.completedAt()).isEqualTo(JobDriver.at("10:11:00"));
        assertThat(c.async()).isTrue();
        assertThat(c.bytes()).isEqualTo(350_000_000_000L);
        assertThat(c.durationMillis()).isEqualTo(60_000);
        assertThat(c.blockingMillis()).isEqualTo(4_500);
        assertThat(c.uri()).isEqualTo("s3://ckpt/ckpt-1");
        assertThat(c.checksum()).isEqualTo("sha256:ckpt-1");
        assertThat(c.shards()).isEqualTo(64);
        assertThat(c.worldSize()).isEqualTo(64);
        assertThat(c.restoredFrom()).isNull();
        // async: only the 4.5 s of blocking leave the productive time
        d.now("10:20:00");
        assertThat(d.goodput().checkpointMillis()).isEqualTo(4_500);
        assertThat(d.goodput().productiveMillis()).isEqualTo(20 * 60_000 - 4_500);
    }

    @Test
    void failedAndCorruptCheckpointsAreNoRestorePoints() {
        d.runningOn(2, "10:00:00");
        d.checkpointStarted("10:10:00", "ckpt-1", 1000, false).checkpointFailed("10:10:20", "ckpt-1", 1000, "ENOSPC");
        d.checkpointStarted("10:20:00", "ckpt-2", 2000, false)
                .checkpointCompleted("10:20:30", "ckpt-2", 2000, 30, 30, false)
                .checkpointVerified("10:21:00", "ckpt-2", false);
        assertThat(checkpoint("ckpt-1").status()).isEqualTo(CheckpointStatus.FAILED);
        assertThat(checkpoint("ckpt-1").error()).isEqualTo("ENOSPC");
        assertThat(checkpoint("ckpt-2").status()).isEqualTo(CheckpointStatus.CORRUPT);
        assertThat(checkpoint("ckpt-2").verifiedChecksum()).isEqualTo("sha256:ckpt-2");
        assertThat(history().newestGood()).isNull();
        assertThat(history().verifies()).isTrue();
        d.now("10:30:00");
        FreshnessView f = d.freshness();
        assertThat(f.checkpointId()).isNull();
        // without a good checkpoint the age runs from the first training at 10:00:00
        assertThat(f.ageMillis()).isEqualTo(30 * 60_000);
        // a failed synchronous save blocked the trainers too: 20 s + 30 s
        assertThat(d.goodput().checkpointMillis()).isEqualTo(50_000);
    }

    @Test
    void onceTheJobVerifiesOnlyVerifiedCheckpointsCount() {
        d.runningOn(2, "10:00:00");
        d.checkpointStarted("10:10:00", "ckpt-1", 1000, false)
                .checkpointCompleted("10:10:30", "ckpt-1", 1000, 30, 30, false);
        assertThat(history().newestGood()).isEqualTo("ckpt-1");
        d.checkpointStarted("10:20:00", "ckpt-2", 2000, false)
                .checkpointCompleted("10:20:30", "ckpt-2", 2000, 30, 30, false)
                .checkpointVerified("10:21:00", "ckpt-1", true);
        // ckpt-2 is newer but not verified, and the job now verifies
        assertThat(history().newestGood()).isEqualTo("ckpt-1");
        d.checkpointVerified("10:21:30", "ckpt-2", true);
        assertThat(history().newestGood()).isEqualTo("ckpt-2");
    }

    @Test
    void eventsOfOneCheckpointInAnyOrderGiveTheSameStatus() {
        d.runningOn(2, "10:00:00");
        d.checkpointVerified("10:11:00", "ckpt-1", true)
                .checkpointCompleted("10:10:30", "ckpt-1", 1000, 30, 30, false)
                .checkpointStarted("10:10:00", "ckpt-1", 1000, false);
        CheckpointView c = checkpoint("ckpt-1");
        assertThat(c.status()).isEqualTo(CheckpointStatus.VERIFIED);
        assertThat(c.good()).isTrue();
        assertThat(c.completedAt()).isEqualTo(JobDriver.at("10:10:30"));
        assertThat(c.startedAt()).isEqualTo(JobDriver.at("10:10:00"));
        assertThat(d.state()).isEqualTo(JobState.RUNNING);
        assertThat(d.goodput().checkpointMillis())
                .as("a late start must not block the trainers again")
                .isEqualTo(30_000);
    }

    @Test
    void aSynchronousSaveWhoseCompletionIsLostEndsAtTheNextProgress() {
        d.runningOn(2, "10:00:00");
        d.checkpointStarted("10:10:00", "ckpt-1", 1000, false);
        // the completion event never arrives; training goes on
        d.progress("10:10:45", 1001).now("10:20:00");
        assertThat(d.goodput().checkpointMillis()).isEqualTo(45_000);
        assertThat(d.goodput().productiveMillis()).isEqualTo(20 * 60_000 - 45_000);
    }

    @Test
    void restoresFormTheLineage() {
        d.runningOn(2, "10:00:00");
        d.checkpointStarted("10:10:00", "ckpt-1", 1000, false)
                .checkpointCompleted("10:10:30", "ckpt-1", 1000, 30, 30, false);
        d.workerFailed("10:15:00", 0, "n1")
                .restarted("10:15:10", 1)
                .restored("10:15:40", "ckpt-1", 1000)
                .progress("10:16:00", 1001);
        d.checkpointStarted("10:30:00", "ckpt-2", 2400, false)
                .checkpointCompleted("10:30:30", "ckpt-2", 2400, 30, 30, false);
        CheckpointHistory h = history();
        assertThat(h.lineageParent()).isEqualTo("ckpt-1");
        assertThat(checkpoint("ckpt-2").restoredFrom()).isEqualTo("ckpt-1");
        assertThat(checkpoint("ckpt-1").restoredFrom()).isNull();
        assertThat(checkpoint("ckpt-1").restoreCount()).isEqualTo(1);
        assertThat(h.restores()).singleElement().satisfies(r -> {
            assertThat(r.checkpointId()).isEqualTo("ckpt-1");
            assertThat(r.step()).isEqualTo(1000);
            assertThat(r.incidentId()).isEqualTo("ml/llm#1");
            assertThat(r.known()).isTrue();
            assertThat(r.time()).isEqualTo(JobDriver.at("10:15:40"));
        });
    }

    @Test
    void aRestoreOfACheckpointNeverSeenIsRecordedAsUnknown() {
        d.runningOn(2, "10:00:00")
                .workerFailed("10:05:00", 0, "n1")
                .restored("10:05:30", "ckpt-from-last-week", 77_000);
        RestoreView r = history().restores().get(0);
        assertThat(r.known()).isFalse();
        assertThat(history().lineageParent()).isEqualTo("ckpt-from-last-week");
    }

    @Test
    void historyIsBoundedToTheNewestHundredCheckpoints() {
        d.runningOn(1, "10:00:00");
        for (int i = 0; i < 130; i++) {
            String t = String.format("%02d:%02d:00", 10 + i / 60, i % 60);
            d.checkpointStarted(t, "c" + i, i, true).checkpointCompleted(t, "c" + i, i, 1, 0, true);
        }
        CheckpointHistory h = history();
        assertThat(h.checkpoints()).hasSize(100);
        assertThat(h.checkpoints().get(0).id()).isEqualTo("c30");
        assertThat(h.newestGood()).isEqualTo("c129");
    }

    @Test
    void freshnessBreachesAtTwiceTheIntervalByDefaultAndTheObjectiveCanBeSet() {
        // interval 1800 s → objective 3600 s
        d.runningOn(2, "10:00:00");
        d.checkpointStarted("10:10:00", "ckpt-1", 1000, false)
                .checkpointCompleted("10:10:30", "ckpt-1", 1000, 30, 30, false);
        d.progress("10:40:00", 3000);
        d.now("11:10:30");
        assertThat(d.freshness().breached()).isFalse();
        d.now("11:10:31");
        FreshnessView f = d.freshness();
        assertThat(f.breached()).isTrue();
        assertThat(f.objectiveMillis()).isEqualTo(3_600_000);
        assertThat(f.ageMillis()).isEqualTo(3_601_000);
        // 16 GPUs × 3601 s
        assertThat(f.workAtRiskGpuHours()).isCloseTo(16 * 3601 / 3600.0, within(1e-12));
        assertThat(f.stepsSince()).isEqualTo(2000);
        assertThat(d.jobs.list(new JobFilter(null, null, true)))
                .extracting(JobSummary::name)
                .containsExactly("ml/llm");
        assertThat(d.jobs.setFreshnessObjective("ml/llm", Duration.ofHours(2))).isTrue();
        assertThat(d.freshness().breached()).isFalse();
        assertThat(d.jobs.list(new JobFilter(null, null, true))).isEmpty();
        assertThat(d.jobs.setFreshnessObjective("ml/nope", Duration.ofHours(2))).isFalse();
    }

    @Test
    void aJobThatIsNotTrainingIsNotInBreach() {
        d.runningOn(2, "10:00:00").preempted("10:05:00").now("14:00:00");
        assertThat(d.freshness().breached()).isFalse();
        assertThat(d.freshness().workAtRiskGpuHours()).isZero();
    }
}
