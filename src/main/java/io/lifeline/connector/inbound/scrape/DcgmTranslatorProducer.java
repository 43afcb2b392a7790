package io.lifeline.connector.inbound.scrape;

import io.lifeline.config.ScrapeConfig;
import io.lifeline.connector.inbound.dcgm.DcgmScrapeTranslator;
import io.lifeline.connector.inbound.pipeline.ConnectorMetrics;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** One dcgm-exporter translator for scraped and pushed scrapes alike, so the XID memory spans both. */
public class DcgmTranslatorProducer {

    @Produces
    @Singleton
    DcgmScrapeTranslator dcgm(ScrapeConfig config, ConnectorMetrics metrics) {
        DcgmScrapeTranslator t = new DcgmScrapeTranslator(config.maxTrackedGpus());
        metrics.register(t.stats());
        return t;
    }
}
