package io.lifeline.connector.inbound.exposition;

/**
 * Number parsing for sample values, label values like {@code le} and timestamps.
 *
 * <p>The accepted float grammar is OpenMetrics': an optional sign, then decimal digits with an optional
 * fraction and exponent, or {@code Inf}, {@code Infinity} or {@code NaN} in any letter case. Hexadecimal,
 * binary, octal, digit separators ({@code 1_2}) and Java's {@code d}/{@code f} suffixes are refused. The common
 * exporter values (up to 15 significant digits, no exponent) take an exact fast path (one correctly rounded
 * division), everything else goes through {@link Double#parseDouble} once the grammar has been checked.
 */
final class Numbers {

    private static final double[] POW10 = new double[23];

    static {
        double p = 1;
        for (int i = 0; i < POW10.length; i++) {
            POW10[i] = p;
            p *= 10;
        }
    }

    private Numbers() {}

    /** Parses a float token; fails with a message naming {@code what}. */
    static double parseFloat(char[] b, int s, int e, String what) {
        if (s >= e) {
            throw new ParseFailure("missing " + what);
        }
        int i = s;
        boolean negative = false;
        if (b[i] == '+' || b[i] == '-') {
            negative = b[i] == '-';
            i++;
        }
        if (i == e) {
            throw invalid(b, s, e, what);
        }
        if (Character.isLetter(b[i])) {
            return special(b, s, i, e, negative, what);
        }
        long mantissa = 0;
        int significant = 0;
        int fractionDigits = 0;
        boolean digits = false;
        boolean slow = false;
        while (i < e && isDigit(b[i])) {
            digits = true;
            int d = b[i++] - '0';
            if (mantissa == 0 && d == 0) {
                continue;
            }
            if (significant < 18) {
                mantissa = mantissa * 10 + d;
                significant++;
            } else {
                slow = true;
            }
        }
        if (i < e && b[i] == '.') {
            i++;
            while (i < e && isDigit(b[i])) {
                digits = true;
                int d = b[i++] - '0';
                if (significant < 18) {
                    if (mantissa != 0 || d != 0) {
                        mantissa = mantissa * 10 + d;
                        significant++;
                    }
                    fractionDigits++;
                } else {
                    slow = true;
                }
            }
        }
        if (!digits) {
            throw invalid(b, s, e, what);
        }
        if (i < e && (b[i] == 'e' || b[i] == 'E')) {
            slow = true;
            i++;
            if (i < e && (b[i] == '+' || b[i] == '-')) {
                i++;
            }
            int expStart = i;
            while (i < e && isDigit(b[i])) {
                i++;
            }
            if (i == expStart) {
                throw invalid(b, s, e, what);
            }
        }
        if (i != e) {
            throw invalid(b, s, e, what);
        }
        if (!slow && significant <= 15 && fractionDigits < POW10.length) {
            double v = fractionDigits == 0 ? (double) mantissa : mantissa / POW10[fractionDigits];
            return negative ? -v : v;
        }
        return Double.parseDouble(new String(b, s, e - s));
    }

    /** Parses a label value that holds a float (such as {@code le} or {@code quantile}); {@code null} if invalid. */
    static Double parseFloatOrNull(String s) {
        try {
            char[] c = s.toCharArray();
            return parseFloat(c, 0, c.length, "number");
        } catch (ParseFailure e) {
            return null;
        }
    }

    /** Prometheus text timestamp: integer milliseconds, optionally signed. */
    static long parseMillis(char[] b, int s, int e) {
        int i = s;
        boolean negative = false;
        if (i < e && (b[i] == '+' || b[i] == '-')) {
            negative = b[i] == '-';
            i++;
        }
        if (i == e) {
            throw invalid(b, s, e, "timestamp");
        }
        long v = 0;
        for (; i < e; i++) {
            char c = b[i];
            if (!isDigit(c)) {
                throw new ParseFailure("invalid timestamp '" + new String(b, s, e - s)
                        + "': Prometheus text timestamps are integer milliseconds");
            }
            if (v > (Long.MAX_VALUE - (c - '0')) / 10) {
                throw new ParseFailure("timestamp out of range: " + new String(b, s, e - s));
            }
            v = v * 10 + (c - '0');
        }
        return negative ? -v : v;
    }

    /** OpenMetrics timestamp: seconds as a float, neither NaN nor infinite. */
    static double parseSeconds(char[] b, int s, int e) {
        double v = parseFloat(b, s, e, "timestamp");
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            throw new ParseFailure("invalid timestamp '" + new String(b, s, e - s) + "': must be a finite number");
        }
        return v;
    }

    /** Seconds to milliseconds, rounded; {@link Math#round(double)} saturates outside the long range. */
    static long secondsToMillis(double seconds) {
        return Math.round(seconds * 1000.0);
    }

    /** Whether a value is a whole number (as counts and bucket values must be). */
    static boolean isWhole(double v) {
        return !Double.isNaN(v) && !Double.isInfinite(v) && v == Math.rint(v);
    }

    private static double special(char[] b, int s, int i, int e, boolean negative, String what) {
        int len = e - i;
        if (equalsIgnoreCase(b, i, len, "inf") || equalsIgnoreCase(b, i, len, "infinity")) {
            return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        if (equalsIgnoreCase(b, i, len, "nan")) {
            return Double.NaN;
        }
        throw invalid(b, s, e, what);
    }

    private static boolean equalsIgnoreCase(char[] b, int off, int len, String word) {
        if (len != word.length()) {
            return false;
        }
        for (int k = 0; k < len; k++) {
            if (Character.toLowerCase(b[off + k]) != word.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static ParseFailure invalid(char[] b, int s, int e, String what) {
        String token = new String(b, s, Math.min(e - s, 64));
        return new ParseFailure("invalid " + what + " '" + token + "'");
    }
}
