package io.lifeline.testing;

import java.util.Locale;
import java.util.Map;

/**
 * One flat JSON object on one line, for the benchmarks' result lines: doubles to three decimals, other numbers as they
 * are, the rest as strings.
 */
public final class FlatJson {

    private FlatJson() {}

    public static String of(Map<String, Object> o) {
        StringBuilder b = new StringBuilder("{");
        for (Map.Entry<String, Object> e : o.entrySet()) {
            if (b.length() > 1) {
                b.append(", ");
            }
            b.append('"').append(e.getKey()).append("\": ");
            Object v = e.getValue();
            if (v instanceof Double d) {
                b.append(String.format(Locale.ROOT, "%.3f", d));
            } else if (v instanceof Number) {
                b.append(v);
            } else {
                b.append('"').append(v).append('"');
            }
        }
        return b.append('}').toString();
    }
}
