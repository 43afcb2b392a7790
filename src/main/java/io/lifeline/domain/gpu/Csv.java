package io.lifeline.domain.gpu;

import java.util.ArrayList;
import java.util.List;

/**
 * A small RFC 4180 reader: comma-separated fields, double-quoted fields that may hold commas, doubled quotes
 * and line breaks, records ended by LF, CRLF or CR. Blank lines are skipped. Enough for the XID tables,
 * whose quoted mnemonics contain embedded newlines.
 */
public final class Csv {

    private Csv() {}

    /**
     * One record with the line it starts on (1-based), for readers that name the line of a bad record.
     *
     * @param line    the line the record starts on
     * @param fields  its fields
     */
    public record Row(int line, List<String> fields) {}

    /** Parses {@code text} into records of fields. */
    public static List<List<String>> parse(String text) {
        List<List<String>> out = new ArrayList<>();
        for (Row r : rows(text)) {
            out.add(r.fields());
        }
        return out;
    }

    /** Parses {@code text} into records, each with the line it starts on. */
    public static List<Row> rows(String text) {
        List<Row> rows = new ArrayList<>();
        List<String> row = new ArrayList<>();
        int line = 1;
        int rowLine = 1;
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < n && text.charAt(i + 1) == '"') {
                    field.append('"');
                    i += 2;
                    continue;
                }
                if (c == '"') {
                    quoted = false;
                } else {
                    field.append(c);
                    if (c == '\n') {
                        line++;
                    }
                }
                i++;
            } else if (c == '"') {
                quoted = true;
                i++;
            } else if (c == ',') {
                row.add(field.toString());
                field.setLength(0);
                i++;
            } else if (c == '\r' || c == '\n') {
                row.add(field.toString());
                field.setLength(0);
                addUnlessBlank(rows, row, rowLine);
                row = new ArrayList<>();
                i += c == '\r' && i + 1 < n && text.charAt(i + 1) == '\n' ? 2 : 1;
                line++;
                rowLine = line;
            } else {
                field.append(c);
                i++;
            }
        }
        if (quoted) {
            throw new IllegalArgumentException("unterminated quoted field in record " + (rows.size() + 1));
        }
        if (field.length() > 0 || !row.isEmpty()) {
            row.add(field.toString());
            addUnlessBlank(rows, row, rowLine);
        }
        return rows;
    }

    private static void addUnlessBlank(List<Row> rows, List<String> row, int line) {
        if (row.size() > 1 || !row.get(0).isEmpty()) {
            rows.add(new Row(line, row));
        }
    }
}
