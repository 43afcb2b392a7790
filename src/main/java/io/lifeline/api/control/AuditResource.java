package io.lifeline.api.control;

import io.lifeline.action.ActionRejectedException;
import io.lifeline.action.AuditLog;
import io.lifeline.action.view.AuditEntry;
import io.lifeline.action.view.AuditQuery;
import io.lifeline.api.read.QueryParams;
import io.lifeline.domain.page.Cursor;
import io.lifeline.domain.page.Page;
import io.lifeline.security.Scope;
import io.lifeline.security.Visibility;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

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

    /**
     * A page of the audit log, newest first.
     *
     * @param items          the entries
     * @param nextCursor     pass it back as {@code cursor} for the older entries; null on the last page
     * @param nextBeforeSeq  the same position as the sequence number earlier releases answered (for {@code before});
     *                       null on the last page
     */
    public record AuditAnswer(List<AuditEntry> items, String nextCursor, Long nextBeforeSeq) {

        static AuditAnswer of(Page<AuditEntry> page) {
            String next = page.nextCursor();
            return new AuditAnswer(page.items(), next, next == null ? null : Cursor.longs(next, 1)[0]);
        }
    }

    @GET
    public AuditAnswer list(
            @QueryParam("actor") String actor,
            @QueryParam("what") String what,
            @QueryParam("target") String target,
            @QueryParam("actionId") String actionId,
            @QueryParam("from") String from,
            @QueryParam("to") String to,
            @QueryParam("limit") Integer limit,
            @QueryParam("cursor") String cursor,
            @QueryParam("before") String before) {
        // before= is the sequence number earlier releases answered: a cursor in the plain form Cursor still reads.
        String position = cursor != null ? cursor : before;
        if (position != null) {
            try {
                Cursor.longs(position, 1);
            } catch (IllegalArgumentException e) {
                throw new ActionRejectedException(
                        cursor != null ? "cursor" : "before", "not a cursor this API returned");
            }
        }
        Scope scope = visibility.scope();
        return AuditAnswer.of(audit.query(new AuditQuery(
                text("actor", actor),
                text("what", what),
                text("target", target),
                text("actionId", actionId),
                QueryParams.instant("from", from),
                QueryParams.instant("to", to),
                QueryParams.limit(limit, 100, 1000),
                position,
                scope.isEverything() ? null : scope.namespaces(),
                visibility.nodesUsed(scope))));
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
