package io.lifeline.connector.inbound.dcgm;

import java.time.Instant;
import java.util.Objects;

/**
 * Where and when one dcgm-exporter scrape was taken.
 *
 * @param endpoint    the scrape target ({@code host:port} or URL); becomes the event source
 *                    {@code dcgm-exporter/<endpoint>}
 * @param nodeName    the Kubernetes node the target runs on, when the caller knows it (preferred), else null:
 *                    the translator then falls back to the {@code Hostname}/{@code hostname} label, which
 *                    dcgm-exporter fills with its own pod name when it runs in a pod without
 *                    {@code NODE_NAME} set (see the issue #58 fixture), so pass the node whenever possible
 * @param scrapeTime  when the scrape was taken; the time of every event it yields
 */
public record DcgmScrape(String endpoint, String nodeName, Instant scrapeTime) {

    public DcgmScrape {
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(scrapeTime, "scrapeTime");
        if (endpoint.isBlank()) {
            throw new IllegalArgumentException("endpoint must not be blank");
        }
        if (nodeName != null && nodeName.isBlank()) {
            nodeName = null;
        }
    }
}
