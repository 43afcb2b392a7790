/**
 * What comes in: translators of real-world formats into catalogue events and the sources that fetch or watch them.
 * Translators are plain classes with no I/O, scheduling or framework ({@code cloud}, {@code dcgm},
 * {@code exposition}, {@code kernel}, {@code nvsentinel}, {@code torchelastic}): the caller fetches or receives the
 * input, hands it over with the context only it knows (node name, receive time, job mapping) and submits the
 * resulting events through {@code pipeline} (the ingest gateway's checks, the bounded sink, counters, resolvers).
 * Sources: {@code scrape} (dcgm-exporter), {@code prometheus}, {@code kafka} (the notices topic), {@code kube}
 * (informers, and the eviction webhook in {@code kube.admission}). The HTTP endpoints that take pushed formats are
 * REST resources in {@code io.lifeline.api.connector}. Nothing here uses {@code connector.outbound}.
 */
package io.lifeline.connector.inbound;
