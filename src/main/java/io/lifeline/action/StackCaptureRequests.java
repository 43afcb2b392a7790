package io.lifeline.action;

import io.lifeline.action.port.CommandType;
import io.lifeline.action.port.SendAttempt;
import io.lifeline.action.port.TrainerCommand;
import io.lifeline.action.port.TrainerCommandSink;
import io.lifeline.runtime.ModelRuntime;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * An operator's "what is it doing right now?": asks a live job's agents for every rank's stacks
 * ({@code capture_stacks}), once, with no action behind it: nothing changes in the job, so there is nothing to confirm,
 * audit or retry. The stacks arrive as {@code trainer.stacks} and are read from the model. Shared by
 * {@code POST /api/v1/jobs/{namespace}/{name}/stacks} and the dashboard's job page; the caller checks the role and
 * the namespace.
 */
@ApplicationScoped
public class StackCaptureRequests {

    /** How long the agents may take to act on the request before it is stale. */
    static final Duration DEADLINE = Duration.ofMinutes(2);

    private final TrainerCommandSink commands;
    private final ModelRuntime model;
    private final Clock clock;

    StackCaptureRequests(TrainerCommandSink commands, ModelRuntime model, Clock clock) {
        this.commands = commands;
        this.model = model;
        this.clock = clock;
    }

    /**
     * A request sent.
     *
     * @param requestId  the id the ranks' stacks answer with
     * @param job        the job asked
     * @param sent       which channels took the request and which did not
     */
    public record Requested(String requestId, String job, SendAttempt sent) {

        /** Whether some channel to the job's agents took it. */
        public boolean reached() {
            return !sent.confirmed().isEmpty();
        }
    }

    /**
     * Sends the request to every channel that serves {@code job} ({@code namespace/name}); empty when the model
     * knows no such job. Never blocks the caller: the model read and the sends complete the future.
     */
    public CompletableFuture<Optional<Requested>> request(String job) {
        return model.read(m -> m.jobs().detail(job).isPresent()).thenCompose(known -> {
            if (!known) {
                return CompletableFuture.completedFuture(Optional.<Requested>empty());
            }
            String id = "stacks-" + UUID.randomUUID().toString().substring(0, 13);
            TrainerCommand c = new TrainerCommand(
                    id,
                    job,
                    CommandType.CAPTURE_STACKS,
                    Map.of("requestId", id),
                    clock.instant(),
                    clock.instant().plus(DEADLINE));
            return commands.send(c, Set.of())
                    .toCompletableFuture()
                    .thenApply(sent -> Optional.of(new Requested(id, job, sent)));
        });
    }
}
