package io.lifeline.demo.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads the fields of one JSON object of a scenario file, collecting a problem (field path and reason)
 * for each wrong type, missing required field or unknown field instead of stopping at the first.
 */
final class JsonFields {

    private final JsonNode node;
    private final String prefix;
    private final List<String> problems;
    private final Set<String> known = new LinkedHashSet<>();

    JsonFields(JsonNode node, String prefix, List<String> problems) {
        this.node = node;
        this.prefix = prefix;
        this.problems = problems;
    }

    private JsonNode get(String field) {
        known.add(field);
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? null : v;
    }

    private void bad(String field, String expected, JsonNode got) {
        problems.add(prefix + field + ": expected " + expected + ", got " + describe(got));
    }

    static String describe(JsonNode v) {
        if (v == null) {
            return "nothing";
        }
        return switch (v.getNodeType()) {
            case STRING ->
                "\"" + (v.textValue().length() > 40 ? v.textValue().substring(0, 37) + "..." : v.textValue()) + "\"";
            case NUMBER, BOOLEAN -> v.asText();
            case ARRAY -> "an array";
            case OBJECT -> "an object";
            default -> v.getNodeType().name().toLowerCase(Locale.ROOT);
        };
    }

    String string(String field, String dflt, boolean required) {
        JsonNode v = get(field);
        if (v == null) {
            if (required) {
                problems.add(prefix + field + ": required");
            }
            return dflt;
        }
        if (!v.isTextual()) {
            bad(field, "a string", v);
            return dflt;
        }
        return v.textValue();
    }

    long integer(String field, long dflt, boolean required) {
        JsonNode v = get(field);
        if (v == null) {
            if (required) {
                problems.add(prefix + field + ": required");
            }
            return dflt;
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            bad(field, "a whole number", v);
            return dflt;
        }
        return v.longValue();
    }

    /** A whole number that must fit an int; out-of-range values are reported and replaced by the default. */
    int smallInteger(String field, int dflt, boolean required) {
        long l = integer(field, dflt, required);
        if (l < Integer.MIN_VALUE || l > Integer.MAX_VALUE) {
            problems.add(prefix + field + ": too large, got " + l);
            return dflt;
        }
        return (int) l;
    }

    Long optionalInteger(String field) {
        JsonNode v = get(field);
        if (v == null) {
            return null;
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            bad(field, "a whole number", v);
            return null;
        }
        return v.longValue();
    }

    double number(String field, double dflt, boolean required) {
        JsonNode v = get(field);
        if (v == null) {
            if (required) {
                problems.add(prefix + field + ": required");
            }
            return dflt;
        }
        if (!v.isNumber()) {
            bad(field, "a number", v);
            return dflt;
        }
        return v.doubleValue();
    }

    boolean bool(String field, boolean dflt) {
        JsonNode v = get(field);
        if (v == null) {
            return dflt;
        }
        if (!v.isBoolean()) {
            bad(field, "true or false", v);
            return dflt;
        }
        return v.booleanValue();
    }

    List<String> strings(String field) {
        JsonNode v = get(field);
        List<String> out = new ArrayList<>();
        if (v == null) {
            return out;
        }
        if (!v.isArray()) {
            bad(field, "an array of strings", v);
            return out;
        }
        for (int i = 0; i < v.size(); i++) {
            if (v.get(i).isTextual()) {
                out.add(v.get(i).textValue());
            } else {
                problems.add(prefix + field + "[" + i + "]: expected a string, got " + describe(v.get(i)));
            }
        }
        return out;
    }

    /** The elements of an array of objects, or an empty list (with a problem) when it is something else. */
    List<JsonNode> objects(String field, boolean required) {
        JsonNode v = get(field);
        List<JsonNode> out = new ArrayList<>();
        if (v == null) {
            if (required) {
                problems.add(prefix + field + ": required");
            }
            return out;
        }
        if (!v.isArray()) {
            bad(field, "an array of objects", v);
            return out;
        }
        for (int i = 0; i < v.size(); i++) {
            if (v.get(i).isObject()) {
                out.add(v.get(i));
            } else {
                problems.add(prefix + field + "[" + i + "]: expected an object, got " + describe(v.get(i)));
                out.add(null);
            }
        }
        return out;
    }

    /** A nested object, or null (with a problem when it has the wrong type). */
    JsonNode object(String field) {
        JsonNode v = get(field);
        if (v == null) {
            return null;
        }
        if (!v.isObject()) {
            bad(field, "an object", v);
            return null;
        }
        return v;
    }

    /** Records a problem with a field read earlier. */
    void problem(String field, String why) {
        problems.add(prefix + field + ": " + why);
    }

    /** Reports every field of the object that was not read: most likely a typo. Call after reading all. */
    void rejectUnknown() {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!known.contains(f)) {
                problems.add(prefix + f + ": unknown field (known: " + String.join(", ", known) + ")");
            }
        }
    }
}
