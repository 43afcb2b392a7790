package io.lifeline.demo.runtime;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Optional;

/** Settings of the built-in demo fleet ({@code lifeline.demo.*}); documented in docs/demo.md. */
@ConfigMapping(prefix = "lifeline.demo")
public interface DemoConfig {

    /** Whether the demo fleet runs; when absent, the application decides (for example: on when nothing else feeds it). */
    Optional<Boolean> enabled();

    /** A scenario JSON file to use instead of the built-in one ({@code classpath:demo/scenario.json}). */
    Optional<String> scenarioFile();

    /** Simulated seconds per real second: 1 is real time, 60 runs an hour a minute. */
    @WithDefault("1.0")
    double speed();

    /** How often the simulation advances and hands its new events to ingest, in milliseconds. */
    @WithDefault("250")
    long tickMillis();
}
