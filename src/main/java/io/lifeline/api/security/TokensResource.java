package io.lifeline.api.security;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.lifeline.security.CurrentCaller;
import io.lifeline.security.TokenService;
import io.lifeline.security.identity.ApiToken;
import io.lifeline.security.identity.Role;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * API tokens ({@code /api/v1/tokens}, admin only: see {@code AccessRules}). The secret is in the answer to the
 * creation request and nowhere else, ever.
 */
@Path("/api/v1/tokens")
@Produces(MediaType.APPLICATION_JSON)
public class TokensResource {

    private final TokenService tokens;
    private final CurrentCaller caller;
    private final Clock clock;

    TokensResource(TokenService tokens, CurrentCaller caller, Clock clock) {
        this.tokens = tokens;
        this.caller = caller;
        this.clock = clock;
    }

    /**
     * What to create.
     *
     * @param name       who or what will use the token (required)
     * @param role       viewer, operator, admin or ingest (required)
     * @param namespaces Kubernetes namespaces to limit it to; absent or empty for fleet-wide
     * @param expiresAt  when it stops working (RFC 3339)
     * @param expiresIn  or: how long it works (ISO-8601 duration such as {@code P30D}); absent both, it never expires
     * @param nodes      for an ingest token: the nodes it may send node and GPU events of (a node agent's token)
     * @param sources    for an ingest token: the CloudEvents sources it may send events of (a connector's token)
     */
    public record CreateTokenRequest(
            String name,
            String role,
            List<String> namespaces,
            Instant expiresAt,
            Duration expiresIn,
            List<String> nodes,
            List<String> sources) {}

    /** A token as listed: never the secret. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record TokenView(
            String id,
            String name,
            String role,
            List<String> namespaces,
            String status,
            Instant createdAt,
            String createdBy,
            Instant expiresAt,
            Instant revokedAt,
            String revokedBy,
            Instant lastUsedAt,
            List<String> nodes,
            List<String> sources) {}

    /** The answer to a creation: the token's description plus, this once, the token itself. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record CreatedTokenView(
            String token,
            String id,
            String name,
            String role,
            List<String> namespaces,
            Instant createdAt,
            Instant expiresAt,
            List<String> nodes,
            List<String> sources) {}

    /** All tokens, newest first. */
    public record TokenList(List<TokenView> tokens) {}

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(CreateTokenRequest req) {
        if (req == null) {
            throw new IllegalArgumentException("body: required, e.g. {\"name\":\"ci\",\"role\":\"viewer\"}");
        }
        if (req.expiresAt() != null && req.expiresIn() != null) {
            throw new IllegalArgumentException("expiresAt, expiresIn: give one or the other");
        }
        Instant expires = req.expiresAt();
        if (req.expiresIn() != null) {
            if (req.expiresIn().isNegative() || req.expiresIn().isZero()) {
                throw new IllegalArgumentException("expiresIn: must be positive, got " + req.expiresIn());
            }
            expires = clock.instant().plus(req.expiresIn());
        }
        TokenService.Created c = tokens.create(
                caller.get(),
                req.name(),
                Role.fromWireName(req.role()),
                req.namespaces(),
                req.nodes(),
                req.sources(),
                expires);
        ApiToken t = c.token();
        return Response.created(URI.create("/api/v1/tokens/" + t.id()))
                .header("Cache-Control", "no-store")
                .entity(new CreatedTokenView(
                        c.secretToken(),
                        t.id(),
                        t.name(),
                        t.role().wireName(),
                        t.namespaces(),
                        t.createdAt(),
                        t.expiresAt(),
                        orNull(t.nodes()),
                        orNull(t.sources())))
                .build();
    }

    @GET
    public TokenList list() {
        Instant now = clock.instant();
        return new TokenList(tokens.list().stream().map(t -> view(t, now)).toList());
    }

    @GET
    @Path("{id}")
    public TokenView get(@PathParam("id") String id) {
        ApiToken t = tokens.get(id);
        if (t == null) {
            throw notFound(id);
        }
        return view(t, clock.instant());
    }

    /** Revokes a token; revoking it again changes nothing. */
    @DELETE
    @Path("{id}")
    public Response revoke(@PathParam("id") String id) {
        if (!tokens.revoke(caller.get(), id)) {
            throw notFound(id);
        }
        return Response.noContent().build();
    }

    /** The same as {@code DELETE}, for clients that cannot send one. */
    @POST
    @Path("{id}/revoke")
    public Response revokeByPost(@PathParam("id") String id) {
        return revoke(id);
    }

    private static NotFoundException notFound(String id) {
        return new NotFoundException("no token with id '" + id + "'");
    }

    static TokenView view(ApiToken t, Instant now) {
        return new TokenView(
                t.id(),
                t.name(),
                t.role().wireName(),
                t.namespaces(),
                t.status(now).wireName(),
                t.createdAt(),
                t.createdBy(),
                t.expiresAt(),
                t.revokedAt(),
                t.revokedBy(),
                t.lastUsedAt(),
                orNull(t.nodes()),
                orNull(t.sources()));
    }

    /** A binding as the answer shows it: left out when the token is not bound. */
    private static List<String> orNull(List<String> values) {
        return values.isEmpty() ? null : values;
    }
}
