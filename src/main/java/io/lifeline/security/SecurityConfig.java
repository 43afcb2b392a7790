package io.lifeline.security;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** API security settings ({@code lifeline.security.*}); documented in docs/api.md. */
@ConfigMapping(prefix = "lifeline.security")
public interface SecurityConfig {

    /**
     * Authentication and authorisation of the API. {@code false} makes every request an unrestricted admin: an
     * escape hatch for local experiments only, never for a cluster.
     */
    @WithDefault("true")
    boolean enabled();

    /** Where the first admin token is written (mode 600) when no admin token exists yet at start-up. */
    @WithDefault(".lifeline/admin-token")
    String bootstrapTokenFile();

    /**
     * Whether {@code /metrics} needs a viewer token (Prometheus sends one); on by default, as the series name every
     * job, namespace and node. The quick start (embedded database) turns it off unless configured, and says so in
     * its log.
     */
    @WithDefault("true")
    boolean metricsProtected();

    /** How often token last-use times are written to the store (read by {@link LastUsedRecorder}'s schedule). */
    @WithDefault("60s")
    Duration lastUsedFlushInterval();

    /** Verified tokens kept in memory. */
    TokenCache tokenCache();

    /** Per-token rate limits. */
    RateLimit rateLimit();

    /** Sign-in through an OpenID Connect identity provider, for people (browser) and automation (bearer JWTs). */
    Oidc oidc();

    /**
     * {@code lifeline.security.oidc.*}. The provider itself is configured with Quarkus' {@code quarkus.oidc.*}
     * (auth-server-url, client-id, credentials.secret); this says whether it is used and what its groups may do.
     */
    interface Oidc {
        /** Off unless configured: API tokens remain the only way in. */
        @WithDefault("false")
        boolean enabled();

        /**
         * Identity-provider group → Lifeline role, optionally limited to namespaces: {@code viewer},
         * {@code operator:team-a,team-b}, {@code admin}. A person in several groups gets the highest role; a
         * person in no mapped group is refused (403).
         */
        Map<String, String> groups();

        /**
         * The dashboard's address as people reach it ({@code https://lifeline.example.com}, with a path prefix if
         * any). The provider is sent {@code <external-url>/auth/sso} as the redirect URI whatever the request's
         * {@code Host} header says: a sign-in begun at any other address is first sent to this one. Unset, the
         * redirect URI follows the request (and the log warns at start-up).
         */
        Optional<String> externalUrl();

        /** What the sign-in button on the dashboard says. */
        @WithDefault("Sign in with SSO")
        String buttonLabel();

        /**
         * The audiences a bearer JWT must name (one of them) in its {@code aud} claim: a token the provider issued for
         * another application is refused (401). Default: {@code quarkus.oidc.client-id}.
         */
        Optional<List<String>> audience();

        /**
         * The issuer a bearer JWT's {@code iss} must be exactly (a trailing {@code /} aside). Default:
         * {@code quarkus.oidc.auth-server-url}, which OpenID Connect discovery makes the provider's issuer.
         */
        Optional<String> issuer();

        /** {@code false} accepts bearer JWTs whatever their audience (a provider that cannot set one). */
        @WithDefault("true")
        boolean audienceRequired();

        /** The only signature algorithms a bearer JWT may use. */
        @WithDefault("RS256,ES256")
        List<String> algorithms();

        /** The most a bearer JWT's issued-at and not-before times may lie ahead of this server's clock. */
        @WithDefault("30s")
        Duration clockSkew();
    }

    /** {@code lifeline.security.token-cache.*}. */
    interface TokenCache {
        /**
         * How long a token looked up in the store is trusted before the next lookup: the longest a revocation made
         * on another replica can take to apply (on this replica it applies at once).
         */
        @WithDefault("10s")
        Duration ttl();

        /** Most tokens (and unknown ids) remembered. */
        @WithDefault("10000")
        int maxEntries();

        /**
         * While the store cannot be reached, tokens verified within this window keep working (ingest keeps flowing
         * through a database outage); tokens never seen before are refused with 503.
         */
        @WithDefault("15m")
        Duration staleIfError();
    }

    /** {@code lifeline.security.rate-limit.*}: token buckets, one per token and kind of request. */
    interface RateLimit {
        /** Event ingest: {@code POST /api/v1/events} and {@code POST /api/v1/connectors/**}. */
        Ingest ingest();

        /** Action creation: {@code POST /api/v1/actions/**}. */
        Actions actions();

        /** Tokens that fail to verify (unknown id or wrong secret), per client address. */
        UnknownTokens unknownTokens();
    }

    /**
     * {@code lifeline.security.rate-limit.unknown-tokens.*}: every token that fails to verify (an unknown id, a wrong
     * secret) takes a permit from its client address's bucket; once it is empty, that address's tokens that are not
     * known from memory are refused (429) before the store is asked, so made-up tokens cannot become a flood of
     * queries. Tokens already verified (held in the token cache) are not affected.
     */
    interface UnknownTokens {
        /** Failed tokens allowed per second and client address, sustained. */
        @WithDefault("1")
        double perSecond();

        /** Failed tokens allowed at once after a quiet period. */
        @WithDefault("20")
        int burst();
    }

    /** {@code lifeline.security.rate-limit.ingest.*}: a batch carries up to 10,000 events, so requests are few. */
    interface Ingest {
        /** Requests allowed per second and token, sustained. */
        @WithDefault("100")
        double perSecond();

        /** Requests allowed at once after a quiet period. */
        @WithDefault("200")
        int burst();
    }

    /** {@code lifeline.security.rate-limit.actions.*}: actions drain nodes and stop jobs, so they are rarer. */
    interface Actions {
        /** Actions allowed per second and token, sustained. */
        @WithDefault("2")
        double perSecond();

        /** Actions allowed at once after a quiet period. */
        @WithDefault("20")
        int burst();
    }
}
