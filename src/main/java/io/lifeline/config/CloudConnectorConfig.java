package io.lifeline.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Cloud interruption notice endpoints ({@code lifeline.connectors.cloud.*}); documented in docs/connectors.md.
 * Each provider's endpoints answer 404 when that provider is off.
 */
@ConfigMapping(prefix = "lifeline.connectors.cloud")
public interface CloudConnectorConfig {

    /** AWS EventBridge and IMDS endpoints. */
    Aws aws();

    /** Azure Scheduled Events endpoint. */
    Provider azure();

    /** GCP metadata endpoints. */
    Provider gcp();

    /**
     * Machines that are known nodes without Kubernetes or a {@code node.registered} event: key an instance id,
     * VM name or full provider id ({@code aws:///us-east-1a/i-0abc}), value the node name.
     */
    Map<String, String> nodes();

    /** {@code lifeline.connectors.cloud.aws.*}. */
    interface Aws {
        /** Whether the AWS endpoints take notices. */
        @WithDefault("true")
        boolean enabled();

        /** Completing Auto Scaling lifecycle actions after the drain. */
        Lifecycle lifecycle();
    }

    /**
     * {@code lifeline.connectors.cloud.aws.lifecycle.*}: after the drain of a node an {@code EC2 Instance-terminate
     * Lifecycle Action} announced, {@code CompleteLifecycleAction} (CONTINUE), as aws-node-termination-handler does.
     */
    interface Lifecycle {
        /** Whether lifecycle actions are completed after the drain (otherwise the hook's own timeout ends them). */
        @WithDefault("false")
        boolean complete();

        /** Auto Scaling API base URL; none: {@code https://autoscaling.<region>.amazonaws.com}. */
        Optional<String> endpoint();

        /** Access key id; none: the {@code AWS_ACCESS_KEY_ID} environment variable. */
        Optional<String> accessKeyId();

        /** Secret access key; none: {@code AWS_SECRET_ACCESS_KEY}. */
        Optional<String> secretAccessKey();

        /** Session token of temporary credentials; none: {@code AWS_SESSION_TOKEN} if set. */
        Optional<String> sessionToken();

        /** One call's timeout. */
        @WithDefault("10s")
        Duration timeout();

        /** Calls per action before giving up (the hook's heartbeat timeout then ends the wait). */
        @WithDefault("3")
        int attempts();

        /** Lifecycle actions remembered while their nodes drain; the oldest is forgotten beyond this. */
        @WithDefault("10000")
        int maxPending();

        /**
         * The termination hooks' heartbeat timeout ({@code HeartbeatTimeout} of {@code PutLifecycleHook}; AWS's default is
         * one hour), which lifecycle events do not carry: a lifecycle notice is due this long after its event. None: the
         * notice has no deadline.
         */
        Optional<Duration> heartbeatTimeout();
    }

    /** {@code lifeline.connectors.cloud.<provider>.*}. */
    interface Provider {
        /** Whether the provider's endpoints take notices. */
        @WithDefault("true")
        boolean enabled();
    }
}
