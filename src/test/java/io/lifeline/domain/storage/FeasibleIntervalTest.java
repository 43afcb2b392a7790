package io.lifeline.domain.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.lifeline.domain.job.advice.StorageFeasibility;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Whether an interval fits the bandwidth a target has shown, with the numbers worked by hand. */
class FeasibleIntervalTest {

    private static final double GB = 1e9;

    @Test
    void anAdvisedIntervalThatNeedsMoreThanTheTargetShowsIsNotFeasible() {
        // Target: 1 GB/s shown. Others: job b writes 400 GB every 1,000 s (0.4 GB/s), job c 200 GB every 2,000 s
        // (0.1 GB/s): 0.5 GB/s together. Job a saves 300 GB and is advised every 500 s: 0.6 GB/s.
        // Needed: 0.6 + 0.5 = 1.1 GB/s > 1 GB/s: not feasible.
        // Sustainable: 300 GB / (1 − 0.5) GB/s = 600 s.
        StorageFeasibility f = FeasibleInterval.check(
                "/fsx",
                1 * GB,
                "ml/a",
                300 * GB,
                500,
                List.of(
                        new FeasibleInterval.Writer("ml/a", 300 * GB, 900),
                        new FeasibleInterval.Writer("ml/b", 400 * GB, 1000),
                        new FeasibleInterval.Writer("ml/c", 200 * GB, 2000)));
        assertThat(f.otherJobs()).isEqualTo(2);
        assertThat(f.othersBytesPerSecond()).isCloseTo(0.5 * GB, within(1e-3));
        assertThat(f.requiredBytesPerSecond()).isCloseTo(1.1 * GB, within(1e-3));
        assertThat(f.feasible()).isFalse();
        assertThat(f.sustainableSeconds()).isCloseTo(600.0, within(1e-9));
    }

    @Test
    void anIntervalWithinTheBandwidthIsFeasible() {
        // 2 GB/s shown; alone, 100 GB every 100 s needs 1 GB/s: feasible; it sustains 100 GB / 2 GB/s = 50 s.
        StorageFeasibility f = FeasibleInterval.check("s3://ckpt", 2 * GB, "ml/a", 100 * GB, 100, List.of());
        assertThat(f.requiredBytesPerSecond()).isCloseTo(1 * GB, within(1e-3));
        assertThat(f.feasible()).isTrue();
        assertThat(f.sustainableSeconds()).isCloseTo(50.0, within(1e-9));
    }

    @Test
    void whenTheOthersUseAllTheBandwidthNoIntervalIsSustainable() {
        // 1 GB/s shown; job b alone writes 1,200 GB every 1,000 s = 1.2 GB/s: nothing is left for job a.
        StorageFeasibility f = FeasibleInterval.check(
                "/fsx", 1 * GB, "ml/a", 10 * GB, 3600, List.of(new FeasibleInterval.Writer("ml/b", 1200 * GB, 1000)));
        assertThat(f.feasible()).isFalse();
        assertThat(f.sustainableSeconds()).isNull();
    }
}
