package io.lifeline.connector.inbound.pipeline;

import io.lifeline.config.CloudConnectorConfig;
import io.lifeline.config.TorchelasticConnectorConfig;
import io.lifeline.connector.inbound.cloud.AwsNoticeTranslator;
import io.lifeline.connector.inbound.cloud.AzureScheduledEventsTranslator;
import io.lifeline.connector.inbound.cloud.GcpMetadataTranslator;
import io.lifeline.connector.inbound.torchelastic.TorchelasticTranslator;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * One instance of each pushed-format translator for the whole application (the HTTP endpoints and the Kafka
 * notices topic share them, so rendezvous rounds and counters span both), each exported to the metrics.
 */
public class ConnectorTranslators {

    @Produces
    @Singleton
    AwsNoticeTranslator aws(ConnectorNodeResolver nodes, CloudConnectorConfig config, ConnectorMetrics metrics) {
        AwsNoticeTranslator t = new AwsNoticeTranslator(
                nodes, config.aws().lifecycle().heartbeatTimeout().orElse(null));
        metrics.register(t.stats());
        return t;
    }

    @Produces
    @Singleton
    AzureScheduledEventsTranslator azure(ConnectorNodeResolver nodes, ConnectorMetrics metrics) {
        AzureScheduledEventsTranslator t = new AzureScheduledEventsTranslator(nodes);
        metrics.register(t.stats());
        return t;
    }

    @Produces
    @Singleton
    GcpMetadataTranslator gcp(ConnectorNodeResolver nodes, ConnectorMetrics metrics) {
        GcpMetadataTranslator t = new GcpMetadataTranslator(nodes);
        metrics.register(t.stats());
        return t;
    }

    @Produces
    @Singleton
    TorchelasticTranslator torchelastic(
            ConnectorJobResolver jobs, HostNodes hosts, TorchelasticConnectorConfig config, ConnectorMetrics metrics) {
        TorchelasticTranslator t = new TorchelasticTranslator(jobs, hosts::nodeFor, config.maxPendingRounds());
        metrics.register(t.stats());
        return t;
    }
}
