package io.lifeline.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Action execution settings ({@code lifeline.actions.*}); documented in docs/configuration.md. */
@ConfigMapping(prefix = "lifeline.actions")
public interface ActionsConfig {

    /**
     * Whether this replica takes part in executing actions. With several replicas, the one holding the database's
     * leader lock executes them; the others only accept and show them.
     */
    @WithDefault("true")
    boolean executorEnabled();

    /** How often a replica tries to become the leader, and the leader looks for actions submitted elsewhere. */
    @WithDefault("2s")
    Duration leaderCheckInterval();

    /**
     * How long a leader's lease lasts without renewal (renewed every leader-check-interval): a leader paused or cut
     * off longer than this is replaced, and its writes are fenced out.
     */
    @WithDefault("10s")
    Duration leaderLease();

    /** Actions executed at the same time; more wait their turn. */
    @WithDefault("16")
    int maxConcurrent();

    /** How often a waiting step (checkpoint, rendezvous) looks at the model. */
    @WithDefault("250ms")
    Duration pollInterval();

    /** Pause between eviction attempts refused by a PodDisruptionBudget. */
    @WithDefault("1s")
    Duration evictRetryInterval();

    /**
     * Pause after a trainer command's first failed send (a channel down); doubled after each further failure up to
     * {@link #commandRetryMaxInterval()}, and never past the step's deadline.
     */
    @WithDefault("500ms")
    Duration commandRetryInterval();

    /** Longest pause between two attempts to send a trainer command. */
    @WithDefault("10s")
    Duration commandRetryMaxInterval();
}
