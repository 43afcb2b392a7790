package io.lifeline.api.security;

import io.lifeline.security.OidcAuthenticator;
import io.lifeline.security.store.SsoTickets;
import io.lifeline.web.ProblemMappers;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.net.URI;
import org.jboss.logging.Logger;

/**
 * {@code GET /auth/sso}: the browser's way in through the OIDC identity provider. Quarkus' OIDC code flow guards the
 * path (the person is sent to the provider and comes back signed in); this maps their groups to a role and hands the
 * result to the dashboard through a single-use ticket cookie, then sends them to the sign-in page, which redeems it.
 */
@Path("/auth/sso")
public class SsoResource {

    private static final Logger LOG = Logger.getLogger(SsoResource.class);

    @Inject
    OidcAuthenticator oidc;

    @Inject
    SsoTickets tickets;

    @Inject
    SecurityIdentity identity;

    @Context
    UriInfo uri;

    @GET
    public Response signIn() {
        if (!oidc.enabled()) {
            return ProblemMappers.problem(
                    404,
                    "not-found",
                    "Not found",
                    "single sign-on is not configured (lifeline.security.oidc.enabled=false)");
        }
        OidcAuthenticator.Outcome out = oidc.fromIdentity(identity);
        if (!out.ok()) {
            LOG.infof("Single sign-on refused: %s", out.detail());
            return Response.seeOther(URI.create(uri.getBaseUri().getPath() + "login?sso=refused"))
                    .build();
        }
        LOG.infof(
                "%s signed in through the identity provider as %s",
                out.caller().actor(), out.caller().role().wireName());
        NewCookie cookie = new NewCookie.Builder(SsoTickets.COOKIE)
                .value(tickets.issue(out.caller(), identityExpires()))
                .path(uri.getBaseUri().getPath())
                .maxAge(60)
                .httpOnly(true)
                .secure("https".equals(uri.getBaseUri().getScheme()))
                .sameSite(NewCookie.SameSite.LAX)
                .build();
        return Response.seeOther(URI.create(uri.getBaseUri().getPath() + "login"))
                .cookie(cookie)
                .build();
    }

    /** When the identity provider's sign-in (its ID token) expires; the dashboard session ends then. */
    private java.time.Instant identityExpires() {
        if (identity.getPrincipal() instanceof org.eclipse.microprofile.jwt.JsonWebToken jwt
                && jwt.getExpirationTime() > 0) {
            return java.time.Instant.ofEpochSecond(jwt.getExpirationTime());
        }
        return null;
    }

    /**
     * {@code GET /auth/sso/logout}: with single sign-on on, Quarkus' OIDC logout handles this path first (it ends the
     * session and sends the person to the provider's end-session endpoint, then back to the sign-in page); this
     * answers only when it did not, and sends them to the sign-in page.
     */
    @GET
    @Path("logout")
    public Response signedOut() {
        return Response.seeOther(URI.create(uri.getBaseUri().getPath() + "login"))
                .build();
    }
}
