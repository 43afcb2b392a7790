package io.lifeline.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Goodput objectives ({@code lifeline.objectives.*}); documented in docs/objectives.md. None by default. Objectives
 * set through the API ({@code PUT /api/v1/objectives}) are stored and replace these as a whole.
 */
@ConfigMapping(prefix = "lifeline.objectives")
public interface ObjectivesConfig {

    /** How often every job is sampled into the objectives' series. */
    @WithName("sample-interval")
    @WithDefault("1m")
    Duration sampleInterval();

    /** How often the objectives' windows are saved to the database (and at shutdown), so that a restart keeps them. */
    @WithName("save-interval")
    @WithDefault("5m")
    Duration saveInterval();

    /** Burn rate at which the 1 h / 5 min pair calls a fast burn. */
    @WithName("fast-burn")
    @WithDefault("14.4")
    double fastBurn();

    /** Burn rate at which the 6 h / 30 min pair calls a slow burn. */
    @WithName("slow-burn")
    @WithDefault("6")
    double slowBurn();

    /**
     * The objectives by name, for example {@code lifeline.objectives.objective."research-week".scope=namespace:research},
     * {@code ...ettr-target=0.95}, {@code ...window=7d}.
     */
    Map<String, Entry> objective();

    /** One objective. */
    interface Entry {

        /** {@code job:<ns>/<name>}, {@code namespace:<ns>}, {@code owner:<owner>} or {@code pool:<pool>}. */
        String scope();

        /** ETTR to keep, a ratio in (0, 1). */
        @WithName("ettr-target")
        double ettrTarget();

        /** Rolling window, 1h to 30d; {@code 7d} by default. */
        @WithDefault("7d")
        Duration window();

        /** GPU-hours the scope may lose to interruptions per window. */
        @WithName("lost-gpu-hours-limit")
        OptionalDouble lostGpuHoursLimit();

        /** The same loss priced ({@code lifeline.spot.*} prices). */
        @WithName("money-limit")
        OptionalDouble moneyLimit();

        /** What the objective is for, shown beside it. */
        Optional<String> description();
    }
}
