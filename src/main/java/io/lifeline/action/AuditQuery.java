package io.lifeline.action;

import java.time.Instant;

/** Filters for the audit log; every field may be null. Newest first; {@code beforeSeq} pages backwards. */
public record AuditQuery(String actor, String what, String target, String actionId, Instant from, Instant to,
                         int limit, Long beforeSeq) {
}
