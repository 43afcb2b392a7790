package io.lifeline.api.read;

import io.lifeline.domain.policy.colocation.ColocationLedger;
import io.lifeline.policy.ColocationService;
import io.lifeline.security.Scope;
import io.lifeline.security.Visibility;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The co-location policy's state: its windows and demand triggers (open or active now, and when that changes), the
 * pools that lend and the GPUs they lent, what each lending cost per job (GPU-hours yielded, rework lost), and what
 * the policy makes of every job of those pools. A reader limited to namespaces sees its own jobs and the pools they
 * run in.
 */
@Path("/api/v1/colocation")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
public class ColocationResource {

    private final ColocationService colocation;
    private final Visibility visibility;

    ColocationResource(ColocationService colocation, Visibility visibility) {
        this.colocation = colocation;
        this.visibility = visibility;
    }

    @GET
    public ColocationService.Status status() throws Exception {
        Scope scope = visibility.scope();
        Predicate<String> shown;
        if (scope.isEverything()) {
            shown = p -> true;
        } else {
            Set<String> pools = visibility.poolsUsed(scope);
            shown = pools::contains;
        }
        return colocation.status(scope, shown);
    }

    /** One job's lendings, oldest first. */
    @GET
    @Path("/jobs/{namespace}/{name}")
    public List<ColocationLedger.Episode> job(@PathParam("namespace") String ns, @PathParam("name") String name)
            throws Exception {
        String job = ns + "/" + name;
        if (!visibility.scope().allowsNamespace(ns)) {
            throw NotFound.job(job);
        }
        return colocation.episodesOf(job);
    }
}
