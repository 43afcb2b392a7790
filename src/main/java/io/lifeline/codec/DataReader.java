package io.lifeline.codec;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Locale;
import java.util.function.Function;

/** Reads typed fields out of a JSON object, failing with a reason that names the field. */
final class DataReader {

    static final int MAX_STRING = 4096;

    private final JsonNode node;
    private final String prefix;

    DataReader(JsonNode node, String prefix) {
        this.node = node;
        this.prefix = prefix;
    }

    /** The raw value at {@code field}, or null when absent (or JSON null). */
    JsonNode raw(String field) {
        return get(field);
    }

    private JsonNode get(String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? null : v;
    }

    private InvalidEventException bad(String field, String what, JsonNode got) {
        return new InvalidEventException(prefix + field + ": " + what + ", got " + describe(got));
    }

    static String describe(JsonNode v) {
        if (v == null) {
            return "nothing";
        }
        return switch (v.getNodeType()) {
            case STRING -> "string";
            case NUMBER -> "number " + v.asText();
            case BOOLEAN -> "boolean";
            case ARRAY -> "array";
            case OBJECT -> "object";
            default -> v.getNodeType().name().toLowerCase(Locale.ROOT);
        };
    }

    String reqString(String field) {
        String s = optString(field);
        if (s == null || s.isBlank()) {
            throw new InvalidEventException(prefix + field + ": required");
        }
        return s;
    }

    String optString(String field) {
        JsonNode v = get(field);
        if (v == null) {
            return null;
        }
        if (!v.isTextual()) {
            throw bad(field, "expected a string", v);
        }
        return checked(prefix + field, v.textValue());
    }

    /** A string value the event log takes: at most {@link #MAX_STRING} characters, no NUL, no lone surrogate. */
    static String checked(String field, String s) {
        if (s.length() > MAX_STRING) {
            throw new InvalidEventException(field + ": longer than " + MAX_STRING + " characters");
        }
        return checkedUnbounded(field, s);
    }

    /** {@link #checked} without the length limit, for the one field whose caller bounds it. */
    static String checkedUnbounded(String field, String s) {
        if (s.indexOf('\u0000') >= 0) {
            throw new InvalidEventException(field + ": must not contain NUL characters");
        }
        for (int i = 0; i < s.length(); i++) {
            if (Character.isSurrogate(s.charAt(i))) {
                String surrogate = Envelope.surrogateAt(s, i);
                if (surrogate != null) {
                    // The event log's jsonb column refuses it.
                    throw new InvalidEventException(field + ": must not contain " + surrogate);
                }
                i++;
            }
        }
        return s;
    }

    long reqLong(String field, long min, long max) {
        Long v = optLong(field, min, max);
        if (v == null) {
            throw new InvalidEventException(prefix + field + ": required");
        }
        return v;
    }

    Long optLong(String field, long min, long max) {
        JsonNode v = get(field);
        if (v == null) {
            return null;
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw bad(field, "expected an integer", v);
        }
        long l = v.longValue();
        if (l < min || l > max) {
            throw new InvalidEventException(prefix + field + ": must be between " + min + " and " + max + ", got " + l);
        }
        return l;
    }

    int reqInt(String field, int min, int max) {
        return (int) reqLong(field, min, max);
    }

    Integer optInt(String field, int min, int max) {
        Long l = optLong(field, min, max);
        return l == null ? null : l.intValue();
    }

    double reqDouble(String field, double min, double max) {
        Double v = optDouble(field, min, max);
        if (v == null) {
            throw new InvalidEventException(prefix + field + ": required");
        }
        return v;
    }

    Double optDouble(String field, double min, double max) {
        JsonNode v = get(field);
        if (v == null) {
            return null;
        }
        if (!v.isNumber()) {
            throw bad(field, "expected a number", v);
        }
        double d = v.doubleValue();
        if (Double.isNaN(d) || d < min || d > max) {
            throw new InvalidEventException(prefix + field + ": must be between " + min + " and " + max + ", got " + d);
        }
        return d;
    }

    boolean optBool(String field, boolean dflt) {
        JsonNode v = get(field);
        if (v == null) {
            return dflt;
        }
        if (!v.isBoolean()) {
            throw bad(field, "expected true or false", v);
        }
        return v.booleanValue();
    }

    /** An optional boolean that keeps "not said" apart from false: null when absent. */
    Boolean optBoolean(String field) {
        return get(field) == null ? null : optBool(field, false);
    }

    boolean reqBool(String field) {
        JsonNode v = get(field);
        if (v == null) {
            throw new InvalidEventException(prefix + field + ": required");
        }
        return optBool(field, false);
    }

    Instant optInstant(String field) {
        String s = optString(field);
        if (s == null) {
            return null;
        }
        return parseInstant(prefix + field, s);
    }

    static Instant parseInstant(String where, String s) {
        return Envelope.time(where, s);
    }

    <E> E reqEnum(String field, Function<String, E> parser, String allowed) {
        E e = optEnum(field, parser, allowed);
        if (e == null) {
            throw new InvalidEventException(prefix + field + ": required (one of " + allowed + ")");
        }
        return e;
    }

    <E> E optEnum(String field, Function<String, E> parser, String allowed) {
        String s = optString(field);
        if (s == null) {
            return null;
        }
        E e = parser.apply(s);
        if (e == null) {
            throw new InvalidEventException(
                    prefix + field + ": must be one of " + allowed + ", got '" + abbreviate(s) + "'");
        }
        return e;
    }

    DataReader reqObject(String field) {
        DataReader r = optObject(field);
        if (r == null) {
            throw new InvalidEventException(prefix + field + ": required");
        }
        return r;
    }

    DataReader optObject(String field) {
        JsonNode v = get(field);
        if (v == null) {
            return null;
        }
        if (!v.isObject()) {
            throw bad(field, "expected an object", v);
        }
        return new DataReader(v, prefix + field + ".");
    }

    /** The array at {@code field}, or null when absent (or JSON null). */
    JsonNode optArray(String field) {
        JsonNode v = get(field);
        if (v == null) {
            return null;
        }
        if (!v.isArray()) {
            throw bad(field, "expected an array", v);
        }
        return v;
    }

    JsonNode reqArray(String field) {
        JsonNode v = get(field);
        if (v == null) {
            throw new InvalidEventException(prefix + field + ": required");
        }
        if (!v.isArray()) {
            throw bad(field, "expected an array", v);
        }
        return v;
    }

    String path(String field) {
        return prefix + field;
    }

    /** {@code s} for a reason sent back to its sender: at most 64 characters, control characters escaped. */
    static String abbreviate(String s) {
        String cut = s.length() <= 64 ? s : s.substring(0, 61) + "...";
        StringBuilder b = null;
        for (int i = 0; i < cut.length(); i++) {
            char c = cut.charAt(i);
            boolean escape = c < 0x20 || (c >= 0x7f && c <= 0x9f) || Character.isSurrogate(c);
            if (escape && b == null) {
                b = new StringBuilder(cut.length() + 16).append(cut, 0, i);
            }
            if (b != null) {
                if (escape) {
                    b.append(String.format("\\u%04X", (int) c));
                } else {
                    b.append(c);
                }
            }
        }
        return b == null ? cut : b.toString();
    }
}
