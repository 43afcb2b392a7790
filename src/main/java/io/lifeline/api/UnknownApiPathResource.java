package io.lifeline.api;

import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import org.eclipse.microprofile.openapi.annotations.Operation;

/**
 * Every {@code /api} path no resource serves (a typo, or a traversal such as {@code nodes/%2e%2e} that resolves to a
 * path nothing serves) is a 404 problem. Without it such a request would fall through to the UI and be answered
 * with its HTML page. Resources with a more specific path always win over this one; it is not in the OpenAPI
 * document.
 */
@Path("/api/{rest: .*}")
public class UnknownApiPathResource {

    private static final String DETAIL = "no such API path; see /q/openapi for the API";

    @GET
    @Operation(hidden = true)
    public void get() {
        throw new NotFoundException(DETAIL);
    }

    @POST
    @Operation(hidden = true)
    public void post() {
        throw new NotFoundException(DETAIL);
    }

    @PUT
    @Operation(hidden = true)
    public void put() {
        throw new NotFoundException(DETAIL);
    }

    @DELETE
    @Operation(hidden = true)
    public void delete() {
        throw new NotFoundException(DETAIL);
    }

    @PATCH
    @Operation(hidden = true)
    public void patch() {
        throw new NotFoundException(DETAIL);
    }
}
