package io.lifeline.connector.inbound.kube.admission;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/**
 * The checkpoint-gated eviction webhook ({@code lifeline.eviction-gate.*}). Documented in docs/connectors.md,
 * "Checkpoint-gated evictions", and docs/configuration.md.
 */
@ConfigMapping(prefix = "lifeline.eviction-gate")
public interface EvictionGateConfig {

    /** Whether {@code POST /admission/v1/evictions} gates evictions; off, it allows every eviction at once. */
    @WithDefault("false")
    boolean enabled();

    /** A job whose newest checkpoint is older than this has its pods' evictions held until it saves one. */
    @WithDefault("15m")
    Duration maxCheckpointAge();

    /** The longest an eviction is held: after it the eviction is allowed, saved or not. */
    @WithDefault("10m")
    Duration holdDeadline();

    /** The longest the webhook waits for the model's answer before it allows the eviction (fails open). */
    @WithDefault("2s")
    Duration readTimeout();

    /** The webhook's own HTTPS listener, apart from the API's port ({@link EvictionWebhookListener}). */
    Listener listener();

    /**
     * {@code lifeline.eviction-gate.listener.*}: the port the API server calls, with TLS and (by default) its client
     * certificate required, a small body limit, a read timeout, a connection cap and a rate limit. It runs while the
     * gate is enabled.
     */
    interface Listener {
        /** The HTTPS port ({@code 0}: any free one, for tests). */
        @WithDefault("8443")
        int port();

        /** The address it binds. */
        @WithDefault("0.0.0.0")
        String host();

        /** The server certificate (PEM, chain first), e.g. cert-manager's {@code tls.crt}. */
        Optional<String> certificateFile();

        /** The server certificate's private key (PEM). */
        Optional<String> keyFile();

        /**
         * The CA (PEM) that issued the client certificate the API server presents to webhooks; a connection without a
         * certificate from it is refused in the TLS handshake.
         */
        Optional<String> clientCaFile();

        /**
         * {@code required}: only clients with a certificate from {@code client-ca-file} (the API server); {@code none}:
         * any client that reaches the port (for API servers that cannot present one; then the NetworkPolicy is the
         * only fence).
         */
        @WithDefault("required")
        ClientAuth clientAuth();

        /** The largest AdmissionReview accepted (an eviction's is about 2 KB); larger ones are refused with 413. */
        @WithDefault("64K")
        MemorySize maxBodySize();

        /** A request's headers and body must arrive within this, or the connection is closed (408). */
        @WithDefault("5s")
        Duration requestTimeout();

        /** Open connections at most; more are closed at once. */
        @WithDefault("64")
        int maxConnections();

        /** Reviews decided per second, sustained; more are answered 429 without being read. */
        @WithDefault("50")
        double ratePerSecond();

        /** Reviews decided at once after a quiet period. */
        @WithDefault("100")
        int rateBurst();

        /** Threads that decide reviews (they may ask the API server and the database); the API's are never used. */
        @WithDefault("4")
        int workers();

        /** How often the certificate files are read again (cert-manager renews them in place). */
        @WithDefault("5m")
        Duration certificateReloadPeriod();
    }

    /** Whether the listener requires a client certificate. */
    enum ClientAuth {
        REQUIRED,
        NONE
    }
}
