package io.lifeline.domain.page;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The one cursor format of every paged list: the position after a page's last item, as a few key parts (a sequence,
 * a time and a sequence, ...) joined by {@code |} and encoded base64url without padding. Clients treat it as opaque.
 *
 * <p>Earlier releases gave out plain cursors: a number ({@code 61}, actions and a job's incidents and checkpoints) or
 * two numbers joined by a colon ({@code 1772352240000:1}, a job's timeline). Clients may still hold them, so
 * {@link #parts} reads them too: an encoded cursor never starts with a digit or a minus sign (its first character
 * encodes a printable ASCII byte, {@code I} to {@code f}), a plain one always does.
 */
public final class Cursor {

    /** Longer than any cursor this codec makes: anything longer is refused before it is decoded. */
    private static final int MAX_LENGTH = 512;

    private static final String SEPARATOR = "|";
    private static final Pattern PLAIN = Pattern.compile("-?[0-9]{1,19}(:-?[0-9]{1,19})*");

    private Cursor() {}

    /** The cursor of a position given by its key parts, none of which may contain {@code |}. */
    public static String of(Object... parts) {
        if (parts.length == 0) {
            throw new IllegalArgumentException("a cursor has at least one part");
        }
        StringBuilder raw = new StringBuilder();
        for (Object p : parts) {
            String s = String.valueOf(p);
            if (s.contains(SEPARATOR)) {
                throw new IllegalArgumentException("a cursor part may not contain '|': " + s);
            }
            raw.append(raw.length() == 0 ? "" : SEPARATOR).append(s);
        }
        return Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(raw.toString().getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The {@code n} key parts of a cursor, from {@link #of} or in an earlier release's plain form.
     *
     * @throws IllegalArgumentException for anything else, whatever its length or content
     */
    public static List<String> parts(String cursor, int n) {
        if (cursor == null || cursor.isEmpty() || cursor.length() > MAX_LENGTH) {
            throw notOurs();
        }
        char first = cursor.charAt(0);
        if (first == '-' || first >= '0' && first <= '9') {
            if (!PLAIN.matcher(cursor).matches()) {
                throw notOurs();
            }
            return checked(List.of(cursor.split(":")), n);
        }
        String raw;
        try {
            raw = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw notOurs();
        }
        List<String> parts = new ArrayList<>(n);
        int from = 0;
        for (int bar = raw.indexOf(SEPARATOR); bar >= 0; bar = raw.indexOf(SEPARATOR, from)) {
            parts.add(raw.substring(from, bar));
            from = bar + 1;
        }
        parts.add(raw.substring(from));
        return checked(parts, n);
    }

    /** The {@code n} key parts of a cursor, each a whole number (see {@link #parts}). */
    public static long[] longs(String cursor, int n) {
        List<String> parts = parts(cursor, n);
        long[] out = new long[n];
        try {
            for (int i = 0; i < n; i++) {
                out[i] = Long.parseLong(parts.get(i));
            }
        } catch (NumberFormatException e) {
            throw notOurs();
        }
        return out;
    }

    private static List<String> checked(List<String> parts, int n) {
        if (parts.size() != n || parts.stream().anyMatch(String::isEmpty)) {
            throw notOurs();
        }
        return parts;
    }

    private static IllegalArgumentException notOurs() {
        return new IllegalArgumentException("not a cursor this API gave out");
    }
}
