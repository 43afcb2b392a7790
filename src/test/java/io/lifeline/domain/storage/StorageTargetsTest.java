package io.lifeline.domain.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.TrainerData;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Storage targets from checkpoint saves: retention, bandwidth, free space and time until full, worked by hand. */
class StorageTargetsTest {

    private static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");
    private static final long GB = 1_000_000_000L;

    private int ids;

    private Event completed(String job, long minutes, String uri, long bytes, double seconds, Long free, Long cap) {
        return new Event(
                "c-" + ++ids,
                "trainer/" + job,
                EventType.TRAINER_CHECKPOINT_COMPLETED,
                job,
                T0.plus(Duration.ofMinutes(minutes)),
                new TrainerData.CheckpointCompleted(
                        "step-" + ids,
                        ids,
                        bytes,
                        seconds,
                        1.0,
                        uri,
                        null,
                        null,
                        false,
                        null,
                        List.of(),
                        null,
                        free,
                        cap));
    }

    private static StorageTargets targets(int retention) {
        return new StorageTargets(
                new StorageSettings(retention, List.of("/mnt/shared"), 16, 10, 10, Duration.ofHours(6)));
    }

    @Test
    void retentionKeepsTheNewestCheckpointsOfEachJobAndTheRateIsNetOfIt() {
        StorageTargets t = targets(2);
        // Job a saves 10 GB every 30 min in 100 s (100 MB/s): kept 10, 20, then 20 (the first rotated out).
        t.apply(completed("ml/a", 0, "/fsx/a/step-1", 10 * GB, 100, null, null));
        t.apply(completed("ml/a", 30, "/fsx/a/step-2", 10 * GB, 100, null, null));
        t.apply(completed("ml/a", 60, "/fsx/a/step-3", 10 * GB, 100, null, null));
        StorageTargetView v =
                t.view("/fsx", T0.plus(Duration.ofMinutes(60)), ns -> true).orElseThrow();
        assertThat(v.keptBytes()).isEqualTo(20 * GB);
        assertThat(v.keptCheckpoints()).isEqualTo(2);
        // Net added after the first save: +10 GB (second), +0 (third rotates the first out) over 60 min = 10 GB/h.
        assertThat(v.netBytesPerHour()).isCloseTo(10.0 * GB, within(1.0));
        assertThat(v.bandwidthMedian()).isCloseTo(100e6, within(1e-6));
        assertThat(v.largestRecentBytes()).isEqualTo(10 * GB);
    }

    @Test
    void bandwidthIsTheMedianAndTheSlowestTenthOfTheRecentSaves() {
        StorageTargets t = targets(3);
        // Ten saves of 1 GB taking 1, 2, ..., 10 s: 1000, 500, 333.3, 250, 200, 166.7, 142.9, 125, 111.1, 100 MB/s.
        for (int i = 1; i <= 10; i++) {
            t.apply(completed("ml/a", i, "s3://bucket/a/" + i, GB, i, null, null));
        }
        StorageTargetView v = t.view("s3://bucket", T0.plus(Duration.ofMinutes(10)), ns -> true)
                .orElseThrow();
        // Sorted: 100, 111.1, 125, 142.9, 166.7, 200, 250, 333.3, 500, 1000. Median = (166.7 + 200) / 2 = 183.3 MB/s.
        assertThat(v.bandwidthMedian()).isCloseTo((GB / 6.0 + GB / 5.0) / 2, within(1.0));
        // p10 by nearest rank: ceil(0.1 × 10) = the 1st value, 100 MB/s.
        assertThat(v.bandwidthP10()).isCloseTo(GB / 10.0, within(1.0));
        assertThat(v.bandwidthSamples()).isEqualTo(10);
    }

    @Test
    void timeUntilFullIsTheFreeSpaceOverTheNetRateOfEveryWritingJob() {
        StorageTargets t = targets(100);
        // Two jobs on /mnt/shared (a named root), nothing rotated out (retention 100).
        // Job a: 6 GB every 60 min; job b: 3 GB every 30 min. Each adds 6 GB/h: 12 GB/h together.
        t.apply(completed("ml/a", 0, "/mnt/shared/a/1", 6 * GB, 60, null, null));
        t.apply(completed("ml/b", 0, "/mnt/shared/b/1", 3 * GB, 30, null, null));
        t.apply(completed("ml/b", 30, "/mnt/shared/b/2", 3 * GB, 30, null, null));
        t.apply(completed("ml/a", 60, "/mnt/shared/a/2", 6 * GB, 60, null, null));
        // b reads 150 GB free of 1000 GB after its third save; kept then: 6 + 3 + 3 + 6 + 3 = 21 GB.
        t.apply(completed("ml/b", 60, "/mnt/shared/b/3", 3 * GB, 30, 150 * GB, 1000 * GB));
        StorageTargetView v = t.view("/mnt/shared", T0.plus(Duration.ofMinutes(60)), ns -> true)
                .orElseThrow();
        // a: +6 GB over 60 min = 6 GB/h; b: +3 +3 GB over 60 min = 6 GB/h.
        assertThat(v.netBytesPerHour()).isCloseTo(12.0 * GB, within(1.0));
        assertThat(v.freeBytes()).isEqualTo(150 * GB);
        assertThat(v.capacityBytes()).isEqualTo(1000 * GB);
        // 150 GB / 12 GB/h = 12.5 h = 45,000 s.
        assertThat(v.secondsUntilFull()).isCloseTo(45_000.0, within(0.01));
        // a saves 6 GB more after b's reading: 144 GB free now, at the same rate 12 h.
        t.apply(completed("ml/a", 120, "/mnt/shared/a/3", 6 * GB, 60, null, null));
        StorageTargetView later = t.view("/mnt/shared", T0.plus(Duration.ofMinutes(120)), ns -> true)
                .orElseThrow();
        assertThat(later.freeBytes()).isEqualTo(144 * GB);
        // a: +6 +6 over 120 min = 6 GB/h; b unchanged 6 GB/h: 144 / 12 = 12 h.
        assertThat(later.secondsUntilFull()).isCloseTo(12 * 3600.0, within(0.01));
    }

