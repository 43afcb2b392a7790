/**
 * Connectors to the world outside, split by direction: {@code connector.inbound} turns real-world formats and
 * sources (dcgm-exporter scrapes, Prometheus, cloud interruption notices, torchelastic events, kernel logs,
 * NVSentinel, Kubernetes watches, the eviction webhook) into catalogue {@link io.lifeline.domain.event.Event}s;
 * {@code connector.outbound} carries Lifeline's decisions out (trainer commands, actions on the Kubernetes cluster,
 * AWS lifecycle completions). The two directions do not depend on each other ({@code LayersTest}); what both need
 * lives here: {@link io.lifeline.connector.Translation}, {@link io.lifeline.connector.TranslatorStats} and
 * {@link io.lifeline.connector.LifecycleAction} (read from a notice coming in, completed by a call going out).
 *
 * <p>The names are {@code inbound} and {@code outbound}, not {@code in} and {@code out}: whole words read the same in
 * a package name, an import and a sentence ("connector.in" is easily read as a preposition), and they are what the
 * documentation calls the two sides.
 *
 * <p>Every translator returns a {@link io.lifeline.connector.Translation} (events plus rejections with reason
 * codes; bad input is a rejection, never an exception) and keeps a {@link io.lifeline.connector.TranslatorStats}
 * (received, translated, rejected by reason, events) for metrics. Event ids are derived from the input, so a
 * re-sent input yields the same ids and the pipeline's (source, id) dedupe drops the repeat.
 */
package io.lifeline.connector;
