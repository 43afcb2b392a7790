package io.lifeline.ui;

import com.vaadin.flow.component.UI;
import com.vaadin.flow.server.RequestHandler;
import com.vaadin.flow.server.ServiceInitEvent;
import com.vaadin.flow.server.VaadinRequest;
import com.vaadin.flow.server.VaadinResponse;
import com.vaadin.flow.server.VaadinSession;
import io.lifeline.security.TokenFormat;
import io.lifeline.security.TokenService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Ends a dashboard session when what it was signed in with stops being valid: the API token is revoked or expires,
 * or the identity provider's sign-in expires. The check runs on every request the browser sends (every click,
 * navigation and data load), and every page polls at {@code lifeline.ui.session-check-interval} (30 s) so that an
 * open page left alone is checked too. A session that fails the check loses its caller at once (the request that
 * found out already runs as nobody) and every open page of it is sent to the sign-in page, which says why.
 */
@ApplicationScoped
public class SessionGuard {

    private static final Logger LOG = Logger.getLogger(SessionGuard.class);

    /** What a session was signed in with, kept to check it again. */
    sealed interface Credential permits Token, Identity {}

    /** An API token (verified like an API request's bearer token, so a revocation counts at once). */
    record Token(TokenFormat.Parsed token) implements Credential {}

    /** A sign-in through the identity provider, valid until its ID token expires (null: no expiry known). */
    record Identity(Instant expires) implements Credential {}

    private final TokenService tokens;
    private final Clock clock;
    private final Duration interval;

    SessionGuard(
            TokenService tokens,
            Clock clock,
            @ConfigProperty(name = "lifeline.ui.session-check-interval", defaultValue = "30s") Duration interval) {
        this.tokens = tokens;
        this.clock = clock;
        this.interval = interval;
    }

    /** Every page polls at the check interval; every request of a session is checked. */
    void onServiceInit(@Observes ServiceInitEvent event) {
        int millis = (int) Math.max(1000, Math.min(Integer.MAX_VALUE, interval.toMillis()));
        event.getSource().addUIInitListener(e -> e.getUI().setPollInterval(millis));
        // A service-level handler: it runs before Vaadin's own (a session's handlers would run after the UIDL one).
        event.addRequestHandler(new Check());
    }

    /** Why the credential no longer holds ({@code revoked}, {@code expired}, ...), or null while it does. */
    String problem(Credential credential) {
        if (credential instanceof Token t) {
            TokenService.Verification v = tokens.verify(t.token());
            if (v.ok() || v.failure() == io.lifeline.security.SecurityMetrics.AuthFailure.UNAVAILABLE) {
                return null; // the token store is down: checked again with the next request
            }
            return v.failure() == null ? "refused" : v.failure().name().toLowerCase(java.util.Locale.ROOT);
        }
        if (credential instanceof Identity i
                && i.expires() != null
                && !clock.instant().isBefore(i.expires())) {
            return "expired";
        }
        return null;
    }

    /** Signs the session out and sends each of its open pages to the sign-in page. Holds the session's lock. */
    @SuppressWarnings("FutureReturnValueIgnored") // a failed UI command goes to the session's error handler
    static void end(VaadinSession session, String why) {
        UiSession.signOut(session);
        String to = "login?ended=" + java.net.URLEncoder.encode(why, java.nio.charset.StandardCharsets.UTF_8);
        for (UI ui : List.copyOf(session.getUIs())) {
            ui.access(() -> ui.getPage().setLocation(to));
        }
    }

    private final class Check implements RequestHandler {
        private static final long serialVersionUID = 1L;

        @Override
        public boolean handleRequest(VaadinSession session, VaadinRequest request, VaadinResponse response) {
            if (session == null) {
                return false;
            }
            Credential credential;
            session.lock();
            try {
                credential = UiSession.credential(session);
            } finally {
                session.unlock();
            }
            if (credential == null) {
                return false;
            }
            String why;
            try {
                why = problem(credential);
            } catch (RuntimeException e) {
                LOG.debugf("Dashboard session not re-checked: %s", e.getMessage());
                return false;
            }
            if (why != null) {
                session.lock();
                try {
                    if (UiSession.credential(session) == credential) {
                        LOG.infof(
                                "Dashboard session of %s ended: its sign-in is %s",
                                UiSession.caller(session).actor(), why);
                        end(session, why);
                    }
                } finally {
                    session.unlock();
                }
            }
            return false;
        }
    }
}
