package io.lifeline.security;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * Security counters. Authentication failures are counted, never logged one by one: a log line per failure would let
 * anyone fill the log, and would tempt someone to print the token.
 */
@ApplicationScoped
public class SecurityMetrics {

    /** Why a request was not authenticated. */
    public enum AuthFailure {
        /** No {@code Authorization} header. */
        MISSING,
        /** Not a bearer token, or not shaped like a Lifeline token. */
        MALFORMED,
        /** Unknown id or wrong secret. */
        INVALID,
        /** Revoked by an admin. */
        REVOKED,
        /** Past its expiry. */
        EXPIRED,
        /** The store could not be asked and the token was not known yet. */
        UNAVAILABLE
    }

    private final Map<AuthFailure, Counter> failures = new EnumMap<>(AuthFailure.class);
    private final Map<AccessRules.RateClass, Counter> limited = new EnumMap<>(AccessRules.RateClass.class);
    private final Counter denied;

    SecurityMetrics(MeterRegistry registry) {
        for (AuthFailure f : AuthFailure.values()) {
            failures.put(
                    f,
                    Counter.builder("lifeline_security_auth_failures")
                            .tag("reason", f.name().toLowerCase(Locale.ROOT))
                            .description(
                                    "Requests refused with 401 (or 503 when a token could not be checked), by reason")
                            .register(registry));
        }
        for (AccessRules.RateClass c : AccessRules.RateClass.values()) {
            limited.put(
                    c,
                    Counter.builder("lifeline_security_rate_limited")
                            .tag("kind", c.name().toLowerCase(Locale.ROOT))
                            .description("Requests refused with 429 by the per-token rate limit")
                            .register(registry));
        }
        denied = Counter.builder("lifeline_security_denied")
                .description("Authenticated requests refused with 403")
                .register(registry);
    }

    public void authFailure(AuthFailure reason) {
        failures.get(reason).increment();
    }

    public void denied() {
        denied.increment();
    }

    public void rateLimited(AccessRules.RateClass kind) {
        limited.get(kind).increment();
    }
}
