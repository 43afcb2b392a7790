package io.lifeline.domain.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.job.advice.IntervalAdvice;
import io.lifeline.domain.job.advice.IntervalAdvisor;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The interval advice read against the storage targets the job writes to. */
class StorageAdviceTest {

    private static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");
    private static final long GB = 1_000_000_000L;

    private int ids;

    private Event saved(String job, long minutes, long bytes, double seconds) {
        return new Event(
                "s-" + ++ids,
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
                        "s3://ckpt/" + job + "/" + ids,
                        null,
                        null,
                        true,
                        null));
    }

    private static IntervalAdvice advice(String job, double current) {
        return IntervalAdvisor.advise(
                job, current, "observed", null, 0, new IntervalAdvisor.Exposure(List.of("p"), 0, 0), 0, 0);
    }

    @Test
    void theCurrentIntervalIsCheckedWhenNoneIsRecommendedAndANoteSaysWhatTheStorageSustains() {
        StorageTargets t = new StorageTargets(StorageSettings.defaults());
        // a: 30 GB every 10 min, each written at 30 GB / 300 s = 100 MB/s; b: 12 GB every 10 min at 100 MB/s.
        for (int i = 0; i < 3; i++) {
            t.apply(saved("ml/a", 10L * i, 30 * GB, 300));
            t.apply(saved("ml/b", 10L * i, 12 * GB, 120));
        }
        Instant now = T0.plus(Duration.ofMinutes(25));
        // a at 600 s needs 30 GB / 600 s = 50 MB/s, b writes 12 GB / 600 s = 20 MB/s: 70 MB/s ≤ 100 MB/s.
        IntervalAdvice ok = StorageAdvice.apply(advice("ml/a", 600), t, now);
        assertThat(ok.storage()).singleElement().satisfies(f -> {
            assertThat(f.target()).isEqualTo("s3://ckpt");
            assertThat(f.requiredBytesPerSecond()).isCloseTo(70e6, within(1e-3));
            assertThat(f.feasible()).isTrue();
            // 30 GB / (100 − 20) MB/s = 375 s.
            assertThat(f.sustainableSeconds()).isCloseTo(375.0, within(1e-9));
        });
        // At 300 s a needs 100 MB/s, 120 MB/s with b: not feasible; the note names the 375 s it sustains.
        IntervalAdvice tooFast = StorageAdvice.apply(advice("ml/a", 300), t, now);
        assertThat(tooFast.storage())
                .singleElement()
                .satisfies(f -> assertThat(f.feasible()).isFalse());
        assertThat(tooFast.notes())
                .anySatisfy(n -> assertThat(n).contains("storage s3://ckpt", "sustains an interval of 375 s"));
        // A job writing nowhere known is left as it was.
        IntervalAdvice elsewhere = advice("ml/c", 300);
        assertThat(StorageAdvice.apply(elsewhere, t, now)).isSameAs(elsewhere);
    }
}
