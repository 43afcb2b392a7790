package io.lifeline.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * A table of text for people: upper-case headers, columns three spaces apart, sized to the terminal. When the rows
 * are wider than the terminal, the columns marked {@code flexible} give up width, the rightmost first, and their
 * values are cut with an ellipsis; nothing is cut when the width is unknown (output to a pipe or file).
 */
final class Table {

    private static final String GAP = "   ";
    private static final int MIN_FLEXIBLE = 8;

    private final List<String> headers = new ArrayList<>();
    private final List<Boolean> flexible = new ArrayList<>();
    private final List<Boolean> right = new ArrayList<>();
    private final List<UnaryOperator<String>> styles = new ArrayList<>();
    private final List<List<String>> rows = new ArrayList<>();

    /** Adds a column. */
    Table column(String header) {
        return column(header, false, false, null);
    }

    /** Adds a column whose values may be cut to fit the terminal. */
    Table flexible(String header) {
        return column(header, true, false, null);
    }

    /** Adds a right-aligned (numeric) column. */
    Table number(String header) {
        return column(header, false, true, null);
    }

    Table column(String header, boolean mayCut, boolean alignRight, UnaryOperator<String> style) {
        headers.add(header.toUpperCase(java.util.Locale.ROOT));
        flexible.add(mayCut);
        right.add(alignRight);
        styles.add(style);
        return this;
    }

    /** Styles (colours) a column's values after they are padded, so escape codes never count as width. */
    Table style(int column, UnaryOperator<String> style) {
        styles.set(column, style);
        return this;
    }

    Table row(String... values) {
        List<String> r = new ArrayList<>(headers.size());
        for (int i = 0; i < headers.size(); i++) {
            String v = i < values.length && values[i] != null ? values[i] : "";
            r.add(printable(v));
        }
        rows.add(r);
        return this;
    }

    /**
     * A value as one line of plain text: line breaks and tabs as spaces, any other control character (ESC starting a
     * terminal escape sequence, a carriage return overwriting the line) as {@code ?}. Values are what events said
     * (names, reasons, trainers' messages) and must not move the cursor or recolour the operator's terminal.
     */
    static String printable(String v) {
        StringBuilder out = null;
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            boolean control = c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) || c == '\u2028' || c == '\u2029';
            if (control && out == null) {
                out = new StringBuilder(v.length()).append(v, 0, i);
            }
            if (out != null) {
                out.append(!control ? c : c == '\n' || c == '\t' ? ' ' : '?');
            }
        }
        return out == null ? v : out.toString();
    }

    <T> Table rows(Iterable<T> items, Function<T, String[]> values) {
        for (T t : items) {
            row(values.apply(t));
        }
        return this;
    }

    int size() {
        return rows.size();
    }

    /** The table as lines, fitted to {@code width} columns (0: no limit); {@code bold} styles the header. */
    List<String> render(int width, UnaryOperator<String> bold) {
        int n = headers.size();
        int[] w = new int[n];
        for (int i = 0; i < n; i++) {
            w[i] = headers.get(i).length();
            for (List<String> r : rows) {
                w[i] = Math.max(w[i], r.get(i).length());
            }
        }
        if (width > 0) {
            fit(w, width);
        }
        List<String> lines = new ArrayList<>(rows.size() + 1);
        lines.add(line(headers, w, bold, true));
        for (List<String> r : rows) {
            lines.add(line(r, w, null, false));
        }
        return lines;
    }

    /** Cuts flexible columns, the rightmost first (free text such as outcomes and details), each down to a floor. */
    private void fit(int[] w, int width) {
        int total = GAP.length() * (w.length - 1);
        for (int x : w) {
            total += x;
        }
        for (int i = w.length - 1; i >= 0 && total > width; i--) {
            if (flexible.get(i) && w[i] > MIN_FLEXIBLE) {
                int cut = Math.min(w[i] - MIN_FLEXIBLE, total - width);
                w[i] -= cut;
                total -= cut;
            }
        }
    }

    private String line(List<String> values, int[] w, UnaryOperator<String> headerStyle, boolean header) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < values.size(); i++) {
            String v = cut(values.get(i), w[i]);
            boolean last = i == values.size() - 1;
            String padded = right.get(i) ? pad(v, w[i], true) : last ? v : pad(v, w[i], false);
            UnaryOperator<String> s = header ? headerStyle : styles.get(i);
            if (s != null && !v.isEmpty()) {
                String styled = s.apply(v);
                padded = padded.replace(v, styled);
            }
            b.append(padded);
            if (!last) {
                b.append(GAP);
            }
        }
        return strip(b);
    }

    private static String strip(StringBuilder b) {
        int end = b.length();
        while (end > 0 && b.charAt(end - 1) == ' ') {
            end--;
        }
        return b.substring(0, end);
    }

    static String cut(String v, int width) {
        if (v.length() <= width) {
            return v;
        }
        return width <= 1 ? v.substring(0, Math.max(0, width)) : v.substring(0, width - 1) + "\u2026";
    }

    private static String pad(String v, int width, boolean alignRight) {
        if (v.length() >= width) {
            return v;
        }
        String spaces = " ".repeat(width - v.length());
        return alignRight ? spaces + v : v + spaces;
    }
}
