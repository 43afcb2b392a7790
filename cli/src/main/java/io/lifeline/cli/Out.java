package io.lifeline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Locale;

/**
 * The output format chosen with {@code -o}: a table for people (default), {@code wide} (more columns), {@code json}
 * or {@code yaml} (the server's documents as they came; lists as {@code {"items": [...]}}), {@code name}
 * ({@code job/vision/vit-g14-clip}, one a line).
 */
final class Out {

    enum Format {
        TABLE,
        WIDE,
        JSON,
        YAML,
        NAME
    }

    private final Terminal term;
    private final Format format;
    private final Times times;
    private final java.io.PrintWriter w;

    Out(Terminal term, Format format, Times times) {
        this(term, format, times, term.out());
    }

    private Out(Terminal term, Format format, Times times, java.io.PrintWriter w) {
        this.term = term;
        this.format = format;
        this.times = times;
        this.w = w;
    }

    /** The same, writing text to standard error: for what people read while standard output stays a result. */
    Out toErr() {
        return new Out(term, Format.TABLE, times, term.err());
    }

    static Format parse(String value) {
        if (value == null || value.isBlank()) {
            return Format.TABLE;
        }
        try {
            return Format.valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw CliException.usage("-o/--output: must be one of json, yaml, wide, name, got '" + value + "'");
        }
    }

    Format format() {
        return format;
    }

    Terminal term() {
        return term;
    }

    Times times() {
        return times;
    }

    boolean structured() {
        return format == Format.JSON || format == Format.YAML;
    }

    boolean wide() {
        return format == Format.WIDE;
    }

    boolean names() {
        return format == Format.NAME;
    }

    /** Prints a document as JSON or YAML. */
    void document(JsonNode doc) {
        if (format == Format.YAML) {
            term.out().print(Json.toYaml(doc));
        } else {
            term.out().println(Json.pretty(doc));
        }
        term.out().flush();
    }

    /** A list as one document: {@code {"items": [...]}} plus any extra fields given. */
    static ObjectNode list(List<JsonNode> items) {
        ObjectNode doc = Json.object();
        ArrayNode a = doc.putArray("items");
        items.forEach(a::add);
        return doc;
    }

    /** A list as a table; an empty one is a note on standard error, so that standard output stays empty. */
    void table(Table t) {
        if (t.size() == 0) {
            term.err().println("No resources found.");
            term.err().flush();
            return;
        }
        print(t);
    }

    /**
     * A table inside a larger text ({@code describe}, a timeline): an empty one prints {@code none} in its place, on
     * the same stream, or the note would land out of order against the text around it.
     */
    void table(Table t, String none) {
        if (t.size() == 0) {
            line(none);
            return;
        }
        print(t);
    }

    private void print(Table t) {
        for (String line : t.render(term.columns(), term::bold)) {
            w.println(line);
        }
        w.flush();
    }

    void line(String s) {
        w.println(s);
        w.flush();
    }

    /** A note for people on standard error (so that standard output stays parseable). */
    void note(String s) {
        term.err().println(s);
        term.err().flush();
    }

    String time(String wire) {
        return times.format(wire);
    }

    /** A time to the second, for timelines and event streams. */
    String preciseTime(String wire) {
        return times.precise(wire);
    }

    /** Colours a state: green when healthy or done, yellow in between, red when failed or unhealthy. */
    String state(String s) {
        if (s == null) {
            return "-";
        }
        switch (s.toLowerCase(Locale.ROOT).replace('_', '-')) {
            case "running":
            case "succeeded":
            case "healthy":
            case "ready":
            case "done":
            case "on":
            case "active":
            case "completed":
            case "resolved":
            case "closed":
                return term.green(s);
            case "failed":
            case "unhealthy":
            case "firing":
            case "critical":
            case "revoked":
            case "lost":
            case "off":
            case "open":
                return term.red(s);
            case "pending":
            case "recovering":
            case "draining":
            case "cordoned":
            case "degraded":
            case "suspended":
            case "notice-received":
            case "dry-run":
            case "cancelled":
            case "expired":
            case "warning":
            case "suspect":
                return term.yellow(s);
            default:
                return s;
        }
    }
}
