/**
 * The action store: actions, their steps and the audit log in PostgreSQL, through the transaction helper
 * ({@code eventlog.Jdbc}); every write of an action's state or steps by the leader is fenced in its statement.
 */
package io.lifeline.action.store;
