package io.lifeline.action;

import java.util.List;

/** A page of audit entries, newest first; {@code nextBeforeSeq} is null on the last page. */
public record AuditPage(List<AuditEntry> items, Long nextBeforeSeq) {
}
