package io.lifeline.ui;

import io.lifeline.security.FailedSignIns;
import io.lifeline.security.OidcAuthenticator;
import io.lifeline.security.SecurityConfig;
import io.lifeline.security.TokenFormat;
import io.lifeline.security.TokenService;
import io.lifeline.security.identity.Caller;
import io.lifeline.security.identity.Role;
import io.lifeline.security.store.SsoTickets;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/**
 * Signs a person in with an API token ({@code llt_...}): the token is verified like an API request's bearer token,
 * and its caller is what the dashboard then acts as. Failed sign-ins count against the client's address like failed
 * API tokens ({@link FailedSignIns}): while the address is throttled, a token not known to exist is refused before
 * the store is asked, and a real token still signs in.
 */
@ApplicationScoped
public class LoginPresenter {

    /** The outcome of a sign-in: a caller, or a message saying why not. */
    public record Result(Caller caller, String error, SessionGuard.Credential credential, int status) {

        Result(Caller caller, String error) {
            this(caller, error, null, caller != null ? 200 : 401);
        }

        static Result refused(int status, String error) {
            return new Result(null, error, null, status);
        }

        public boolean ok() {
            return caller != null;
        }
    }

    private final TokenService tokens;
    private final SecurityConfig config;
    private final OidcAuthenticator oidc;
    private final SsoTickets tickets;
    private final FailedSignIns failures;

    LoginPresenter(
            TokenService tokens,
            SecurityConfig config,
            OidcAuthenticator oidc,
            SsoTickets tickets,
            FailedSignIns failures) {
        this.tokens = tokens;
        this.failures = failures;
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

    /**
     * Checks a pasted token sent from {@code address}. Blocks (the store may be asked): a worker thread, never the
     * event loop.
     */
    public Result signIn(String token, String address) {
        if (!config.enabled()) {
            return new Result(Caller.unrestricted("local"), null);
        }
        String t = token == null ? "" : token.trim();
        if (t.startsWith("Bearer ")) {
            t = t.substring("Bearer ".length()).trim();
        }
        TokenFormat.Parsed parsed = TokenFormat.parse(t);
        if (parsed == null) {
            return Result.refused(
                    400, "That is not a Lifeline token: they look like llt_ followed by an id and a secret.");
        }
        long wait = failures.throttled(address);
        if (wait > 0 && !tokens.knownToExist(parsed) && !(tokens.reloadKnownIds() && tokens.knownToExist(parsed))) {
            return Result.refused(
                    429,
                    "Too many sign-ins with tokens that are not valid came from your address; try " + "again in "
                            + io.lifeline.security.TokenBuckets.retryAfterSeconds(wait) + " s.");
        }
        return check(parsed, address);
    }

    private Result check(TokenFormat.Parsed parsed, String address) {
        TokenService.Verification v = tokens.verify(parsed);
        if (!v.ok()) {
            if (v.failure() == io.lifeline.security.SecurityMetrics.AuthFailure.INVALID) {
                failures.failed(address);
            }
            if (v.failure() == io.lifeline.security.SecurityMetrics.AuthFailure.UNAVAILABLE) {
                return Result.refused(
                        503,
                        "Sign-in is unavailable right now: the token store cannot be reached; " + "try again shortly.");
            }
            String why = v.failure() == null ? "refused" : v.failure().name().toLowerCase(java.util.Locale.ROOT);
            return new Result(null, "Token refused (" + why.replace('_', ' ') + ").");
        }
        if (!v.caller().has(Role.VIEWER)) {
            return Result.refused(
                    403,
                    "This token may only send events; the dashboard needs a viewer, operator or " + "admin token.");
        }
        tokens.used(v.caller());
        return new Result(v.caller(), null, new SessionGuard.Token(parsed), 200);
    }
}
