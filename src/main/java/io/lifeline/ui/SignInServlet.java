package io.lifeline.ui;

import io.lifeline.security.DashboardSessions;
import io.lifeline.security.identity.Caller;
import io.lifeline.security.store.SsoTickets;
import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.jboss.logging.Logger;

/**
 * {@code /login} and {@code /logout}: the dashboard's way in and out, outside Vaadin so that nothing before a
 * successful sign-in makes a session. {@code GET /login} shows the page ({@link SignInPage}) and redeems a single
 * sign-on ticket; {@code POST /login} checks a token ({@link LoginPresenter}) and only then makes the session, a new
 * one (an earlier session of the browser is ended: no session fixation), on which the caller is kept.
 * {@code /logout} ends the session.
 */
@WebServlet(urlPatterns = {"/login", "/logout"})
public class SignInServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = Logger.getLogger(SignInServlet.class);

    @Inject
    transient LoginPresenter presenter;

    @Inject
    transient DashboardSessions sessions;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        if (req.getServletPath().endsWith("logout")) {
            signOut(req, resp);
            return;
        }
        Cookie ticket = cookie(req, SsoTickets.COOKIE);
        if (ticket != null) {
            forgetTicket(req, resp);
            var redeemed = presenter.redeemSignIn(ticket.getValue());
            if (redeemed.isPresent()) {
                signIn(
                        req,
                        resp,
                        redeemed.get().caller(),
                        new SessionGuard.Identity(redeemed.get().identityExpires()));
                return;
            }
            page(req, resp, 401, "That sign-in has expired or was already used; sign in again.");
            return;
        }
        HttpSession existing = req.getSession(false);
        if (existing != null && sessions.isSignedIn(existing.getId())) {
            resp.sendRedirect(root(req));
            return;
        }
        page(req, resp, 200, message(req));
    }

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        if (req.getServletPath().endsWith("logout")) {
            signOut(req, resp);
            return;
        }
        if (!sameOrigin(req)) {
            // A form on another site must not sign this browser in (as someone else).
            page(req, resp, 403, "Sign-in refused: the form was not sent from this page.");
            return;
        }
        LoginPresenter.Result r = presenter.signIn(req.getParameter("token"), req.getRemoteAddr());
        if (!r.ok()) {
            page(req, resp, r.status(), r.error());
            return;
        }
        signIn(req, resp, r.caller(), r.credential());
    }

    private void signIn(
            HttpServletRequest req, HttpServletResponse resp, Caller caller, SessionGuard.Credential credential)
            throws IOException {
        HttpSession earlier = req.getSession(false);
        if (earlier != null) {
            earlier.invalidate();
        }
        HttpSession session = req.getSession(true);
        UiSession.signIn(session, caller, credential);
        session.setMaxInactiveInterval(sessions.signedIn(session.getId()));
        LOG.debugf("Dashboard sign-in of %s", caller.actor());
        resp.setStatus(HttpServletResponse.SC_SEE_OTHER);
        resp.setHeader("Location", root(req));
    }

    private void signOut(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        HttpSession session = req.getSession(false);
        if (session != null) {
            sessions.signedOut(session.getId());
            session.invalidate();
        }
        resp.setStatus(HttpServletResponse.SC_SEE_OTHER);
        resp.setHeader("Location", root(req) + "login");
    }

    private void page(HttpServletRequest req, HttpServletResponse resp, int status, String error) throws IOException {
        Cookie theme = cookie(req, SignInPage.THEME_COOKIE);
        String html = SignInPage.render(new SignInPage.Model(
                error,
                presenter.ssoEnabled() ? presenter.ssoLabel() : null,
                theme != null && "dark".equals(theme.getValue())));
        resp.setStatus(status);
        resp.setContentType("text/html;charset=UTF-8");
        resp.setHeader("Cache-Control", "no-store");
        resp.getOutputStream().write(html.getBytes(StandardCharsets.UTF_8));
    }

    /** What the query says happened before: single sign-on refused, or the session ended. */
    private static String message(HttpServletRequest req) {
        if (req.getParameter("sso") != null) {
            return "Single sign-on did not give you access: your identity provider groups grant no Lifeline role. "
                    + "Ask an admin, or sign in with an API token.";
        }
        String ended = req.getParameter("ended");
        if (ended != null) {
            return "You were signed out: "
                    + ("revoked".equals(ended)
                            ? "your token was revoked"
                            : "expired".equals(ended) ? "your sign-in expired" : "your sign-in is no longer valid")
                    + ". Sign in again.";
        }
        return null;
    }

    /** Whether a POST came from a page of this server: its Origin (when the browser sends one) names this host. */
    static boolean sameOrigin(HttpServletRequest req) {
        String origin = req.getHeader("Origin");
        if (origin == null || origin.isBlank()) {
            return true;
        }
        String host = req.getHeader("Host");
        try {
            return host != null && host.equalsIgnoreCase(URI.create(origin).getRawAuthority());
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static String root(HttpServletRequest req) {
        String ctx = req.getContextPath();
        return (ctx == null || ctx.isEmpty() ? "" : ctx) + "/";
    }

    private static Cookie cookie(HttpServletRequest req, String name) {
        Cookie[] cookies = req.getCookies();
        if (cookies == null) {
            return null;
        }
        for (Cookie c : cookies) {
            if (name.equals(c.getName())) {
                return c;
            }
        }
        return null;
    }

    private static void forgetTicket(HttpServletRequest req, HttpServletResponse resp) {
        Cookie gone = new Cookie(SsoTickets.COOKIE, "");
        gone.setPath(root(req));
        gone.setMaxAge(0);
        gone.setHttpOnly(true);
        resp.addCookie(gone);
    }
}
