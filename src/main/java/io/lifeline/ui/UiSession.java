package io.lifeline.ui;

import io.lifeline.security.Caller;
import io.lifeline.security.Role;
import io.lifeline.security.Scope;
import com.vaadin.flow.server.VaadinSession;
import java.time.ZoneId;

/**
 * What the dashboard keeps in the Vaadin session: the signed-in caller (verified from an API token at login), what
 * it signed in with (which {@link SessionGuard} checks again, ending the session when it stops being valid) and
 * the viewer's time zone. Every view asks here before showing data or action buttons.
 */
public final class UiSession {

    private static final String CALLER = "lifeline.caller";
    private static final String CREDENTIAL = "lifeline.credential";
    private static final String ZONE = "lifeline.zone";
    private static final String DARK = "lifeline.dark";

    private UiSession() {
    }

    /** The signed-in caller, or the anonymous one. */
    public static Caller caller() {
        VaadinSession s = VaadinSession.getCurrent();
        Object c = s == null ? null : s.getAttribute(CALLER);
        return c instanceof Caller caller ? caller : Caller.anonymous();
    }

    /** The caller of a session; the anonymous one when nobody is signed in. */
    static Caller caller(VaadinSession s) {
        Object c = s.getAttribute(CALLER);
        return c instanceof Caller caller ? caller : Caller.anonymous();
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
        VaadinSession s = VaadinSession.getCurrent();
        s.setAttribute(CALLER, caller);
        s.setAttribute(CREDENTIAL, credential);
    }

    public static void signOut() {
        signOut(VaadinSession.getCurrent());
    }

    static void signOut(VaadinSession s) {
        s.setAttribute(CALLER, null);
        s.setAttribute(CREDENTIAL, null);
    }

    /** What the session's caller signed in with, or null. */
    static SessionGuard.Credential credential(VaadinSession s) {
        Object c = s.getAttribute(CREDENTIAL);
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
