package io.lifeline.api.connector;

import io.lifeline.action.port.TrainerCommand;
import io.lifeline.connector.outbound.command.AgentCommandQueue;
import io.lifeline.connector.outbound.command.CommandCloudEvents;
import io.lifeline.connector.outbound.command.CommandConfig;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.ingest.IngestGateway;
import io.lifeline.security.CurrentCaller;
import io.lifeline.security.Scope;
import io.lifeline.security.identity.Caller;
import io.lifeline.security.store.AgentClaims;
import io.lifeline.security.store.ClaimHeldException;
import io.smallrye.common.annotation.Blocking;
import io.vertx.core.http.HttpServerResponse;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.regex.Pattern;

/**
 * Commands for agents without Kafka (roles operator or ingest; a token limited to namespaces sees only those, and
 * another namespace's job answers 404 as an unknown one). Every call but an operator's release carries the agent's own
 * key ({@value AgentClaims#KEY_HEADER}): the first poll claims the job's commands for that key, and while the claim
 * holds, a poll or acknowledgement with another key is refused (409, audited), whatever its token
 * ({@link AgentClaims}).
 * <ul>
 *   <li>{@code GET /api/v1/agents/{namespace}/{name}/commands?wait=30}: claims or keeps the job's commands, then
 *       answers its pending commands as a JSON array of command CloudEvents, waiting up to {@code wait} seconds
 *       (capped to {@code lifeline.commands.agent.max-wait}) for one; an empty array when none came. The wait holds no
 *       thread. Any replica answers: the commands and the claim are in PostgreSQL ({@link AgentCommandQueue}).</li>
 *   <li>{@code POST /api/v1/agents/{namespace}/{name}/commands/{id}/ack} (the id may contain {@code /}) with
 *       {@code {"status":"accepted|rejected|done|failed","detail":"..."}}: from the claim's key only; becomes a
 *       {@code trainer.command_ack} event (source {@code agent/<namespace>/<name>}) submitted like any other, and is
 *       recorded on the queued command, which is no longer delivered.</li>
 *   <li>{@code DELETE /api/v1/agents/{namespace}/{name}/commands/claim}: the agent gives its claim up as it exits
 *       (with its key), or an operator of the namespace releases whichever agent holds it (without one).</li>
 * </ul>
 */
@Path("/api/v1/agents/{namespace}/{name}/commands")
public class AgentCommandsResource {

