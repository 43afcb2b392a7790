package io.lifeline.api.control;

import com.fasterxml.jackson.databind.JsonNode;
import io.lifeline.action.ActionRejectedException;
import io.lifeline.connector.inbound.trust.CheckpointTrustMarks;
import io.lifeline.security.CurrentCaller;
import io.lifeline.security.Scope;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Iterator;
import java.util.Set;

/**
 * An operator marks a checkpoint trusted or suspect: {@code POST /api/v1/jobs/{namespace}/{name}/checkpoints/{id}/trust}
 * with {@code {"trusted": true|false, "reason": "..."}}. The operator role (the table's rule for POST under a job),
 * the job's namespace in the caller's scope (otherwise the job does not exist for them), audited. Its class path is
 * {@code /api/v1}, as the read API's: a longer one would take every {@code /api/v1/jobs/...} request away from it.
 */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
public class CheckpointTrustResource {

    private static final int MAX_REASON = 500;
    private static final Set<String> FIELDS = Set.of("trusted", "reason");

    private final CheckpointTrustMarks marks;
    private final CurrentCaller callers;

    CheckpointTrustResource(CheckpointTrustMarks marks, CurrentCaller callers) {
        this.marks = marks;
        this.callers = callers;
    }

    @POST
    @Path("/jobs/{namespace}/{name}/checkpoints/{id}/trust")
    @Consumes(MediaType.APPLICATION_JSON)
    @Blocking
    public Object mark(
            @PathParam("namespace") String ns,
            @PathParam("name") String name,
            @PathParam("id") String id,
            JsonNode body)
            throws Exception {
        String job = ns + "/" + name;
        if (!Scope.of(callers.get()).allowsNamespace(ns)) {
            throw new NotFoundException("no job named '" + job + "'");
        }
        if (body == null || !body.isObject()) {
            throw new ActionRejectedException("body", "expected {\"trusted\": true|false, \"reason\": \"...\"}");
        }
        for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!FIELDS.contains(f)) {
                throw new ActionRejectedException(
                        f.length() > 60 ? f.substring(0, 60) : f, "unknown field (known: reason, trusted)");
            }
        }
        JsonNode trusted = body.get("trusted");
        if (trusted == null || !trusted.isBoolean()) {
            throw new ActionRejectedException("trusted", "required: true or false");
        }
        JsonNode reason = body.get("reason");
        if (reason == null || !reason.isTextual() || reason.asText().isBlank()) {
            throw new ActionRejectedException("reason", "required: why, in words");
        }
        if (reason.asText().length() > MAX_REASON) {
            throw new ActionRejectedException("reason", "at most " + MAX_REASON + " characters");
        }
        CheckpointTrustMarks.Outcome o = marks.mark(
                job,
                id,
                trusted.asBoolean(),
                reason.asText().strip(),
                callers.get().actor());
        if (o instanceof CheckpointTrustMarks.Marked m) {
            return m.checkpoint();
        }
        if (o instanceof CheckpointTrustMarks.NotFound n) {
            throw new NotFoundException(n.what());
        }
        throw new WebApplicationException(((CheckpointTrustMarks.NotComplete) o).why(), Response.Status.CONFLICT);
    }
}
