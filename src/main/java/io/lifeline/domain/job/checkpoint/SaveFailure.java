package io.lifeline.domain.job.checkpoint;

import io.lifeline.domain.event.TrainerData;

/** How a failed save reads in the checkpoint's {@code error}: a refusal for space says so first, with the numbers. */
final class SaveFailure {

    private SaveFailure() {}

    static String describe(TrainerData.CheckpointFailed d) {
        if (d.reason() != TrainerData.FailReason.NO_SPACE) {
            return d.error();
        }
        StringBuilder b = new StringBuilder("no_space");
        if (d.freeBytes() != null || d.neededBytes() != null) {
            b.append(" (");
            if (d.freeBytes() != null) {
                b.append(d.freeBytes()).append(" bytes free");
            }
            if (d.neededBytes() != null) {
                b.append(d.freeBytes() != null ? ", " : "")
                        .append(d.neededBytes())
                        .append(" needed");
            }
            b.append(')');
        }
        if (d.error() != null) {
            b.append(": ").append(d.error());
        }
        return b.toString();
    }
}
