/**
 * NVIDIA dcgm-exporter scrapes into {@code gpu.sample} and {@code gpu.xid} events:
 * {@link io.lifeline.connector.inbound.dcgm.DcgmScrapeTranslator}, given a
 * {@link io.lifeline.connector.inbound.dcgm.DcgmScrape} (endpoint, node, scrape time) per scrape.
 */
package io.lifeline.connector.inbound.dcgm;
