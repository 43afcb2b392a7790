/**
 * The SQL of the agents' command queue: {@link io.lifeline.connector.outbound.command.store.AgentCommandStore}
 * (table {@code agent_command}, its conditional delivery and acknowledgement), on the event log's transaction helper.
 * The queue's logic (waiting polls, claims, the sweep) stays in {@code io.lifeline.connector.outbound.command}.
 */
package io.lifeline.connector.outbound.command.store;
