package io.lifeline.api.control;

import io.lifeline.action.ActionRejectedException;
import io.lifeline.action.AuditLog;
import io.lifeline.action.AuditPage;
import io.lifeline.action.AuditQuery;
import io.lifeline.api.read.QueryParams;
import io.lifeline.security.Scope;
import io.lifeline.security.Visibility;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * The audit trail of actions, their steps and policy changes, newest first. A reader limited to namespaces gets only
 * the entries of actions on its jobs and on the nodes hosting them (no policy changes), filtered before paging.
 */
@Path("/api/v1/audit")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
public class AuditResource {

    private final AuditLog audit;
    private final Visibility visibility;

    AuditResource(AuditLog audit, Visibility visibility) {
        this.audit = audit;
        this.visibility = visibility;
    }

    @GET
    public AuditPage list(@QueryParam("actor") String actor, @QueryParam("what") String what,
                          @QueryParam("target") String target, @QueryParam("actionId") String actionId,
                          @QueryParam("from") String from, @QueryParam("to") String to,
                          @QueryParam("limit") Integer limit, @QueryParam("before") String before) {
        Long beforeSeq = null;
        if (before != null) {
            if (!before.matches("[0-9]{1,18}")) {
                throw new ActionRejectedException("before", "not a sequence number this API returned");
            }
            beforeSeq = Long.parseLong(before);
        }
        Scope scope = visibility.scope();
        return audit.query(new AuditQuery(text("actor", actor), text("what", what), text("target", target),
                text("actionId", actionId), QueryParams.instant("from", from), QueryParams.instant("to", to),
                QueryParams.limit(limit, 100, 1000), beforeSeq, scope.isEverything() ? null : scope.namespaces(),
                visibility.nodesUsed(scope)));
    }

    private static String text(String name, String v) {
        if (v == null || v.isBlank()) {
            return null;
        }
        if (v.length() > 300) {
            throw new ActionRejectedException(name, "at most 300 characters");
        }
        return v;
    }
}
