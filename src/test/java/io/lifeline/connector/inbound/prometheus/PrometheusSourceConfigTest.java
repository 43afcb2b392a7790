package io.lifeline.connector.inbound.prometheus;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.config.PrometheusSourceConfig;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The Prometheus source's settings as docs/connectors.md writes them. */
class PrometheusSourceConfigTest {

    private static PrometheusSourceConfig read(Map<String, String> properties) {
        return new SmallRyeConfigBuilder()
                .withConverter(Duration.class, 200, new DurationConverter())
                .withMapping(PrometheusSourceConfig.class)
                .withSources(new PropertiesConfigSource(properties, "test", 500))
                .build()
                .getConfigMapping(PrometheusSourceConfig.class);
    }

    @Test
    void anEmptyTargetLabelsSettingMeansNoneRatherThanAFailedStart() {
        // An empty List value is "no value" to SmallRye: as a plain List it failed the application's start.
        PrometheusSourceConfig c = read(Map.of("lifeline.connectors.prometheus.target-labels", ""));
        assertThat(c.targetLabels()).isEmpty();
        assertThat(read(Map.of()).targetLabels()).contains(List.of("pod", "namespace", "container"));
    }

    @Test
    void headersAreKeyedByTheirQuotedName() {
        PrometheusSourceConfig c = read(Map.of("lifeline.connectors.prometheus.headers.\"X-Scope-OrgID\"", "fleet-a"));
        assertThat(c.headers()).containsEntry("X-Scope-OrgID", "fleet-a");
        assertThat(c.bearerToken()).isEqualTo(Optional.empty());
    }
}
