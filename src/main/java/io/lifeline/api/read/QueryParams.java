package io.lifeline.api.read;

import io.lifeline.codec.InvalidEventException;
import io.lifeline.codec.Rfc3339;
import io.lifeline.domain.page.Cursor;
import io.lifeline.domain.support.WireEnum;
import java.time.Instant;
import java.util.Arrays;
import java.util.stream.Collectors;

/** Parses query parameters into typed values, failing with a message that names the parameter. */
public final class QueryParams {

    private QueryParams() {}

    /**
     * The value a parameter names, by its wire name or its Java constant (what answers of earlier releases carried),
     * in any case, {@code -} and {@code _} alike; null when absent.
     */
    public static <E extends Enum<E>> E enumValue(String name, String value, Class<E> type) {
        if (value == null || value.isBlank()) {
            return null;
        }
        return WireEnum.parse(type, value)
                .orElseThrow(() -> new InvalidEventException(name + ": must be one of "
                        + Arrays.stream(type.getEnumConstants())
                                .map(WireEnum::wireOf)
                                .collect(Collectors.joining(", "))
                        + ", got '" + abbreviate(value) + "'"));
    }

    public static Instant instant(String name, String value) {
        return Rfc3339.parse(name, value);
    }

    public static int limit(Integer value, int dflt, int max) {
        int n = value == null ? dflt : value;
        if (n < 1 || n > max) {
            throw new InvalidEventException("limit: must be between 1 and " + max + ", got " + n);
        }
        return n;
    }

    /**
     * Where a positional page starts: the {@code cursor} of the previous page, or an {@code offset}, not both. A cursor
     * that this API did not give out is refused, as on every paged list.
     */
    public static int position(Integer offset, String cursor) {
        if (cursor == null || cursor.isEmpty()) {
            return offset(offset);
        }
        if (offset != null) {
            throw new InvalidEventException("cursor: give cursor or offset, not both");
        }
        long at;
        try {
            at = Cursor.longs(cursor, 1)[0];
        } catch (IllegalArgumentException e) {
            throw new InvalidEventException("cursor: not a cursor this API returned");
        }
        if (at < 0 || at > Integer.MAX_VALUE) {
            throw new InvalidEventException("cursor: not a cursor this API returned");
        }
        return (int) at;
    }

    public static int offset(Integer value) {
        int n = value == null ? 0 : value;
        if (n < 0) {
            throw new InvalidEventException("offset: must be >= 0, got " + n);
        }
        return n;
    }

    public static Boolean bool(String name, String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(value);
        }
        throw new InvalidEventException(name + ": must be true or false, got '" + abbreviate(value) + "'");
    }

    private static String abbreviate(String s) {
        return s.length() <= 64 ? s : s.substring(0, 61) + "...";
    }
}
