/**
 * A pure-JDK parser of the Prometheus text format 0.0.4 (lenient, as Prometheus reads it, reporting bad lines
 * and keeping the rest) and OpenMetrics 1.0 text (strict, agreeing with the official parser conformance suite).
 * Entry point: {@link io.lifeline.connector.inbound.exposition.ExpositionParser}; result:
 * {@link io.lifeline.connector.inbound.exposition.Exposition}.
 */
package io.lifeline.connector.inbound.exposition;
