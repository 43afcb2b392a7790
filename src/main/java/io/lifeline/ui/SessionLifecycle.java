package io.lifeline.ui;

import io.lifeline.security.DashboardSessions;
import io.quarkus.arc.Arc;
import jakarta.servlet.annotation.WebListener;
import jakarta.servlet.http.HttpSessionEvent;
import jakarta.servlet.http.HttpSessionIdListener;
import jakarta.servlet.http.HttpSessionListener;

/**
 * Tells {@link DashboardSessions} about every HTTP session the servlet container makes, renames and ends, and gives
 * a new session the short anonymous lifetime until someone signs in on it ({@link SignInServlet}).
 */
@WebListener
public class SessionLifecycle implements HttpSessionListener, HttpSessionIdListener {

    private static DashboardSessions sessions() {
        return Arc.container().instance(DashboardSessions.class).get();
    }

    @Override
    public void sessionCreated(HttpSessionEvent se) {
        se.getSession()
                .setMaxInactiveInterval(sessions().created(se.getSession().getId()));
    }

    @Override
    public void sessionDestroyed(HttpSessionEvent se) {
        sessions().destroyed(se.getSession().getId());
    }

    @Override
    public void sessionIdChanged(HttpSessionEvent se, String oldSessionId) {
        sessions().renamed(oldSessionId, se.getSession().getId());
    }
}
