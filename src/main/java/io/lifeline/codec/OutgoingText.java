package io.lifeline.codec;

/**
 * Text that came in with events (job and node names in data fields, reasons, trainers' messages) escaped for the
 * formats it leaves in, so that it reads as text there and never as that format's structure: a log line cannot be
 * ended early to forge the next one, and a Slack message cannot be made to mention {@code @channel} or to show a
 * link under a false name. JSON (webhooks, Alertmanager, the API) needs nothing here: its writer escapes.
 */
public final class OutgoingText {

    private OutgoingText() {}

    /**
     * {@code text} on one line: every control character (CR, LF, tab, ESC and the rest of C0, DEL, C1) and the Unicode
     * line and paragraph separators written as a visible escape ({@code \n}, {@code \r}, {@code \t}, {@code \u001b}).
     * Idempotent, so it may run on text that already went through it; a backslash is left as it is (what matters for
     * a log is that nothing starts a line). Null stays null.
     */
    public static String oneLine(String text) {
        if (text == null) {
            return null;
        }
        int first = firstControl(text);
        if (first < 0) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 16).append(text, 0, first);
        for (int i = first; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!isControl(c)) {
                out.append(c);
            } else if (c == '\n') {
                out.append("\\n");
            } else if (c == '\r') {
                out.append("\\r");
            } else if (c == '\t') {
                out.append("\\t");
            } else {
                out.append(String.format("\\u%04x", (int) c));
            }
        }
        return out.toString();
    }

    /**
     * {@code text} for Slack's mrkdwn: {@code &}, {@code <} and {@code >} as the HTML entities Slack decodes (so
     * {@code <!channel>} and {@code <http://x|disguised>} show as typed and do nothing), and on one line (a line break
     * would start a list item of its own). Null stays null.
     */
    public static String slack(String text) {
        if (text == null) {
            return null;
        }
        String line = oneLine(text);
        StringBuilder out = null;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            String entity = c == '&' ? "&amp;" : c == '<' ? "&lt;" : c == '>' ? "&gt;" : null;
            if (entity != null && out == null) {
                out = new StringBuilder(line.length() + 16).append(line, 0, i);
            }
            if (out != null) {
                out.append(entity != null ? entity : String.valueOf(c));
            }
        }
        return out == null ? line : out.toString();
    }

    private static int firstControl(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (isControl(s.charAt(i))) {
                return i;
            }
        }
        return -1;
    }

    private static boolean isControl(char c) {
        return c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) || c == '\u2028' || c == '\u2029';
    }
}
