package io.lifeline.web;

import io.vertx.core.MultiMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Every cookie the server sets (the dashboard's session, single sign-on's state and session, the sign-in ticket) leaves
 * with {@code HttpOnly} (no script reads it), {@code SameSite=Lax} unless it says otherwise (another site's forms and
 * scripts do not carry it; a link followed to the dashboard does) and, when the request came over TLS (directly, or
 * through a proxy Quarkus trusts), {@code Secure}. Applied to the response headers just before they are sent, so it
 * holds whichever component set the cookie.
 */
final class Cookies {

    private Cookies() {}

    static void harden(MultiMap headers, boolean https) {
        List<String> cookies = headers.getAll("Set-Cookie");
        if (cookies.isEmpty()) {
            return;
        }
        List<String> out = new ArrayList<>(cookies.size());
        for (String c : cookies) {
            out.add(harden(c, https));
        }
        headers.remove("Set-Cookie");
        for (String c : out) {
            headers.add("Set-Cookie", c);
        }
    }

    static String harden(String cookie, boolean https) {
        String lower = cookie.toLowerCase(Locale.ROOT);
        StringBuilder b = new StringBuilder(cookie);
        if (!has(lower, "httponly")) {
            b.append("; HttpOnly");
        }
        if (!has(lower, "samesite")) {
            b.append("; SameSite=Lax");
        }
        if (https && !has(lower, "secure")) {
            b.append("; Secure");
        }
        return b.toString();
    }

    /** Whether the cookie's attributes (after its value) name {@code attribute}. */
    private static boolean has(String lowerCookie, String attribute) {
        int semi = lowerCookie.indexOf(';');
        if (semi < 0) {
            return false;
        }
        for (String part : lowerCookie.substring(semi + 1).split(";")) {
            String name = part.strip();
            int eq = name.indexOf('=');
            if ((eq < 0 ? name : name.substring(0, eq).strip()).equals(attribute)) {
                return true;
            }
        }
        return false;
    }
}
