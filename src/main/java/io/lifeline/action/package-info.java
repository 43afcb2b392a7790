/**
 * Actions: the service the API, dashboard and policies submit to, their persisted state machines, the executor
 * that runs their steps (on the leader only), and the audit trail.
 */
package io.lifeline.action;