    private static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?");
    private static final Pattern COMMAND_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:@/-]{0,255}");
    private static final int MAX_DETAIL = 1000;

    private final AgentCommandQueue queue;
    private final AgentClaims claims;
    private final IngestGateway gateway;
    private final CurrentCaller caller;
    private final CommandConfig config;
    private final Clock clock;

    AgentCommandsResource(
            AgentCommandQueue queue,
            AgentClaims claims,
            IngestGateway gateway,
            CurrentCaller caller,
            CommandConfig config,
            Clock clock) {
        this.queue = queue;
        this.claims = claims;
        this.gateway = gateway;
        this.caller = caller;
        this.config = config;
        this.clock = clock;
    }

    /**
     * An acknowledgement.
     *
     * @param status {@code accepted}, {@code rejected}, {@code done} or {@code failed}
     * @param detail why or what happened, optional
     */
    public record Ack(String status, String detail) {}

    @GET
    @Blocking
    @Produces(MediaType.APPLICATION_JSON)
    public CompletionStage<Response> poll(
            @PathParam("namespace") String namespace,
            @PathParam("name") String name,
            @QueryParam("wait") @DefaultValue("30") int waitSeconds,
            @HeaderParam(AgentClaims.KEY_HEADER) String key,
            @Context io.vertx.core.http.HttpServerRequest request) {
        HttpServerResponse response = request == null ? null : request.response();
        String job = job(namespace, name);
        if (waitSeconds < 0) {
            throw new IllegalArgumentException("wait: seconds, 0 or more");
        }
        String digest = AgentClaims.digest(key);
        Duration wait = Duration.ofSeconds(waitSeconds);
        Duration max = config.agent().maxWait();
        Duration w = wait.compareTo(max) > 0 ? max : wait;
        // Kept while the poll waits and for the grace after it: an agent that polls again at once never loses it.
        AgentClaims.Claim claim =
                claims.claim(job, digest, caller.get(), w.plus(config.agent().claimGrace()));
        CompletionStage<List<TrainerCommand>> polled = queue.poll(job, digest, w);
        if (response != null && !polled.toCompletableFuture().isDone()) {
            // Closed before the answer: the agent's process is gone (a restart may put rank 0 on another node, with
            // another key), so the claim need not outlast it by the whole wait and grace. Vert.x reports the close
            // of a response still in progress as an exception on it.
            Runnable closed = () -> queue.abandon(
                    job, polled, () -> claims.disconnected(claim, config.agent().claimGraceDisconnected()));
            response.exceptionHandler(e -> closed.run());
            response.closeHandler(v -> closed.run());
        }
        return polled.thenApply(commands -> Response.ok(CommandCloudEvents.array(commands), MediaType.APPLICATION_JSON)
                .build());
    }

    @POST
    @Blocking
    @Path("{id: .+}/ack")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public CompletionStage<Response> ack(
            @PathParam("namespace") String namespace,
            @PathParam("name") String name,
            @PathParam("id") String id,
            @HeaderParam(AgentClaims.KEY_HEADER) String key,
            Ack body) {
        String job = job(namespace, name);
        if (id == null || !COMMAND_ID.matcher(id).matches()) {
            throw new IllegalArgumentException("id: a command id (letters, digits, '._:@/-', at most 256)");
        }
        TrainerData.AckStatus status = status(body);
        String digest = AgentClaims.digest(key);
        if (!claims.holds(job, digest)) {
            String why =
                    "acknowledgement " + status.wireName() + " of command " + id + " refused: the commands of " + job
                            + " are answered by the agent that claimed them, and this key does not hold that claim (poll "
                            + "with it first)";
            claims.refused("agent.ack_refused", caller.get(), job, why);
            throw new ClaimHeldException(why, config.agent().claimGrace().toSeconds());
        }
        String detail = body.detail() == null || body.detail().isBlank()
                ? null
                : body.detail().length() <= MAX_DETAIL
                        ? body.detail()
                        : body.detail().substring(0, MAX_DETAIL - 3) + "...";
        Optional<AgentCommandQueue.Acknowledged> known = queue.ack(job, id, status, detail);
        String type = known.map(k -> k.command().type().wire()).orElse(null);
        boolean queued = known.map(AgentCommandQueue.Acknowledged::firstAck).orElse(false);
        String source = "agent/" + namespace + "/" + name;
        // One event per (command, status): an agent repeating its acknowledgement adds nothing.
        Event ack = new Event(
                "ack/" + id + "/" + status.wireName(),
                source,
                EventType.TRAINER_COMMAND_ACK,
                job,
                clock.instant(),
                new TrainerData.CommandAck(id, type, status, detail));
        return gateway.submit(List.of(ack))
                .thenApply(receipt -> Response.accepted(
                                Map.of("commandId", id, "job", job, "status", status.wireName(), "queued", queued))
                        .type(MediaType.APPLICATION_JSON)
                        .build());
    }

    /**
     * What releasing a claim did.
     *
     * @param released  whether a claim was held and is released now
     */
    public record Released(String job, boolean released) {}

    @DELETE
    @Blocking
    @Path("claim")
    @Produces(MediaType.APPLICATION_JSON)
    public Released release(
            @PathParam("namespace") String namespace,
            @PathParam("name") String name,
            @HeaderParam(AgentClaims.KEY_HEADER) String key) {
        String job = job(namespace, name);
        Caller c = caller.get();
        if (key == null || key.isBlank()) {
            if (!c.mayActOnNamespace(namespace)) {
                // A 400, not a 403: the token may call this route; what it lacks is the key of the claim.
                throw new IllegalArgumentException(AgentClaims.KEY_HEADER + ": required: an agent releases its own "
                        + "claim on the commands of " + job + " with its key; releasing whichever agent's claim needs "
                        + "the operator role");
            }
            return new Released(job, claims.release(job, null, c));
        }
        return new Released(job, claims.release(job, AgentClaims.digest(key), c));
    }

    private String job(String namespace, String name) {
        Caller.requireValidNamespace(namespace);
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("name: '" + name + "' is not a Kubernetes object name");
        }
        String job = namespace + "/" + name;
        // A job outside the token's namespaces is answered as unknown, as every read does: 404, not 403, so that a
        // scoped token cannot tell whether another team's job exists.
        if (!Scope.of(caller.get()).allowsNamespace(namespace)) {
            throw new NotFoundException("no job named '" + job + "'");
        }
        return job;
    }

    private static TrainerData.AckStatus status(Ack body) {
        if (body == null || body.status() == null) {
            throw new IllegalArgumentException("status: required, one of accepted, rejected, done, failed");
        }
        for (TrainerData.AckStatus s : TrainerData.AckStatus.values()) {
            if (s.wireName().equals(body.status().toLowerCase(Locale.ROOT))) {
                return s;
            }
        }
        throw new IllegalArgumentException(
                "status: one of accepted, rejected, done, failed; got '" + body.status() + "'");
    }
}
