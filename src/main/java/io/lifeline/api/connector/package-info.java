/**
 * The connectors' REST endpoints: pushed formats in (cloud notices, torchelastic lines, kernel logs, NVSentinel
 * events, dcgm-exporter scrapes), each answering like the event API ({@link io.lifeline.api.connector.Answers}), the
 * state of the Kubernetes and dcgm-exporter sources, and the agents' command long poll. They receive and answer;
 * translation and submission live in {@code io.lifeline.connector.inbound}, the command queue in
 * {@code io.lifeline.connector.outbound.command}.
 */
package io.lifeline.api.connector;
