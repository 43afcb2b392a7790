package io.lifeline.security;

import io.lifeline.security.identity.Caller;
import io.quarkus.oidc.AccessTokenCredential;
import io.quarkus.oidc.TenantIdentityProvider;
import io.quarkus.runtime.Startup;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.jboss.logging.Logger;

/**
 * Turns what the OIDC identity provider says about someone into a Lifeline {@link Caller}: a bearer JWT presented
 * to the API (verified by quarkus-oidc against the provider's keys, no round trip per request once the keys are
 * known), or the identity of a person who signed in through the browser. Their groups give the role
 * ({@link GroupRoles}); someone in no mapped group is authenticated but may do nothing.
 */
// Started eagerly: a mistake in the group mapping must stop the server, not surface at the first sign-in.
@Startup
@ApplicationScoped
public class OidcAuthenticator {

    private static final Logger LOG = Logger.getLogger(OidcAuthenticator.class);

    /** The outcome: a caller, or the HTTP status (401, 403) and the reason to refuse. */
    public record Outcome(Caller caller, int status, String detail) {

        static Outcome ok(Caller caller) {
            return new Outcome(caller, 200, null);
        }

        static Outcome refused(int status, String detail) {
            return new Outcome(null, status, detail);
        }

        public boolean ok() {
            return caller != null;
        }
    }

    private static final Pattern ALG = Pattern.compile("\"alg\"\\s*:\\s*\"([^\"]*)\"");

    private final boolean enabled;
    private final GroupRoles roles;
    private final Instance<TenantIdentityProvider> providers;
    private final Set<String> audiences;
    private final String issuer;
    private final Set<String> algorithms;
    private final Duration clockSkew;
    private final Clock clock;

    OidcAuthenticator(
            SecurityConfig config,
            Instance<TenantIdentityProvider> providers,
            Clock clock,
            @ConfigProperty(name = "quarkus.oidc.client-id") Optional<String> clientId,
            @ConfigProperty(name = "quarkus.oidc.auth-server-url") Optional<String> authServerUrl) {
        this.enabled = config.enabled() && config.oidc().enabled();
        this.roles = GroupRoles.parse(config.oidc().groups());
        this.providers = providers;
        this.clock = clock;
        SecurityConfig.Oidc oidc = config.oidc();
        this.audiences = !oidc.audienceRequired()
                ? null
                : Set.copyOf(oidc.audience().orElse(clientId.map(List::of).orElse(List.of())));
        this.issuer = oidc.issuer()
                .or(() -> authServerUrl)
                .map(OidcAuthenticator::withoutTrailingSlash)
                .orElse(null);
        this.algorithms = Set.copyOf(oidc.algorithms());
        this.clockSkew = oidc.clockSkew();
        if (enabled && audiences != null && audiences.isEmpty()) {
            throw new IllegalStateException("lifeline.security.oidc.audience: no audience to require (set it, or "
                    + "quarkus.oidc.client-id; or lifeline.security.oidc.audience-required=false)");
        }
        if (enabled && roles.isEmpty()) {
            LOG.warn("OIDC sign-in is on but lifeline.security.oidc.groups maps no group to a role: every person "
                    + "signing in will be refused (403)");
        }
    }

    /** Whether sign-in through the identity provider is configured and on. */
    public boolean enabled() {
        return enabled;
    }

    /** Verifies a bearer JWT; completes with a refusal, never with a failure. */
    public Uni<Outcome> verifyBearer(String jwt) {
        if (!enabled) {
            return Uni.createFrom()
                    .item(Outcome.refused(
                            401,
                            "the Authorization header does not carry a Lifeline "
                                    + "token (Bearer llt_<id>_<secret>)"));
        }
        return providers
                .get()
                .authenticate(new AccessTokenCredential(jwt))
                .map(identity -> {
                    String refused = bearerRefusal(identity);
                    if (refused != null) {
                        LOG.debugf("Bearer JWT refused: %s", refused);
                        return Outcome.refused(401, "the identity provider's token is not accepted: " + refused);
                    }
                    return fromIdentity(identity);
                })
                .onFailure()
                .recoverWithItem(e -> {
                    LOG.debugf("Bearer JWT refused: %s", e.toString());
                    return Outcome.refused(
                            401,
                            "the identity provider's token is not valid (expired, not signed by "
                                    + "the configured provider, or meant for another audience)");
                });
    }

    /**
     * What quarkus-oidc does not pin for a bearer JWT: its audience, issuer, signature algorithm and times within the
     * clock skew. Returns why it is refused, or {@code null}.
     */
    String bearerRefusal(SecurityIdentity identity) {
        if (identity == null || !(identity.getPrincipal() instanceof JsonWebToken jwt)) {
            return "not a JWT";
        }
        if (audiences != null) {
            Set<String> aud = jwt.getAudience();
            if (aud == null || aud.stream().noneMatch(audiences::contains)) {
                return "its audience " + (aud == null ? "(none)" : aud) + " is not Lifeline's "
                        + new TreeSet<>(audiences);
            }
        }
        if (issuer != null
                && (jwt.getIssuer() == null
                        || !withoutTrailingSlash(jwt.getIssuer()).equals(issuer))) {
            return "its issuer is not " + issuer;
        }
        String alg = algorithm(jwt.getRawToken());
        if (alg == null || !algorithms.contains(alg)) {
            return "its signature algorithm " + alg + " is not one of " + new TreeSet<>(algorithms);
        }
        long latest = clock.instant().plus(clockSkew).getEpochSecond();
        Long nbf = jwt.getClaim("nbf") instanceof Number n ? n.longValue() : null;
        if (jwt.getIssuedAtTime() > latest || (nbf != null && nbf > latest)) {
            return "it is dated in the future (beyond the allowed clock skew of " + clockSkew.toSeconds() + " s)";
        }
        if (jwt.getExpirationTime() <= 0) {
            return "it has no expiry";
        }
        return null;
    }

    /** The {@code alg} of a compact JWS's header, or {@code null}. */
    static String algorithm(String raw) {
        if (raw == null || raw.indexOf('.') < 0) {
            return null;
        }
        try {
            String header = new String(
                    Base64.getUrlDecoder().decode(raw.substring(0, raw.indexOf('.'))), StandardCharsets.UTF_8);
            java.util.regex.Matcher m = ALG.matcher(header);
            return m.find() ? m.group(1) : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static String withoutTrailingSlash(String s) {
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }

    /** The caller for an identity the provider vouched for (a browser sign-in, or a verified bearer JWT). */
    public Outcome fromIdentity(SecurityIdentity identity) {
        if (identity == null || identity.isAnonymous()) {
            return Outcome.refused(401, "not signed in at the identity provider");
        }
        Principal p = identity.getPrincipal();
        String subject = p instanceof JsonWebToken jwt && jwt.getSubject() != null ? jwt.getSubject() : p.getName();
        String name = p.getName() == null || p.getName().isBlank() ? subject : p.getName();
        Set<String> groups = new TreeSet<>(identity.getRoles());
        return roles.grant(groups)
                .map(g -> Outcome.ok(Caller.ofIdentityProvider(subject, name, g.role(), g.namespaces())))
                .orElseGet(() -> Outcome.refused(
                        403,
                        "signed in as " + name + ", but none of your identity provider "
                                + "groups is given a Lifeline role (lifeline.security.oidc.groups); ask an admin"));
    }
}
