/** Lifeline's own source of {@code job.recovery_*}: the recovery ladder's advice and checks, written into the event log. */
package io.lifeline.connector.inbound.recovery;
