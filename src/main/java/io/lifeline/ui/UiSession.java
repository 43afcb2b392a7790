package io.lifeline.ui;

import io.lifeline.security.Caller;
import io.lifeline.security.Role;
import com.vaadin.flow.server.VaadinSession;
import java.time.ZoneId;

/**
 * What the dashboard keeps in the Vaadin session: the signed-in caller (verified from an API token at login) and
 * the viewer's time zone. Every view asks here before showing data or action buttons.
 */
public final class UiSession {

    private static final String CALLER = "lifeline.caller";
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

    public static void signIn(Caller caller) {
        VaadinSession.getCurrent().setAttribute(CALLER, caller);
    }

    public static void signOut() {
        VaadinSession.getCurrent().setAttribute(CALLER, null);
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
