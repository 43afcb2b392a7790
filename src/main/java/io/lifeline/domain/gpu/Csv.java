package io.lifeline.domain.gpu;

import java.util.ArrayList;
import java.util.List;

/**
 * A small RFC 4180 reader: comma-separated fields, double-quoted fields that may hold commas, doubled quotes
 * and line breaks, records ended by LF, CRLF or CR. Blank lines are skipped. Enough for the XID tables,
 * whose quoted mnemonics contain embedded newlines.
 */
final class Csv {

    private Csv() {
    }

    /** Parses {@code text} into records of fields. */
    static List<List<String>> parse(String text) {
        List<List<String>> rows = new ArrayList<>();
        List<String> row = new ArrayList<>();
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
                addUnlessBlank(rows, row);
                row = new ArrayList<>();
                i += c == '\r' && i + 1 < n && text.charAt(i + 1) == '\n' ? 2 : 1;
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
            addUnlessBlank(rows, row);
        }
        return rows;
    }

    private static void addUnlessBlank(List<List<String>> rows, List<String> row) {
        if (row.size() > 1 || !row.get(0).isEmpty()) {
            rows.add(row);
        }
    }
}
