package io.lifeline.api.control;

import io.lifeline.action.StackCaptureRequests;
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
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * An operator's "what is it doing right now?": asks a live job's agents for every rank's stacks
 * ({@code capture_stacks}); they arrive as {@code trainer.stacks} and are read with
 * {@code GET /api/v1/jobs/{namespace}/{name}/stacks}. Its class path is {@code /api/v1}, as the read API's: a longer
 * one would take every {@code /api/v1/jobs/...} request away from it.
 */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
public class StacksResource {

    private static final Logger LOG = Logger.getLogger(StacksResource.class);

    private final StackCaptureRequests requests;
    private final CurrentCaller callers;

    StacksResource(StackCaptureRequests requests, CurrentCaller callers) {
        this.requests = requests;
        this.callers = callers;
    }

    /** The request's answer: its id (the stacks that answer it carry it) and the job. */
    public record CaptureRequested(String requestId, String job, String channels) {}

    @POST
    @Path("/jobs/{namespace}/{name}/stacks")
    @Blocking
    public Response capture(@PathParam("namespace") String ns, @PathParam("name") String name) throws Exception {
        String job = ns + "/" + name;
        if (!Scope.of(callers.get()).allowsNamespace(ns)) {
            throw new NotFoundException("no job named '" + job + "'");
        }
        StackCaptureRequests.Requested r = requests.request(job)
                .get(40, TimeUnit.SECONDS)
                .orElseThrow(() -> new NotFoundException("no job named '" + job + "'"));
        if (!r.reached()) {
            throw new ServiceUnavailableException("the capture request reached no channel to the job's agents: "
                    + r.sent().failed());
        }
        LOG.infof("%s asked %s for its stacks (%s)", callers.get().name(), job, r.requestId());
        return Response.accepted(new CaptureRequested(
                        r.requestId(),
                        job,
                        String.join(", ", new java.util.TreeSet<>(r.sent().confirmed()))))
                .build();
    }
}
