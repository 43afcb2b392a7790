package io.lifeline.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * GPU telemetry read from a Prometheus that already scrapes dcgm-exporter ({@code lifeline.connectors.prometheus.*}):
 * Prometheus, Thanos Query, VictoriaMetrics or Mimir, anything serving {@code GET /api/v1/query}. Documented in
 * docs/connectors.md.
 */
@ConfigMapping(prefix = "lifeline.connectors.prometheus")
public interface PrometheusSourceConfig {

    /** Whether Lifeline queries the Prometheus for DCGM series. */
    @WithDefault("false")
    boolean enabled();

    /** Base URL of the query API, for example {@code http://prometheus.monitoring:9090} (Mimir: {@code .../prometheus}). */
    Optional<String> url();

    /** The instant query; its answer must be a vector of dcgm-exporter series. */
    @WithDefault("{__name__=~\"DCGM_FI_.*\"}")
    String query();

    /** Time between two queries; evaluation times are aligned to it, so every replica reads the same instant. */
    @WithDefault("15s")
    Duration interval();

    /** A query that has not answered after this long fails. */
    @WithDefault("10s")
    Duration timeout();

    /** After failed queries the wait doubles from the interval up to this. */
    @WithDefault("5m")
    Duration maxBackoff();

    /** Larger answers are abandoned unread. */
    @WithDefault("134217728")
    int maxBodyBytes();

    /**
     * Labels naming a series' Kubernetes node, tried in order: a relabelled node name ({@code node},
     * {@code kubernetes_node}), dcgm-exporter's {@code Hostname} (its {@code exported_} form under
     * {@code honor_labels: false}), and last the target's {@code instance} without its port.
     */
    @WithDefault("node,kubernetes_node,Hostname,exported_Hostname,instance")
    List<String> nodeLabels();

    /**
     * Labels the scrape job puts on the exporter's target (a ServiceMonitor adds {@code namespace}, {@code pod},
     * {@code container}): with {@code honor_labels: false} these name the exporter itself, and the workload's
     * values are in their {@code exported_} form, so the plain ones are not read as the workload's. Set empty
     * ({@code target-labels=}) for a scrape job that adds none of them or honours the exporter's labels: an empty
     * value is read as no list at all, hence the {@code Optional}.
     */
    @WithDefault("pod,namespace,container")
    Optional<List<String>> targetLabels();

    /** {@code Authorization: Bearer} token. */
    Optional<String> bearerToken();

    /** A file holding the bearer token, read at every query (a projected service-account token rotates). */
    Optional<String> bearerTokenFile();

    /** Basic authentication user. */
    Optional<String> username();

    /** Basic authentication password. */
    Optional<String> password();

    /** PEM file of the CA certificates to trust for an {@code https} URL (the JVM's trust store otherwise). */
    Optional<String> caFile();

    /** Further headers, for example {@code X-Scope-OrgID} for a multi-tenant Mimir or Thanos. */
    Map<String, String> headers();
}
