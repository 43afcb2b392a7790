package io.lifeline.connector.inbound.scrape;

import java.net.URI;
import java.util.Objects;

/**
 * One dcgm-exporter endpoint to scrape.
 *
 * @param url     the metrics URL ({@code http://10.0.3.17:9400/metrics})
 * @param node    the Kubernetes node the exporter reports on; the subject of its events
 * @param origin  where the endpoint came from
 */
public record ScrapeTarget(String url, String node, Origin origin) {

    /** Where an endpoint came from: the configured list or Kubernetes discovery. */
    public enum Origin {
        STATIC,
        KUBERNETES
    }

    public ScrapeTarget {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(origin, "origin");
        URI u = URI.create(url);
        if (!"http".equalsIgnoreCase(u.getScheme()) && !"https".equalsIgnoreCase(u.getScheme())
                || u.getHost() == null) {
            throw new IllegalArgumentException("dcgm-exporter url must be http(s)://host:port/path, got '" + url + "'");
        }
        if (node.isBlank()) {
            throw new IllegalArgumentException("node of " + url + " must not be blank");
        }
    }
}
