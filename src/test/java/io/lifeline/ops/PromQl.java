package io.lifeline.ops;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Extracts the metric names a PromQL expression selects: what is left once strings, label matchers, ranges,
 * grouping clauses, Grafana variables, functions, keywords and numbers are taken out. Enough for the expressions
 * in dashboards and alert rules; not a PromQL parser.
 */
final class PromQl {

    private static final Set<String> KEYWORDS = Set.of(
            "and",
            "or",
            "unless",
            "by",
            "without",
            "on",
            "ignoring",
            "group_left",
            "group_right",
            "offset",
            "bool",
            "inf",
            "nan",
            "atan2",
            "sum",
            "min",
            "max",
            "avg",
            "count",
            "stddev",
            "stdvar",
            "topk",
            "bottomk",
            "quantile",
            "count_values",
            "group");
    private static final Pattern GROUPING =
            Pattern.compile("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    private static final Pattern IDENT = Pattern.compile("[A-Za-z_:][A-Za-z0-9_:]*");

    private PromQl() {}

    static Set<String> metricNames(String expr) {
        String s = expr.replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"", " ")
                .replaceAll("'(?:[^'\\\\]|\\\\.)*'", " ")
                .replaceAll("\\$\\{[^}]*}", " ")
                .replaceAll("\\$\\w+", " ")
                .replaceAll("\\{[^}]*}", " ")
                .replaceAll("\\[[^]]*]", " ");
        s = GROUPING.matcher(s).replaceAll(" ");
        Set<String> out = new TreeSet<>();
        Matcher m = IDENT.matcher(s);
        while (m.find()) {
            String id = m.group();
            int after = m.end();
            while (after < s.length() && Character.isWhitespace(s.charAt(after))) {
                after++;
            }
            boolean function = after < s.length() && s.charAt(after) == '(';
            boolean number =
                    m.start() > 0 && (Character.isDigit(s.charAt(m.start() - 1)) || s.charAt(m.start() - 1) == '.');
            if (!function && !number && !KEYWORDS.contains(id.toLowerCase(java.util.Locale.ROOT))) {
                out.add(id);
            }
        }
        return out;
    }
}
