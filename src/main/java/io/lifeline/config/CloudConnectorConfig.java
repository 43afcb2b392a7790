package io.lifeline.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Map;

/**
 * Cloud interruption notice endpoints ({@code lifeline.connectors.cloud.*}); documented in docs/connectors.md.
 * Each provider's endpoints answer 404 when that provider is off.
 */
@ConfigMapping(prefix = "lifeline.connectors.cloud")
public interface CloudConnectorConfig {

    /** AWS EventBridge and IMDS endpoints. */
    Provider aws();

    /** Azure Scheduled Events endpoint. */
    Provider azure();

    /** GCP metadata endpoints. */
    Provider gcp();

    /**
     * Machines that are known nodes without Kubernetes or a {@code node.registered} event: key an instance id,
     * VM name or full provider id ({@code aws:///us-east-1a/i-0abc}), value the node name.
     */
    Map<String, String> nodes();

    /** {@code lifeline.connectors.cloud.<provider>.*}. */
    interface Provider {
        /** Whether the provider's endpoints take notices. */
        @WithDefault("true")
        boolean enabled();
    }
}
