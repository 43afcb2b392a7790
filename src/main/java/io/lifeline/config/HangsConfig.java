package io.lifeline.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Map;

/** How hung jobs are detected ({@code lifeline.hangs.*}); see docs/hangs.md and docs/configuration.md. */
@ConfigMapping(prefix = "lifeline.hangs")
public interface HangsConfig {

    /** Whether Lifeline looks for hung jobs at all. */
    @WithDefault("true")
    boolean enabled();

    /** How often the jobs are judged (on the leading replica). */
    @WithDefault("5s")
    Duration interval();

    /** The shortest training threshold. */
    @WithDefault("30s")
    Duration floor();

    /** The longest threshold of any kind. */
    @WithDefault("30m")
    Duration ceiling();

    /** How many of the job's slow steps (99th percentile of its recent slowest steps) make its threshold. */
    @WithDefault("4")
    double stepMultiple();

    /** The threshold of a process before its first step, or restoring a checkpoint. */
    @WithDefault("10m")
    Duration startup();

    /** How many of the job's slowest recent saves a save may take. */
    @WithDefault("4")
    double saveMultiple();

    /** The shortest save threshold, and the one before the job's first measured save. */
    @WithDefault("2m")
    Duration saveFloor();

    /** The threshold of a declared phase without its own entry in {@link #phases()}. */
    @WithDefault("30m")
    Duration phaseDefault();

    /** Thresholds of declared phases by name ({@code lifeline.hangs.phases.evaluation=1h}). */
    Map<String, Duration> phases();

    /** A rank whose last heartbeat is older is silent (not judged); above the agents' heartbeat interval. */
    @WithDefault("35s")
    Duration liveness();
}
