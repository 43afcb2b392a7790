package io.lifeline.domain.alert;

import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * One condition of a silence on one label, as in Alertmanager: equal, not equal, or (anchored) regular expression
 * match or non-match. A missing label has the empty value.
 *
 * @param name   label name
 * @param value  value or regular expression
 * @param type   how to compare
 */
public record Matcher(String name, String value, Type type) {

    /** How a matcher compares. */
    public enum Type {
        /** {@code =} */
        EQUAL("="),
        /** {@code !=} */
        NOT_EQUAL("!="),
        /** {@code =~}, anchored at both ends */
        REGEX("=~"),
        /** {@code !~}, anchored at both ends */
        NOT_REGEX("!~");

        private final String operator;

        Type(String operator) {
            this.operator = operator;
        }

        public String operator() {
            return operator;
        }
    }

    public Matcher {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("matchers: a matcher needs a label name");
        }
        Objects.requireNonNull(type, "type");
        value = value == null ? "" : value;
        if (type == Type.REGEX || type == Type.NOT_REGEX) {
            try {
                Pattern.compile(value);
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException(
                        "matchers: '" + name + "' has an invalid regular expression: " + e.getDescription());
            }
        }
    }

    public static Matcher equal(String name, String value) {
        return new Matcher(name, value, Type.EQUAL);
    }

    /** Whether {@code labels} satisfy this matcher. */
    public boolean matches(Map<String, String> labels) {
        String v = labels.getOrDefault(name, "");
        switch (type) {
            case EQUAL:
                return v.equals(value);
            case NOT_EQUAL:
                return !v.equals(value);
            case REGEX:
                return Pattern.compile(value).matcher(v).matches();
            default:
                return !Pattern.compile(value).matcher(v).matches();
        }
    }

    @Override
    public String toString() {
        return name + type.operator + "\"" + value + "\"";
    }
}
