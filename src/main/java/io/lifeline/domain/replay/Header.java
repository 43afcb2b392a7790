package io.lifeline.domain.replay;

import io.lifeline.domain.gpu.Csv;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The header of a trace CSV: its columns by name, and the required ones it lacks. */
record Header(List<String> columns, List<String> missing) {

    static Header of(Csv.Row row, List<String> required) {
        List<String> cols = row.fields().stream().map(String::trim).toList();
        List<String> missing = new ArrayList<>();
        for (String r : required) {
            if (!cols.contains(r)) {
                missing.add(r);
            }
        }
        return new Header(cols, missing);
    }

    /** The row's values by column; a row with more fields than the header is refused, a shorter one padded. */
    Map<String, String> values(Csv.Row row) {
        if (row.fields().size() > columns.size()) {
            throw new IllegalArgumentException(row.fields().size() + " fields where the header has " + columns.size());
        }
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < columns.size(); i++) {
            m.put(columns.get(i), i < row.fields().size() ? row.fields().get(i) : "");
        }
        return m;
    }

    static int integer(String field, String s) {
        try {
            return Integer.parseInt(s.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(field + " is not a whole number: '" + s + "'");
        }
    }
}
