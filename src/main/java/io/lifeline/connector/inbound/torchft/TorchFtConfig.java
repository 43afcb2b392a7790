package io.lifeline.connector.inbound.torchft;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * The TorchFT connector ({@code lifeline.connectors.torchft.*}): polls the Lighthouse of every TorchFT job and shows
 * its quorum changes as the job's membership. Documented in docs/connectors.md, "TorchFT".
 */
@ConfigMapping(prefix = "lifeline.connectors.torchft")
public interface TorchFtConfig {

    /** Whether the Lighthouses of TorchFT jobs are polled. */
    @WithDefault("false")
    boolean enabled();

    /** How often each Lighthouse's {@code /status} is read. */
    @WithDefault("10s")
    Duration interval();

    /** How long one read may take. */
    @WithDefault("5s")
    Duration timeout();
}
