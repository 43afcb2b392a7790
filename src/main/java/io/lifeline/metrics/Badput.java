package io.lifeline.metrics;

import io.lifeline.domain.job.goodput.GoodputView;
import java.util.Locale;
import java.util.function.ToLongFunction;

/**
 * The kinds of {@code lifeline_job_badput_seconds_total}: every bucket of the model's goodput accounting that is not
 * productive training, so that goodput plus the badput of every kind is the elapsed time (as in Google's goodput
 * measurement, where badput is split by what the time went to).
 */
enum Badput {
    CHECKPOINT(GoodputView::checkpointMillis),
    LOST_REWORK(GoodputView::lostReworkMillis),
    HANG(GoodputView::hangMillis),
    RECOVERY_DETECTION(GoodputView::recoveryDetectionMillis),
    RECOVERY_RESTART(GoodputView::recoveryRestartMillis),
    RECOVERY_LOAD(GoodputView::recoveryLoadMillis),
    RESCALE(GoodputView::rescaleMillis),
    STARTUP(GoodputView::startupMillis),
    WAITING(GoodputView::waitingMillis);

    @SuppressWarnings("ImmutableEnumChecker") // a stateless method reference
    private final ToLongFunction<GoodputView> millis;

    Badput(ToLongFunction<GoodputView> millis) {
        this.millis = millis;
    }

    long millis(GoodputView view) {
        return millis.applyAsLong(view);
    }

    /** The {@code kind} label value. */
    String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
