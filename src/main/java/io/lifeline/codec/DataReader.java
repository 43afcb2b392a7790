package io.lifeline.codec;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
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
            default -> v.getNodeType().name().toLowerCase();
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
        String s = v.textValue();
        if (s.length() > MAX_STRING) {
            throw new InvalidEventException(prefix + field + ": longer than " + MAX_STRING + " characters");
        }
        if (s.indexOf('\u0000') >= 0) {
            throw new InvalidEventException(prefix + field + ": must not contain NUL characters");
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
        Instant t = Rfc3339.parseOrNull(s);
        if (t == null) {
            throw new InvalidEventException(where + ": expected an RFC 3339 timestamp such as 2026-01-31T12:00:00Z, got '"
                    + abbreviate(s) + "'");
        }
        return t;
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
            throw new InvalidEventException(prefix + field + ": must be one of " + allowed + ", got '" + abbreviate(s) + "'");
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

    static String abbreviate(String s) {
        return s.length() <= 64 ? s : s.substring(0, 61) + "...";
    }
}
