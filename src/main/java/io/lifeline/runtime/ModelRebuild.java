package io.lifeline.runtime;

import io.lifeline.domain.event.Event;
import io.lifeline.store.AppliedPosition;
import io.lifeline.store.EventLogReplay;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Rebuilds the model at start-up: from the newest model checkpoint and the events stored after it, or, without a
 * checkpoint, from the whole stored log, as before checkpoints existed. Either way the model ends with its exact
 * position in the log, so the checkpoint taken next says which events it holds.
 */
public final class ModelRebuild {

    private static final Duration ROOM_TIMEOUT = Duration.ofMinutes(5);

    private final EventLogReplay replay;
    private final ModelCheckpoints checkpoints;
    private final ModelRuntime model;

    /**
     * What a rebuild did.
     *
     * @param fromCheckpoint  whether it started from a checkpoint
     * @param events          stored events replayed
     * @param position        how far into the log the model now reaches
     */
    public record Result(boolean fromCheckpoint, long events, AppliedPosition position) {
    }

    public ModelRebuild(EventLogReplay replay, ModelCheckpoints checkpoints, ModelRuntime model) {
        this.replay = replay;
        this.checkpoints = checkpoints;
        this.model = model;
    }

    /**
     * Rebuilds the (empty) model and waits until it has applied everything.
     *
     * @param replayed  told of every replayed event before it is queued (the ingest dedupe remembers them)
     */
    public Result run(Consumer<Event> replayed) throws SQLException {
        Optional<AppliedPosition> restored = checkpoints.restoreNewest();
        AppliedPosition position;
        EventLogReplay.Replayed n;
        if (restored.isPresent()) {
            AppliedPosition from = restored.get();
            // In log order, so each batch says how far into the log the model has come.
            n = replay.replayAfter(from.cursor(), from.ahead(), (batch, lastSeq) -> {
                batch.forEach(replayed);
                model.enqueue(batch, from.through(lastSeq), ROOM_TIMEOUT);
            });
            position = from.through(n.highestSeq());
        } else {
            n = replay.replay(batch -> {
                batch.forEach(replayed);
                model.enqueue(batch, ROOM_TIMEOUT);
            });
            // Replayed in time order, the log is wholly applied only at the end.
            position = AppliedPosition.of(n.highestSeq());
        }
        model.enqueue(List.of(), position, ROOM_TIMEOUT);
        model.barrier().join();
        return new Result(restored.isPresent(), n.events(), position);
    }
}
