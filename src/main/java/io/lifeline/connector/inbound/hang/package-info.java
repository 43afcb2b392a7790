/** Lifeline's own source of {@code job.hang_suspected}: the model's hang verdicts, written into the event log. */
package io.lifeline.connector.inbound.hang;
