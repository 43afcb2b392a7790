package io.lifeline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;

/** Small formatting helpers shared by the commands. */
final class Formats {

    private Formats() {}

    /** {@code ON_DEMAND} and {@code on-demand} both as {@code on-demand}. */
    static String wire(String s) {
        return s == null ? "-" : s.toLowerCase(Locale.ROOT).replace('_', '-');
    }

    static String or(String s) {
        return s == null || s.isBlank() ? "-" : s;
    }

    static String num(JsonNode n, String field) {
        JsonNode v = n == null ? null : n.get(field);
        if (v == null || v.isNull()) {
            return "-";
        }
        if (v.isIntegralNumber()) {
            return Long.toString(v.asLong());
        }
        if (v.isNumber()) {
            return fixed(v.asDouble(), 1);
        }
        return v.asText();
    }

    static String fixed(double d, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", d);
    }

    /** A ratio (0..1) as a percentage: {@code 93.1%}. */
    static String percent(JsonNode n, String field) {
        JsonNode v = n == null ? null : n.get(field);
        if (v == null || v.isNull() || !v.isNumber()) {
            return "-";
        }
        return fixed(v.asDouble() * 100, 1) + "%";
    }

    static String millis(JsonNode n, String field) {
        JsonNode v = n == null ? null : n.get(field);
        return v == null || v.isNull() ? "-" : Times.millis(v.asLong());
    }

    static String hours(JsonNode n, String field) {
        JsonNode v = n == null ? null : n.get(field);
        return v == null || v.isNull() ? "-" : fixed(v.asDouble(), 2);
    }

    static String yesNo(JsonNode n, String field) {
        JsonNode v = n == null ? null : n.get(field);
        return v == null || v.isNull() ? "-" : v.asBoolean() ? "yes" : "no";
    }

    static String list(JsonNode arr) {
        if (arr == null || !arr.isArray() || arr.isEmpty()) {
            return "-";
        }
        StringBuilder b = new StringBuilder();
        for (JsonNode v : arr) {
            if (b.length() > 0) {
                b.append(", ");
            }
            b.append(v.asText());
        }
        return b.toString();
    }
}
