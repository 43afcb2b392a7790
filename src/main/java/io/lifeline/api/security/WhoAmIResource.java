package io.lifeline.api.security;

import io.lifeline.security.CurrentCaller;
import io.lifeline.security.identity.Caller;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/** {@code GET /api/v1/whoami}: what the presented token is allowed (any valid token may ask). */
@Path("/api/v1/whoami")
@Produces(MediaType.APPLICATION_JSON)
public class WhoAmIResource {

    private final CurrentCaller caller;

    WhoAmIResource(CurrentCaller caller) {
        this.caller = caller;
    }

    /**
     * The caller as the server sees it.
     *
     * @param tokenId    the token's public id
     * @param name       the token's name
     * @param role       its role
     * @param namespaces namespaces it is limited to (empty: fleet-wide)
     * @param fleetWide  whether it is fleet-wide
     */
    public record WhoAmI(String tokenId, String name, String role, List<String> namespaces, boolean fleetWide) {}

    @GET
    public WhoAmI get() {
        Caller c = caller.get();
        return new WhoAmI(
                c.tokenId(),
                c.name(),
                c.role() == null ? null : c.role().wireName(),
                List.copyOf(c.namespaces()),
                c.isFleetWide());
    }
}
