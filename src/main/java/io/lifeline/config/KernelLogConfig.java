package io.lifeline.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Kernel-log XIDs posted by a node agent ({@code lifeline.connectors.kernel-log.*}); documented in docs/connectors.md. */
@ConfigMapping(prefix = "lifeline.connectors.kernel-log")
public interface KernelLogConfig {

    /** Whether {@code POST /api/v1/connectors/kernel-log/{node}} takes lines. */
    @WithDefault("true")
    boolean enabled();

    /** A post of more lines is refused whole (an agent batches far fewer). */
    @WithDefault("10000")
    int maxLines();
}
