package io.lifeline.action;

import io.lifeline.action.view.AuditEntry;
import io.lifeline.action.view.AuditQuery;
import io.lifeline.domain.page.Page;

/** Reads the audit trail of actions and policy changes. */
public interface AuditLog {

    Page<AuditEntry> query(AuditQuery query);
}
