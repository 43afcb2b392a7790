package io.lifeline.connector.inbound.scrape;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;

/**
 * How scraping one endpoint goes.
 *
 * @param url                  the metrics URL
 * @param node                 the node it reports on
 * @param origin               {@code static} or {@code kubernetes}
 * @param lastAttempt          when the last scrape started, null before the first
 * @param lastSuccess          when the last usable scrape was taken, null if none yet
 * @param lastError            why the last failed scrape failed, null if none yet
 * @param lastErrorAt          when it failed
 * @param consecutiveFailures  failed scrapes since the last usable one
 * @param stale                whether the endpoint has stopped answering usefully (consecutive failures reached
 *                             {@code lifeline.connectors.dcgm.stale-after-failures})
 * @param scrapes              scrapes attempted
 * @param failures             scrapes failed
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record EndpointStatus(
        String url,
        String node,
        String origin,
        Instant lastAttempt,
        Instant lastSuccess,
        String lastError,
        Instant lastErrorAt,
        int consecutiveFailures,
        boolean stale,
        long scrapes,
        long failures) {}
