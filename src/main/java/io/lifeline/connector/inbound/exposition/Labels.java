package io.lifeline.connector.inbound.exposition;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An immutable, compact label set in the order the line wrote it. Lookup is a linear scan, which beats hashing
 * for the ten or so labels an exporter writes; names are usually the same String instances line after line
 * (the parser interns them), so the scan mostly compares references.
 */
public final class Labels {

    /** No labels. */
    public static final Labels EMPTY = new Labels(new String[0]);

    /** name0, value0, name1, value1, ... */
    private final String[] pairs;

    private Labels(String[] pairs) {
        this.pairs = pairs;
    }

    /** Builds a label set from alternating names and values. */
    public static Labels of(String... namesAndValues) {
        if (namesAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("need name/value pairs, got " + namesAndValues.length + " strings");
        }
        return namesAndValues.length == 0 ? EMPTY : new Labels(namesAndValues.clone());
    }

    /** Takes the first {@code count} pairs of a scratch array (copied). */
    static Labels copyOf(String[] scratch, int count) {
        return count == 0 ? EMPTY : new Labels(Arrays.copyOf(scratch, count * 2));
    }

    public int size() {
        return pairs.length / 2;
    }

    public String name(int i) {
        return pairs[2 * i];
    }

    public String value(int i) {
        return pairs[2 * i + 1];
    }

    /** The value of the named label, {@code null} when absent. */
    public String get(String labelName) {
        for (int i = 0; i < pairs.length; i += 2) {
            String n = pairs[i];
            if (n.equals(labelName)) {
                return pairs[i + 1];
            }
        }
        return null;
    }

    /** Whether the named label is present. */
    public boolean has(String labelName) {
        return get(labelName) != null;
    }

    /** The labels as an insertion-ordered, unmodifiable map. */
    public Map<String, String> asMap() {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put(pairs[i], pairs[i + 1]);
        }
        return Collections.unmodifiableMap(m);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Labels l && Arrays.equals(pairs, l.pairs);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(pairs);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < pairs.length; i += 2) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(pairs[i]).append("=\"").append(pairs[i + 1]).append('"');
        }
        return sb.append('}').toString();
    }
}
