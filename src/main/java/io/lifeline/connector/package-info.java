/**
 * Inbound translators: real-world formats (dcgm-exporter scrapes, cloud interruption notices, torchelastic
 * events) into catalogue {@link io.lifeline.domain.event.Event}s. Translators are plain classes with no I/O,
 * scheduling or framework: the caller fetches or receives the input, hands it over with the context only it
 * knows (node name, receive time, job mapping) and submits the resulting events through the ingest gateway.
 *
 * <p>Every translator returns a {@link io.lifeline.connector.Translation} (events plus rejections with reason
 * codes; bad input is a rejection, never an exception) and keeps a {@link io.lifeline.connector.TranslatorStats}
 * (received, translated, rejected by reason, events) for metrics. Event ids are derived from the input, so a
 * re-sent input yields the same ids and the pipeline's (source, id) dedupe drops the repeat.
 */
package io.lifeline.connector;
