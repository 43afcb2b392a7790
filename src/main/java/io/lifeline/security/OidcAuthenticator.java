package io.lifeline.security;

import io.quarkus.oidc.AccessTokenCredential;
import io.quarkus.oidc.TenantIdentityProvider;
import io.quarkus.runtime.Startup;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.security.Principal;
import java.util.Set;
import java.util.TreeSet;
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

    private final boolean enabled;
    private final GroupRoles roles;
    private final Instance<TenantIdentityProvider> providers;

    OidcAuthenticator(SecurityConfig config, Instance<TenantIdentityProvider> providers) {
        this.enabled = config.enabled() && config.oidc().enabled();
        this.roles = GroupRoles.parse(config.oidc().groups());
        this.providers = providers;
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
            return Uni.createFrom().item(Outcome.refused(401, "the Authorization header does not carry a Lifeline "
                    + "token (Bearer llt_<id>_<secret>)"));
        }
        return providers.get().authenticate(new AccessTokenCredential(jwt))
                .map(this::fromIdentity)
                .onFailure().recoverWithItem(e -> {
                    LOG.debugf("Bearer JWT refused: %s", e.toString());
                    return Outcome.refused(401, "the identity provider's token is not valid (expired, not signed by "
                            + "the configured provider, or meant for another audience)");
                });
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
                .orElseGet(() -> Outcome.refused(403, "signed in as " + name + ", but none of your identity provider "
                        + "groups is given a Lifeline role (lifeline.security.oidc.groups); ask an admin"));
    }
}
