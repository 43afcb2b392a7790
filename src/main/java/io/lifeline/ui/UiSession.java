package io.lifeline.ui;

import com.vaadin.flow.server.VaadinSession;
import com.vaadin.flow.server.WrappedSession;
import io.lifeline.security.Scope;
import io.lifeline.security.identity.Caller;
import io.lifeline.security.identity.Role;
import java.time.ZoneId;

/**
 * What the dashboard keeps in the session: the signed-in caller (verified from an API token or single sign-on by
 * {@link SignInServlet}, which made the HTTP session), what it signed in with (which {@link SessionGuard} checks
 * again, ending the session when it stops being valid) and the viewer's time zone and theme. The caller and
 * credential are attributes of the HTTP session, so that the sign-in can set them before Vaadin has a session of its
 * own. Every view asks here before showing data or action buttons.
 */
public final class UiSession {

    private static final String CALLER = "lifeline.caller";
    private static final String CREDENTIAL = "lifeline.credential";
    private static final String ZONE = "lifeline.zone";
    private static final String DARK = "lifeline.dark";

    private UiSession() {}

    /** The signed-in caller, or the anonymous one. */
    public static Caller caller() {
        VaadinSession s = VaadinSession.getCurrent();
        return s == null ? Caller.anonymous() : caller(s);
    }

    /** The caller of a session; the anonymous one when nobody is signed in. */
    static Caller caller(VaadinSession s) {
        Object c = attribute(s, CALLER);
        return c instanceof Caller caller ? caller : Caller.anonymous();
    }

    private static Object attribute(VaadinSession s, String name) {
        WrappedSession w = s.getSession();
        try {
            return w == null ? null : w.getAttribute(name);
        } catch (IllegalStateException invalidated) {
            return null;
        }
    }

    /** What the signed-in caller may see: the {@link Scope} every view and gateway read is limited to. */
    public static Scope scope() {
        return Scope.of(caller());
    }

    /** Signs in without a credential to check again (tests, and Lifeline with security off). */
    public static void signIn(Caller caller) {
        signIn(caller, null);
    }

    /** Signs in with what the caller was verified from, which is then checked again for as long as the session lasts. */
    static void signIn(Caller caller, SessionGuard.Credential credential) {
        WrappedSession s = VaadinSession.getCurrent().getSession();
        s.setAttribute(CALLER, caller);
        s.setAttribute(CREDENTIAL, credential);
    }

    /** Signs in on an HTTP session the sign-in page has just made. */
    static void signIn(jakarta.servlet.http.HttpSession s, Caller caller, SessionGuard.Credential credential) {
        s.setAttribute(CALLER, caller);
        s.setAttribute(CREDENTIAL, credential);
    }

    public static void signOut() {
        signOut(VaadinSession.getCurrent());
    }

    /**
     * Signs the session out: its caller and credential are forgotten, the security gate stops letting its requests
     * through, and it lives the short anonymous lifetime at most.
     */
    static void signOut(VaadinSession s) {
        WrappedSession w = s.getSession();
        if (w == null) {
            return;
        }
        try {
            w.setAttribute(CALLER, null);
            w.setAttribute(CREDENTIAL, null);
            io.lifeline.security.DashboardSessions sessions = io.quarkus.arc.Arc.container()
                    .instance(io.lifeline.security.DashboardSessions.class)
                    .get();
            w.setMaxInactiveInterval(sessions.signedOut(w.getId()));
        } catch (IllegalStateException invalidated) {
            // Gone already.
        }
    }

    /** What the session's caller signed in with, or null. */
    static SessionGuard.Credential credential(VaadinSession s) {
        Object c = attribute(s, CREDENTIAL);
        return c instanceof SessionGuard.Credential credential ? credential : null;
    }

    /** Whether someone who may read is signed in. */
    public static boolean signedIn() {
        return caller().has(Role.VIEWER);
    }

    /** Whether the caller may act on jobs of {@code namespace}: decides whether job action buttons are shown. */
    public static boolean mayActOnJob(String namespace) {
        return caller().mayActOnNamespace(namespace);
    }

    /** Whether the caller may cordon or drain nodes. */
    public static boolean mayActOnNodes() {
        return caller().mayActOnNodes();
    }

    /** The viewer's time zone (the browser's, once known; UTC until then). */
    public static ZoneId zone() {
        VaadinSession s = VaadinSession.getCurrent();
        Object z = s == null ? null : s.getAttribute(ZONE);
        return z instanceof ZoneId zone ? zone : ZoneId.of("UTC");
    }

    public static void zone(ZoneId zone) {
        VaadinSession.getCurrent().setAttribute(ZONE, zone);
    }

    /** The theme chosen with the switch: true dark, false light, null not chosen yet (the browser's preference). */
    public static Boolean dark() {
        VaadinSession s = VaadinSession.getCurrent();
        Object d = s == null ? null : s.getAttribute(DARK);
        return d instanceof Boolean b ? b : null;
    }

    public static void dark(boolean dark) {
        VaadinSession.getCurrent().setAttribute(DARK, dark);
    }
}
