package io.lifeline.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** dcgm-exporter scraping and push ({@code lifeline.connectors.dcgm.*}); documented in docs/connectors.md. */
@ConfigMapping(prefix = "lifeline.connectors.dcgm")
public interface ScrapeConfig {

    /** Whether Lifeline scrapes dcgm-exporter endpoints. */
    @WithDefault("true")
    boolean enabled();

    /** Scrapes pushed to {@code POST /api/v1/connectors/dcgm/{node}}. */
    Push push();

    /** Time between two scrapes of an endpoint. */
    @WithDefault("15s")
    Duration interval();

    /** A scrape that has not completed after this long fails. */
    @WithDefault("5s")
    Duration timeout();

    /** Each wait between scrapes is shifted by a random amount up to this, so endpoints do not fire together. */
    @WithDefault("2s")
    Duration jitter();

    /** Threads that schedule scrapes and parse their bodies (requests themselves do not hold a thread). */
    @WithDefault("2")
    int threads();

    /** Consecutive failed scrapes after which an endpoint is marked stale. */
    @WithDefault("3")
    int staleAfterFailures();

    /**
     * Larger scrape bodies are abandoned unparsed and counted (a dcgm-exporter scrape of 8 GPUs is about 70 KB).
     */
    @WithDefault("4194304")
    int maxBodyBytes();

    /** GPUs whose last XID is remembered, so that only changes become {@code gpu.xid} events. */
    @WithDefault("262144")
    int maxTrackedGpus();

    /** Endpoints to scrape, each {@code url} plus the {@code node} it runs on. */
    Optional<List<Endpoint>> endpoints();

    /** Discovery of dcgm-exporter pods through Kubernetes. */
    Kubernetes kubernetes();

    /** {@code lifeline.connectors.dcgm.push.*}. */
    interface Push {
        /** Whether pushed scrapes are taken. */
        @WithDefault("true")
        boolean enabled();
    }

    /** {@code lifeline.connectors.dcgm.endpoints[i].*}. */
    interface Endpoint {
        /** Full metrics URL, for example {@code http://10.0.3.17:9400/metrics}. */
        String url();

        /** The Kubernetes node the exporter reports on (the subject of its events). */
        String node();
    }

    /** {@code lifeline.connectors.dcgm.kubernetes.*}. */
    interface Kubernetes {
        /** Discover endpoints from the dcgm-exporter Service's EndpointSlices (needs the Kubernetes connector's client). */
        @WithDefault("false")
        boolean enabled();

        /**
         * Labels of the dcgm-exporter Service; Kubernetes copies them onto its EndpointSlices and Endpoints. Only
         * objects carrying them are read.
         */
        @WithDefault("app.kubernetes.io/name=dcgm-exporter")
        String labelSelector();

        /**
         * The only namespaces whose EndpointSlices (or Endpoints) are trusted: anyone able to create one elsewhere
         * could otherwise make Lifeline scrape a server of their choosing and report GPU faults on any node.
         */
        @WithDefault("gpu-operator")
        List<String> namespaces();

        /** One namespace; when set it replaces {@link #namespaces()} (the older single-namespace key). */
        Optional<String> namespace();

        /** Which objects to read: {@code endpointslices} (discovery.k8s.io/v1) or {@code endpoints} (v1). */
        @WithDefault("endpointslices")
        String resource();

        /** Name of the metrics port; the first port when no port has this name. */
        @WithDefault("metrics")
        String portName();

        /** URL scheme of the exporter. */
        @WithDefault("http")
        String scheme();

        /** Path of the metrics page. */
        @WithDefault("/metrics")
        String path();
    }
}
