package io.lifeline.action;

/** Reads the audit trail of actions and policy changes. */
public interface AuditLog {

    AuditPage query(AuditQuery query);
}
