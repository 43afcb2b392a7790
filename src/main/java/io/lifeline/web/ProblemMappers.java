package io.lifeline.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import io.lifeline.action.ActionNotFoundException;
import io.lifeline.action.ActionRejectedException;
import io.lifeline.action.TargetBusyException;
import io.lifeline.alert.SilenceNotFoundException;
import io.lifeline.alert.TooManySilencesException;
import io.lifeline.codec.InvalidEventException;
import io.lifeline.eventlog.RetryLaterException;
import io.lifeline.eventlog.StoreUnavailableException;
import io.lifeline.security.RateLimitedException;
import io.lifeline.security.identity.AccessDeniedException;
import io.lifeline.security.store.ClaimHeldException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * The one table that turns exceptions into problem responses. Nothing else builds error responses, and no
 * stack trace ever reaches a client.
 */
public final class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);

    @ServerExceptionMapper
    public Response invalid(InvalidEventException e) {
        return problem(400, "invalid-request", "Invalid request", e.getMessage());
    }

    @ServerExceptionMapper
    public Response badArgument(IllegalArgumentException e) {
        return problem(400, "invalid-request", "Invalid request", e.getMessage());
    }

    @ServerExceptionMapper
    public Response rejected(RetryLaterException e) {
        return Response.fromResponse(problem(503, "unavailable", "Temporarily unavailable", e.getMessage()))
                .header("Retry-After", "1")
                .build();
    }

    @ServerExceptionMapper
    public Response denied(AccessDeniedException e) {
        return problem(403, "forbidden", "Forbidden", e.getMessage());
    }

    @ServerExceptionMapper
    public Response rateLimited(RateLimitedException e) {
        return Response.fromResponse(problem(429, "rate-limited", "Too many requests", e.getMessage()))
                .header("Retry-After", Long.toString(e.retryAfterSeconds()))
                .build();
    }

    @ServerExceptionMapper
    public Response claimHeld(ClaimHeldException e) {
        return Response.fromResponse(
                        problem(409, "claimed-by-another-agent", "Claimed by another agent", e.getMessage()))
                .header("Retry-After", Long.toString(e.retryAfterSeconds()))
                .build();
    }

    @ServerExceptionMapper
    public Response actionRejected(ActionRejectedException e) {
        return Response.status(400)
                .type(Problem.MEDIA_TYPE)
                .entity(new Problem(
                        "/problems/invalid-request",
                        "Invalid request",
                        400,
                        e.field() + ": " + e.getMessage(),
                        List.of(Map.of("field", e.field(), "reason", e.getMessage()))))
                .build();
    }

    @ServerExceptionMapper
    public Response whatIfDeadline(io.lifeline.runtime.WhatIfDeadlineException e) {
        return problem(422, "deadline-exceeded", "Deadline exceeded", e.getMessage());
    }

    @ServerExceptionMapper
    public Response targetBusy(TargetBusyException e) {
        return problem(409, "target-busy", "Target busy", e.getMessage());
    }

    @ServerExceptionMapper
    public Response notFound(ActionNotFoundException e) {
        return problem(404, "not-found", "Not found", e.getMessage());
    }

    @ServerExceptionMapper
    public Response silenceNotFound(SilenceNotFoundException e) {
        return problem(404, "not-found", "Not found", e.getMessage());
    }

    @ServerExceptionMapper
    public Response tooManySilences(TooManySilencesException e) {
        return problem(409, "conflict", "Conflict", e.getMessage());
    }

    @ServerExceptionMapper
    public Response storeUnavailable(StoreUnavailableException e) {
        return Response.fromResponse(problem(503, "unavailable", "Temporarily unavailable", e.getMessage()))
                .header("Retry-After", "2")
                .build();
    }

    @ServerExceptionMapper
    public Response unreadableJson(JsonProcessingException e) {
        String where = "body";
        if (e instanceof MismatchedInputException m && !m.getPath().isEmpty()) {
            where = m.getPath().stream()
                    .map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
                    .collect(Collectors.joining("."))
                    .replace(".[", "[");
        }
        String why = e instanceof StreamConstraintsException
                ? "nested too deeply or too large"
                : e instanceof MismatchedInputException ? "not the JSON type expected here" : "not valid JSON";
        return problem(400, "invalid-request", "Invalid request", where + ": " + why);
    }

    /** The closest type wins: without this, the framework's own mapper answers a wrong JSON type with an empty 400. */
    @ServerExceptionMapper
    public Response wrongJsonType(MismatchedInputException e) {
        return unreadableJson(e);
    }

    @ServerExceptionMapper
    public Response web(WebApplicationException e) {
        if (e instanceof NotFoundException && e.getCause() != null) {
            // The framework's answer to a query or path parameter it could not convert (a word where a number goes):
            // the request is wrong, nothing is missing.
            return problem(
                    400,
                    "invalid-request",
                    "Invalid request",
                    "a query or path parameter does not have the expected type (for example, a whole number)");
        }
        int status = e.getResponse().getStatus();
        String title = e.getResponse().getStatusInfo().getReasonPhrase();
        return problem(status, "http-" + status, title, e.getMessage());
    }

    @ServerExceptionMapper
    public Response unexpected(RuntimeException e) {
        LOG.error("Unexpected error while serving a request", e);
        return problem(500, "internal", "Internal error", "an unexpected error occurred; it has been logged");
    }

    /** The one way a problem document is written: {@code type} is the last segment of {@code /problems/<type>}. */
    public static Response problem(int status, String type, String title, String detail) {
        return problem(status, type, title, detail, null);
    }

    /** A problem document with the per-item errors of a batch (each with its index and reason). */
    public static Response problem(int status, String type, String title, String detail, List<?> errors) {
        return Response.status(status)
                .type(Problem.MEDIA_TYPE)
                .entity(new Problem("/problems/" + type, title, status, detail, errors))
                .build();
    }
}
