package io.lifeline.security;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The dashboard's HTTP sessions and which of them are signed in. A session is made only by a successful sign-in
 * (the sign-in page itself keeps none), so an anonymous request never costs one: the security gate lets a request
 * reach the dashboard only with the cookie of a signed-in session and answers every other one without a session
 * ({@code io.lifeline.web.SecurityGate}). A session that stops being signed in (signed out, its token revoked) lives
 * {@code lifeline.ui.anonymous-session-timeout} more at most; past {@code lifeline.ui.max-anonymous-sessions}
 * of those, a new one is given a second. Counted in {@code lifeline_ui_sessions{state}}.
 */
@ApplicationScoped
public class DashboardSessions {

    private final Map<String, Boolean> sessions = new ConcurrentHashMap<>();
    private final Duration signedInTimeout;
    private final Duration anonymousTimeout;
    private final int maxAnonymous;

    DashboardSessions(
            MeterRegistry registry,
            @ConfigProperty(name = "lifeline.ui.session-timeout", defaultValue = "30m") Duration signedIn,
            @ConfigProperty(name = "lifeline.ui.anonymous-session-timeout", defaultValue = "60s") Duration anonymous,
            @ConfigProperty(name = "lifeline.ui.max-anonymous-sessions", defaultValue = "1000") int maxAnonymous) {
        this.signedInTimeout = signedIn;
        this.anonymousTimeout = anonymous;
        this.maxAnonymous = maxAnonymous;
        Gauge.builder("lifeline_ui_sessions", this, DashboardSessions::signedIn)
                .description("Open dashboard sessions, by whether someone is signed in")
                .tag("state", "signed_in")
                .register(registry);
        Gauge.builder("lifeline_ui_sessions", this, DashboardSessions::anonymous)
                .description("Open dashboard sessions, by whether someone is signed in")
                .tag("state", "anonymous")
                .register(registry);
    }

    /**
     * A session was made; returns how long it may stay idle, in seconds: the anonymous lifetime, or one second when
     * there are too many anonymous sessions already.
     */
    public int created(String id) {
        sessions.putIfAbsent(id, Boolean.FALSE);
        return anonymous() > maxAnonymous ? 1 : seconds(anonymousTimeout);
    }

    /** Someone signed in on the session; returns its idle lifetime in seconds. */
    public int signedIn(String id) {
        sessions.put(id, Boolean.TRUE);
        return seconds(signedInTimeout);
    }

    /** The session is signed out (it stays until it times out); returns its new idle lifetime in seconds. */
    public int signedOut(String id) {
        sessions.computeIfPresent(id, (k, v) -> Boolean.FALSE);
        return seconds(anonymousTimeout);
    }

    public void destroyed(String id) {
        sessions.remove(id);
    }

    public void renamed(String oldId, String newId) {
        Boolean state = sessions.remove(oldId);
        if (state != null) {
            sessions.put(newId, state);
        }
    }

    /** Whether the session with this id (a cookie's value) exists and someone is signed in on it. */
    public boolean isSignedIn(String id) {
        return id != null && Boolean.TRUE.equals(sessions.get(id));
    }

    public long signedIn() {
        return sessions.values().stream().filter(Boolean::booleanValue).count();
    }

    public long anonymous() {
        return sessions.values().stream().filter(v -> !v).count();
    }

    /** Every open session. */
    public int open() {
        return sessions.size();
    }

    private static int seconds(Duration d) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, d.toSeconds()));
    }
}
