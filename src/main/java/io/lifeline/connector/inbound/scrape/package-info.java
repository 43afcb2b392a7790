/**
 * dcgm-exporter over HTTP: {@link io.lifeline.connector.inbound.scrape.DcgmScraper} scrapes the configured and discovered
 * endpoints ({@link io.lifeline.connector.inbound.scrape.ScrapeTarget}) on a small scheduled pool with asynchronous
 * requests, timeouts and jitter, and reports each endpoint's {@link io.lifeline.connector.inbound.scrape.EndpointStatus}
 * (stale after consecutive failures); {@link io.lifeline.api.connector.DcgmResource} takes pushed scrapes and
 * serves the status. One {@link io.lifeline.connector.inbound.dcgm.DcgmScrapeTranslator} serves both, so its XID memory
 * spans every way a GPU is reported.
 */
package io.lifeline.connector.inbound.scrape;
