package io.lifeline.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Map;

/**
 * Automation policy defaults ({@code lifeline.policies.*}); documented in docs/configuration.md. A mode set through
 * the API ({@code PUT /api/v1/policies/{name}}) is stored and wins over these.
 */
@ConfigMapping(prefix = "lifeline.policies")
public interface PoliciesConfig {

    /** Mode of every policy not named in {@link #mode()}: {@code off}, {@code dry-run} or {@code on}. */
    @WithDefault("dry-run")
    String defaultMode();

    /** Mode per policy, by its name (for example {@code lifeline.policies.mode."notice-checkpoint-drain"=on}). */
    Map<String, String> mode();

    /** How often conditions that build up (stale checkpoints, restart loops, free capacity) are looked for. */
    @WithDefault("15s")
    Duration interval();

    /** How long a job must have trained (since it last started or restored) before a policy commands its trainers. */
    @WithDefault("60s")
    Duration startupGrace();

    /** A job whose trainers reported no progress for longer is not commanded by a policy (nobody may answer). */
    @WithDefault("2m")
    Duration trainerSilence();

    /** The pause after a policy's first failed action on a target; it doubles with each failure in a row. */
    @WithDefault("1m")
    Duration backoffInitial();

    /** The longest pause a policy backs off from a target for, however many of its actions failed. */
    @WithDefault("1h")
    Duration backoffMax();

    /** How a node drained for a GPU fault is validated before the back-to-service policy uncordons it. */
    BackToService backToService();

    /** The automation brake: how many nodes the policies may take out of service within a window. */
    Brake brake();

    /** Which jobs the stale-checkpoint policy acts on. */
    StaleCheckpoint staleCheckpoint();

    /** {@code lifeline.policies.stale-checkpoint.*}. */
    interface StaleCheckpoint {

        /**
         * Whether the policy acts only on jobs under a goodput objective whose budget is burning; by default it acts
         * on every job whose newest checkpoint is older than its freshness objective.
         */
        @WithDefault("false")
        boolean onlyWhenBurning();
    }

    /**
     * {@code lifeline.policies.brake.*}: once the policies would take more than {@link #poolShare()} of a pool (at
     * least {@link #poolMinNodes()} of its nodes) or more than {@link #fleetNodes()} nodes fleet-wide within
     * {@link #window()}, every further node-taking decision is held until a person resets the brake.
     */
    interface Brake {

        /** Whether the brake applies at all. */
        @WithDefault("true")
        boolean enabled();

        /** The sliding window the bounds count over. */
        @WithDefault("10m")
        Duration window();

        /** The share of a pool's live nodes the policies may take within the window. */
        @WithDefault("0.2")
        double poolShare();

        /** However small the pool, this many of its nodes may be taken within the window. */
        @WithDefault("2")
        int poolMinNodes();

        /** The most nodes the policies may take fleet-wide within the window. */
        @WithDefault("10")
        int fleetNodes();
    }

    /** {@code lifeline.policies.back-to-service.*}. */
    interface BackToService {

        /** {@code samples} (fresh healthy dcgm samples, no XID for the healthy window) or {@code health-check}. */
        @WithDefault("samples")
        String check();

        /** With {@code samples}: how long the node must go without a new XID. */
        @WithDefault("10m")
        Duration healthyWindow();

        /** With {@code samples}: how old each GPU's latest sample may be. */
        @WithDefault("2m")
        Duration sampleMaxAge();

        /**
         * Whether the removal of a GPU's DRA device taints (the driver lifting them once the device is fine) also
         * validates a drained node, besides {@link #check()}.
         */
        @WithDefault("false")
        boolean acceptTaintRemoval();
    }

    /** When a node's admission failures make it a suspect of the admission-failure-cordon policy. */
    AdmissionFailures admissionFailures();

    /** {@code lifeline.policies.admission-failures.*}. */
    interface AdmissionFailures {

        /** Pods rejected within the window that make a Ready node a suspect (1 to 32). */
        @WithDefault("5")
        int threshold();

        /** The sliding window they are counted over. */
        @WithDefault("10m")
        Duration window();
    }
}