    @Test
    void aFinishedJobAddsNothingAndAFailureReportsFreeSpaceOnTheJobsTarget() {
        StorageTargets t = targets(100);
        t.apply(completed("ml/a", 0, "/fsx/a/1", GB, 10, null, null));
        t.apply(completed("ml/a", 60, "/fsx/a/2", GB, 10, null, null));
        t.apply(new Event(
                "f-1",
                "trainer/ml/a",
                EventType.TRAINER_CHECKPOINT_FAILED,
                "ml/a",
                T0.plus(Duration.ofMinutes(90)),
                new TrainerData.CheckpointFailed("step-3", 3, "no space left on device", 10L, 4000 * GB)));
        StorageTargetView v =
                t.view("/fsx", T0.plus(Duration.ofMinutes(90)), ns -> true).orElseThrow();
        assertThat(v.freeBytes()).isEqualTo(10L);
        assertThat(v.netBytesPerHour()).isCloseTo(1.0 * GB, within(1.0));
        t.apply(new Event(
                "j-1",
                "k8s",
                EventType.JOB_FINISHED,
                "ml/a",
                T0.plus(Duration.ofMinutes(91)),
                new JobData.Finished(io.lifeline.domain.event.JobData.Outcome.FAILED, null)));
        StorageTargetView after =
                t.view("/fsx", T0.plus(Duration.ofMinutes(91)), ns -> true).orElseThrow();
        assertThat(after.writingJobs()).isZero();
        assertThat(after.netBytesPerHour()).isZero();
        assertThat(after.secondsUntilFull()).isNull();
    }

    @Test
    void aScopedReaderSeesOnlyItsJobsFigures() {
        StorageTargets t = targets(3);
        t.apply(completed("ml/a", 0, "/fsx/a/1", 4 * GB, 10, null, null));
        t.apply(completed("cv/b", 0, "/fsx/b/1", 2 * GB, 10, null, null));
        Instant now = T0.plus(Duration.ofMinutes(1));
        assertThat(t.view("/fsx", now, ns -> true).orElseThrow().keptBytes()).isEqualTo(6 * GB);
        StorageTargetView ml = t.view("/fsx", now, "ml"::equals).orElseThrow();
        assertThat(ml.keptBytes()).isEqualTo(4 * GB);
        assertThat(ml.writers()).extracting(StorageTargetView.Writer::job).containsExactly("ml/a");
        assertThat(t.view("/fsx", now, "other"::equals)).isEmpty();
        assertThat(t.views(now, "cv"::equals))
                .singleElement()
                .satisfies(v -> assertThat(v.jobs()).isEqualTo(1));
    }

    @Test
    void targetsAndJobsAreBoundedAndSaveRestoresTheSameFigures() {
        StorageTargets t = new StorageTargets(new StorageSettings(2, List.of(), 4, 2, 2, Duration.ofHours(6)));
        t.apply(completed("ml/a", 0, "/one/a", GB, 10, null, null));
        t.apply(completed("ml/a", 1, "/two/a", GB, 10, null, null));
        t.apply(completed("ml/a", 2, "/three/a", GB, 10, null, null));
        Instant now = T0.plus(Duration.ofMinutes(3));
        assertThat(t.views(now, ns -> true))
                .extracting(StorageTargetView::target)
                .containsExactly("/three", "/two");
        for (int i = 0; i < 3; i++) {
            t.apply(completed("ml/j" + i, 3 + i, "/two/j" + i, GB, 10, 50 * GB, null));
        }
        assertThat(t.view("/two", now, ns -> true).orElseThrow().jobs()).isEqualTo(2);
        StorageTargets back = new StorageTargets(t.settings());
        back.restore(t.save());
        assertThat(back.views(now, ns -> true)).isEqualTo(t.views(now, ns -> true));
    }
}
