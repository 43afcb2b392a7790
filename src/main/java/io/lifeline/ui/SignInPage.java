package io.lifeline.ui;

/**
 * The sign-in page: plain HTML, no Vaadin, so that showing it needs no session. A form posts the token to
 * {@code login}; "Sign in with SSO" is a link to {@code auth/sso}. The light/dark choice travels in a cookie of its
 * own ({@code lifeline-theme}, set by the page's script), which the dashboard reads once signed in.
 */
final class SignInPage {

    /** The cookie holding the theme chosen on the sign-in page or with the dashboard's switch. */
    static final String THEME_COOKIE = "lifeline-theme";

    /**
     * What the page shows.
     *
     * @param error    a message in the error box, or null
     * @param ssoLabel the single sign-on link's text, or null when single sign-on is off
     * @param dark     the dark theme (from the theme cookie)
     */
    record Model(String error, String ssoLabel, boolean dark) {}

    private SignInPage() {}

    static String render(Model m) {
        StringBuilder b = new StringBuilder(2048);
        b.append("<!DOCTYPE html>\n<html lang=\"en\"")
                .append(m.dark() ? " theme=\"dark\"" : "")
                .append(">\n<head>\n")
                .append("<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>Sign in · Lifeline</title>\n")
                .append("<link rel=\"stylesheet\" href=\"styles/login.css\">\n")
                .append("</head>\n<body>\n<main class=\"ll-login\" id=\"main\">\n")
                .append("<div class=\"ll-login-head\"><h1>Lifeline</h1>")
                .append("<button type=\"button\" id=\"theme-toggle\" class=\"ll-theme\" aria-label=\"Dark theme\" ")
                .append("aria-pressed=\"")
                .append(m.dark())
                .append("\" title=\"")
                .append(m.dark() ? "Switch to the light theme" : "Switch to the dark theme")
                .append("\">&#9680;</button></div>\n")
                .append("<p>Paste an API token. Viewers see everything; operators and admins can also act. ")
                .append("The first admin token is in .lifeline/admin-token.</p>\n")
                .append("<form method=\"post\" action=\"login\" autocomplete=\"off\">\n")
                .append("<div id=\"token\" class=\"ll-field\"><label for=\"token-input\">API token</label>")
                .append("<input id=\"token-input\" name=\"token\" type=\"password\" placeholder=\"llt_...\" ")
                .append("required autocomplete=\"off\" spellcheck=\"false\"></div>\n")
                .append("<button id=\"sign-in\" type=\"submit\" class=\"ll-primary\">Sign in</button>\n")
                .append("</form>\n");
        if (m.error() != null) {
            b.append("<div class=\"ll-error\" id=\"sign-in-error\" role=\"alert\">")
                    .append(escape(m.error()))
                    .append("</div>\n");
        }
        if (m.ssoLabel() != null) {
            b.append("<p>Or, with your organisation's account:</p>\n<a id=\"sso\" class=\"ll-sso\" href=\"auth/sso\">")
                    .append(escape(m.ssoLabel()))
                    .append("</a>\n");
        }
        b.append("</main>\n<script src=\"scripts/login.js\"></script>\n</body>\n</html>\n");
        return b.toString();
    }

    /** HTML text and attribute escaping. */
    static String escape(String s) {
        StringBuilder out = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
