package io.lifeline.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** NVIDIA NVSentinel health events ({@code lifeline.connectors.nvsentinel.*}); documented in docs/connectors.md. */
@ConfigMapping(prefix = "lifeline.connectors.nvsentinel")
public interface NvSentinelConfig {

    /** Whether {@code POST /api/v1/connectors/nvsentinel} takes health events. */
    @WithDefault("true")
    boolean enabled();
}
