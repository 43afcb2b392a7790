package io.lifeline.runtime;

import io.lifeline.eventlog.AppliedPosition;
import io.lifeline.eventlog.EventLogTail;
import java.util.Optional;

/**
 * Rebuilds the model at start-up: from the newest model checkpoint and the events stored after it, or, without a
 * checkpoint, from the whole stored log. Either way the log is read back in seq order by the follower, and the model
 * ends at its exact position in the log, which the checkpoint taken next records.
 */
public final class ModelRebuild {

    private final EventLogTail log;
    private final ModelCheckpoints checkpoints;
    private final ModelRuntime model;

    /**
     * What a rebuild did.
     *
     * @param fromCheckpoint  whether it started from a checkpoint
     * @param events          stored events read back from the log
     * @param position        how far into the log the model now reaches
     */
    public record Result(boolean fromCheckpoint, long events, AppliedPosition position) {}

    public ModelRebuild(EventLogTail log, ModelCheckpoints checkpoints, ModelRuntime model) {
        this.log = log;
        this.checkpoints = checkpoints;
        this.model = model;
    }

    /**
     * Rebuilds the (empty) model and waits until it has applied everything.
     *
     * @param sink where the rows read back go (the model, through the follower's position)
     * @throws io.lifeline.eventlog.StoreUnavailableException when the log cannot be read
     */
    public Result run(EventLogTail.Sink sink) {
        Optional<AppliedPosition> restored = checkpoints.restoreNewest();
        long from = restored.map(AppliedPosition::cursor).orElse(0L);
        long n = log.catchUp(from, sink);
        AppliedPosition position = model.read(m -> model.appliedPosition()).join();
        return new Result(restored.isPresent(), n, position);
    }
}
