package io.lifeline.domain.alert;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.alert.AlertSnapshot.StorageFacts;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The storage-filling rule: fires while a target would be full sooner than the alert-before time, or has less than
 * twice its largest recent checkpoint free; resolves when neither holds.
 */
class StorageFillingRuleTest {

    private static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");
    private static final long GB = 1L << 30;
    private static final Duration DAY = Duration.ofHours(24);

    private static AlertSnapshot snapshot(List<StorageFacts> storage) {
        return new AlertSnapshot(List.of(), List.of(), List.of(), List.of(), List.of(), null, null, null, storage);
    }

    private static Evaluation at(AlertEngine e, AlertSnapshot s, long minutes) {
        return e.evaluate(s, List.of(), T0.plus(Duration.ofMinutes(minutes)));
    }

    /** 150 GiB free, 12 GiB/h added: 150 / 12 = 12.5 h until full, within 24 h. */
    private static StorageFacts filling() {
        return new StorageFacts("/fsx", List.of("ml"), 150 * GB, 1000 * GB, 12.5 * 3600, 12.0 * GB, 6 * GB, DAY);
    }

    @Test
    void aTargetFullWithinTheAlertBeforeTimeFiresAndResolvesOnceItIsNot() {
        AlertEngine e = new AlertEngine(AlertRules.defaults(), 100, 10);
        assertThat(at(e, snapshot(List.of(filling())), 0).changes())
                .singleElement()
                .satisfies(c -> {
                    assertThat(c.to()).isEqualTo(AlertState.FIRING);
                    assertThat(c.alert().labels())
                            .containsEntry("alertname", "CheckpointStorageFilling")
                            .containsEntry("target", "/fsx")
                            .containsEntry("namespace", "ml")
                            .containsEntry("severity", "warning");
                    assertThat(c.alert().annotations().get("summary")).contains("/fsx", "full in 12h30m");
                    assertThat(c.alert().annotations().get("description"))
                            .contains("150.0 GiB free", "12.0 GiB per hour");
                });
        // 1,000 GiB free at 12 GiB/h: 83.3 h, beyond 24 h, and far more than twice 6 GiB free.
        StorageFacts roomy = new StorageFacts(
                "/fsx", List.of("ml"), 1000 * GB, 2000 * GB, 1000.0 / 12 * 3600, 12.0 * GB, 6 * GB, DAY);
        assertThat(at(e, snapshot(List.of(roomy)), 1).changes())
                .singleElement()
                .satisfies(c -> assertThat(c.to()).isEqualTo(AlertState.RESOLVED));
    }

    @Test
    void lessThanTwiceTheLargestCheckpointFreeFiresEvenWithoutGrowth() {
        AlertEngine e = new AlertEngine(AlertRules.defaults(), 100, 10);
        // 10 GiB free, the largest recent checkpoint 6 GiB: 10 < 2 × 6 = 12. Nobody writes now: no time until full.
        StorageFacts tight = new StorageFacts("s3://ckpt", List.of("ml", "cv"), 10 * GB, null, null, 0, 6 * GB, DAY);
        assertThat(at(e, snapshot(List.of(tight)), 0).changes()).singleElement().satisfies(c -> {
            assertThat(c.alert().labels()).containsEntry("target", "s3://ckpt").doesNotContainKey("namespace");
            assertThat(c.alert().annotations().get("description")).contains("largest recent checkpoint is 6.0 GiB");
        });
        // 13 GiB free is more than 12: nothing fires on a fresh engine.
        StorageFacts enough = new StorageFacts("s3://ckpt", List.of("ml"), 13 * GB, null, null, 0, 6 * GB, DAY);
        assertThat(at(new AlertEngine(AlertRules.defaults(), 100, 10), snapshot(List.of(enough)), 0)
                        .changes())
                .isEmpty();
    }

    @Test
    void aTargetWithoutAFreeSpaceReadingNeverFiresAndAMissingSectionKeepsTheAlert() {
        AlertEngine e = new AlertEngine(AlertRules.defaults(), 100, 10);
        StorageFacts unknown = new StorageFacts("/fsx", List.of("ml"), null, null, null, 12.0 * GB, 6 * GB, DAY);
        assertThat(at(e, snapshot(List.of(unknown)), 0).changes()).isEmpty();
        assertThat(at(e, snapshot(List.of(filling())), 1).changes()).hasSize(1);
        assertThat(at(e, snapshot(null), 2).changes()).isEmpty();
    }
}
