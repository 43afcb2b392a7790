package io.lifeline.eventlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** When the embedded database's stop waits for the store, and when it need not. */
class ShutdownOrderTest {

    @Test
    void aStoreThatNeverStartedIsNotWaitedFor() {
        ShutdownOrder.Gate gate = new ShutdownOrder.Gate();
        // A start that failed before the store began: the stop must not sit out the whole bound.
        assertThat(assertTimeoutPreemptively(Duration.ofSeconds(30), () -> gate.await(1, TimeUnit.HOURS)))
                .isTrue();
    }

    @Test
    void aStartedStoreIsWaitedForUntilItStopped() {
        ShutdownOrder.Gate gate = new ShutdownOrder.Gate();
        gate.started();
        assertThat(gate.await(50, TimeUnit.MILLISECONDS)).as("still writing").isFalse();
        gate.stopped();
        assertThat(assertTimeoutPreemptively(Duration.ofSeconds(30), () -> gate.await(1, TimeUnit.HOURS)))
                .isTrue();
    }

    @Test
    void thePhasesRunInTheirOrder() {
        assertThat(new int[] {
                    ShutdownOrder.INGEST,
                    ShutdownOrder.MODEL_CHECKPOINT,
                    ShutdownOrder.BACKGROUND,
                    ShutdownOrder.WRITERS,
                    ShutdownOrder.EVENT_LOG
                })
                .isSorted()
                .doesNotHaveDuplicates();
    }
}
