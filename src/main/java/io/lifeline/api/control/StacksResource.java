package io.lifeline.api.control;

import io.lifeline.action.port.CommandType;
import io.lifeline.action.port.SendAttempt;
import io.lifeline.action.port.TrainerCommand;
import io.lifeline.action.port.TrainerCommandSink;
import io.lifeline.runtime.ModelRuntime;
import io.lifeline.security.CurrentCaller;
import io.lifeline.security.Scope;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.ServiceUnavailableException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * An operator's "what is it doing right now?": asks a live job's agents for every rank's stacks
 * ({@code capture_stacks}); they arrive as {@code trainer.stacks} and are read with
 * {@code GET /api/v1/jobs/{namespace}/{name}/stacks}.
 *
 * <p>Rooted at {@code /api/v1} like the read resources: a resource rooted at {@code /api/v1/jobs} is the closer match
 * for every job path, and takes every {@code GET /api/v1/jobs/...} away from {@code JobsResource} (answered 404).
 */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
public class StacksResource {

    private static final Logger LOG = Logger.getLogger(StacksResource.class);
    private static final Duration DEADLINE = Duration.ofMinutes(2);

    private final TrainerCommandSink commands;
    private final ModelRuntime model;
    private final CurrentCaller callers;
    private final Clock clock;

    StacksResource(TrainerCommandSink commands, ModelRuntime model, CurrentCaller callers, Clock clock) {
        this.commands = commands;
        this.model = model;
        this.callers = callers;
        this.clock = clock;
    }

    /** The request's answer: its id (the stacks that answer it carry it) and the job. */
    public record CaptureRequested(String requestId, String job, String channels) {}

    @POST
    @Path("/jobs/{namespace}/{name}/stacks")
    @Blocking
    public Response capture(@PathParam("namespace") String ns, @PathParam("name") String name) throws Exception {
        String job = ns + "/" + name;
        if (!Scope.of(callers.get()).allowsNamespace(ns)
                || !model.read(m -> m.jobs().detail(job).isPresent()).get(10, TimeUnit.SECONDS)) {
            throw new NotFoundException("no job named '" + job + "'");
        }
        String id = "stacks-" + UUID.randomUUID().toString().substring(0, 13);
        TrainerCommand c = new TrainerCommand(
                id,
                job,
                CommandType.CAPTURE_STACKS,
                Map.of("requestId", id),
                clock.instant(),
                clock.instant().plus(DEADLINE));
        SendAttempt sent = commands.send(c, Set.of()).toCompletableFuture().get(30, TimeUnit.SECONDS);
        if (sent.confirmed().isEmpty()) {
            throw new ServiceUnavailableException(
                    "the capture request reached no channel to the job's agents: " + sent.failed());
        }
        LOG.infof("%s asked %s for its stacks (%s)", callers.get().name(), job, id);
        return Response.accepted(
                        new CaptureRequested(id, job, String.join(", ", new java.util.TreeSet<>(sent.confirmed()))))
                .build();
    }
}
