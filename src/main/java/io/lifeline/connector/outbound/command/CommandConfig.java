package io.lifeline.connector.outbound.command;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Trainer commands ({@code lifeline.commands.*}). Documented in docs/connectors.md, "Connectors out". */
@ConfigMapping(prefix = "lifeline.commands")
public interface CommandConfig {

    /** Kafka topic of the command CloudEvents (keyed by job); used when {@code lifeline.kafka.bootstrap-servers} is set. */
    @WithDefault("lifeline.commands")
    String topic();

    /**
     * How long one attempt to write a command to Kafka may take (waiting for metadata, then for the in-sync
     * replicas' acknowledgement) before it counts as failed; the action step tries again until its deadline.
     */
    @WithDefault("10s")
    Duration sendTimeout();

    /** Agents polling over HTTP. */
    Agent agent();

    /** {@code lifeline.commands.agent.*}. */
    interface Agent {
        /** Commands kept per job for agents; beyond it the oldest is dropped. */
        @WithDefault("64")
        int queueSize();

        /** Longest long-poll ({@code wait} is capped to it). */
        @WithDefault("60s")
        Duration maxWait();

        /** A command delivered but not acknowledged is delivered again after this. */
        @WithDefault("30s")
        Duration redeliverAfter();

        /** A command without a deadline is dropped when nobody acknowledged it for this long. */
        @WithDefault("1h")
        Duration retention();

        /** Long-polls waiting at once per job; one more answers the oldest with an empty array. */
        @WithDefault("16")
        int maxWaitersPerJob();

        /**
         * How long an agent's claim on its job's commands outlives its last poll's wait: within it another key is
         * refused; after it (the agent stopped polling: it crashed, or its node left) the next agent to poll claims
         * the job. Above the agents' longest pause between two polls (a poll answered, the next sent at once; a
         * backoff while Lifeline was unreachable).
         */
        @WithDefault("30s")
        Duration claimGrace();

        /**
         * How long a claim outlives its poll when that poll's connection closes before it is answered: its agent
         * exited, or torchrun restarted the workers and rank 0 (whose agent polls) may now be on another node, with
         * another key. Short, so the next rank 0 is not refused for {@link #claimGrace()}; an agent whose connection
         * merely dropped polls again within it and keeps its claim.
         */
        @WithDefault("5s")
        Duration claimGraceDisconnected();
    }
}
