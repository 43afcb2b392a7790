package io.lifeline.ui;

import io.lifeline.security.Caller;
import io.lifeline.security.OidcAuthenticator;
import io.lifeline.security.Role;
import io.lifeline.security.SecurityConfig;
import io.lifeline.security.SsoTickets;
import io.lifeline.security.TokenFormat;
import io.lifeline.security.TokenService;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Signs a person in with an API token ({@code llt_...}): the token is verified like an API request's bearer token
 * (off the UI thread: verification may ask the database), and its caller is what the dashboard then acts as.
 */
@ApplicationScoped
public class LoginPresenter {

    /** The outcome of a sign-in: a caller, or a message saying why not. */
    public record Result(Caller caller, String error, SessionGuard.Credential credential) {

        Result(Caller caller, String error) {
            this(caller, error, null);
        }

        public boolean ok() {
            return caller != null;
        }
    }

    private final TokenService tokens;
    private final SecurityConfig config;
    private final OidcAuthenticator oidc;
    private final SsoTickets tickets;

    LoginPresenter(TokenService tokens, SecurityConfig config, OidcAuthenticator oidc, SsoTickets tickets) {
        this.tokens = tokens;
        this.config = config;
        this.oidc = oidc;
        this.tickets = tickets;
    }

    /** Whether people may sign in through the identity provider (a button then leads to {@code auth/sso}). */
    public boolean ssoEnabled() {
        return oidc.enabled();
    }

    /** The sign-in button's label. */
    public String ssoLabel() {
        return config.oidc().buttonLabel();
    }

    /** The caller a single sign-on ticket was issued for, once; nothing for a used, unknown or expired ticket. */
    public Optional<Caller> redeem(String ticket) {
        Optional<Caller> caller = ssoEnabled() ? tickets.redeem(ticket) : Optional.empty();
        return caller.filter(c -> c.has(Role.VIEWER));
    }

    /** A single sign-on ticket's caller, once, with when its identity provider sign-in expires. */
    Optional<SsoTickets.Redeemed> redeemSignIn(String ticket) {
        Optional<SsoTickets.Redeemed> r = ssoEnabled() ? tickets.redeemSignIn(ticket) : Optional.empty();
        return r.filter(x -> x.caller().has(Role.VIEWER));
    }

    /** Checks a pasted token; completes on a worker thread. */
    public CompletableFuture<Result> signIn(String token) {
        if (!config.enabled()) {
            return CompletableFuture.completedFuture(new Result(Caller.unrestricted("local"), null));
        }
        String t = token == null ? "" : token.trim();
        if (t.startsWith("Bearer ")) {
            t = t.substring("Bearer ".length()).trim();
        }
        TokenFormat.Parsed parsed = TokenFormat.parse(t);
        if (parsed == null) {
            return CompletableFuture.completedFuture(new Result(null,
                    "That is not a Lifeline token: they look like llt_ followed by an id and a secret."));
        }
        return CompletableFuture.supplyAsync(() -> check(parsed));
    }

    private Result check(TokenFormat.Parsed parsed) {
        TokenService.Verification v = tokens.verify(parsed);
        if (!v.ok()) {
            String why = v.failure() == null ? "refused" : v.failure().name().toLowerCase(java.util.Locale.ROOT);
            return new Result(null, "Token refused (" + why.replace('_', ' ') + ").");
        }
        if (!v.caller().has(Role.VIEWER)) {
            return new Result(null, "This token may only send events; the dashboard needs a viewer, operator or admin token.");
        }
        tokens.used(v.caller());
        return new Result(v.caller(), null, new SessionGuard.Token(parsed));
    }
}
