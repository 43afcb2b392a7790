package io.lifeline.connector.inbound.exposition;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parser of the Prometheus text format 0.0.4 and OpenMetrics 1.0 text, pure JDK.
 *
 * <p><b>Prometheus text</b> is read leniently, the way Prometheus reads it: blank lines and comments are
 * skipped, tokens may be separated by several spaces or tabs, a trailing comma in a label set is fine, no
 * {@code # EOF} is needed (one is taken as a comment), values may be {@code NaN}, {@code +Inf}, {@code -Inf},
 * timestamps are integer milliseconds, label values unescape {@code \\}, {@code \"} and {@code \n}, and the
 * quoted UTF-8 syntax ({@code {"my.dotted.metric", "error.message"="Not Found"} 1}) is understood. One
 * deliberate difference from Prometheus: a bad line does not fail the whole scrape; it is reported in
 * {@link Exposition#errors()} with its line number and the other lines are kept. A line of the quoted syntax
 * without a value (as in the Prometheus documentation's own example) is such a bad line.
 *
 * <p><b>OpenMetrics</b> is read strictly: exact single spaces, {@code # EOF} last, only HELP/TYPE/UNIT
 * comments, and the family rules of {@link OpenMetricsValidator}. The first violation rejects the exposition.
 * Exemplars are checked but not returned.
 *
 * <p>An instance keeps a small cache of the strings it made (names, label values) so that parsing the same
 * exporter again mostly reuses them; it is therefore <em>not</em> thread-safe: use one per thread or the static
 * methods.
 */
public final class ExpositionParser {

    /** A label set larger than this is an attack or a bug, not an exporter. */
    static final int MAX_LABELS = 256;

    private static final int EXEMPLAR_MAX_CODE_POINTS = 128;
    /** Bodies up to this many characters are decoded into a buffer the parser keeps for the next call. */
    private static final int MAX_RETAINED_CHARS = 1 << 20;

    private final StringCache strings = new StringCache(4096);
    private String[] scratch = new String[32];
    private char[] unescape = new char[128];
    private char[] retained = new char[0];

    // State of the parse in progress.
    private char[] b;
    private int pos;
    private int lineEnd;
    private String quotedName;

    /** Parses text with a fresh parser. */
    public static Exposition parse(CharSequence text, Format format) {
        return new ExpositionParser().parseText(text, format);
    }

    /** Parses a UTF-8 body with a fresh parser. */
    public static Exposition parse(byte[] utf8, Format format) {
        return new ExpositionParser().parseBytes(utf8, format);
    }

    /** Parses text. */
    public Exposition parseText(CharSequence text, Format format) {
        int n = text.length();
        char[] chars = buffer(n);
        if (text instanceof String s) {
            s.getChars(0, n, chars, 0);
        } else {
            for (int i = 0; i < n; i++) {
                chars[i] = text.charAt(i);
            }
        }
        return run(chars, n, format);
    }

    /**
     * Parses a UTF-8 body. Malformed UTF-8 rejects an OpenMetrics exposition and is replaced by U+FFFD in
     * Prometheus text.
     */
    public Exposition parseBytes(byte[] utf8, Format format) {
        char[] chars = buffer(utf8.length);
        int ascii = 0;
        for (int i = 0; i < utf8.length; i++) {
            ascii |= utf8[i];
            chars[i] = (char) (utf8[i] & 0xff);
        }
        if (ascii >= 0) {
            return run(chars, utf8.length, format);
        }
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder();
        CodingErrorAction onError = format == Format.OPENMETRICS ? CodingErrorAction.REPORT : CodingErrorAction.REPLACE;
        decoder.onMalformedInput(onError).onUnmappableCharacter(onError);
        try {
            CharBuffer decoded = decoder.decode(ByteBuffer.wrap(utf8));
            return run(decoded.array(), decoded.limit(), format);
        } catch (CharacterCodingException e) {
            return new Exposition(
                    format,
                    new ArrayList<>(),
                    new LinkedHashMap<>(),
                    new ArrayList<>(List.of(new ParseError(0, "invalid UTF-8: " + e.getMessage()))));
        }
    }

    /** A buffer for {@code n} characters: the retained one when it fits (scrapes are parsed again and again). */
    private char[] buffer(int n) {
        if (n > MAX_RETAINED_CHARS) {
            return new char[n];
        }
        if (retained.length < n) {
            retained = new char[Math.max(n, Math.min(MAX_RETAINED_CHARS, retained.length * 2))];
        }
        return retained;
    }

    private Exposition run(char[] chars, int length, Format format) {
        this.b = chars;
        List<Sample> samples = new ArrayList<>(Math.max(16, length / 160));
        Map<String, MetricMetadata> metadata = new LinkedHashMap<>();
        List<ParseError> errors = new ArrayList<>();
        boolean strict = format == Format.OPENMETRICS;
        OpenMetricsValidator validator = strict ? new OpenMetricsValidator() : null;
        boolean eof = false;
        int lineNo = 0;
        int start = 0;
        try {
            while (start < length) {
                int nl = indexOfNewline(start, length);
                lineNo++;
                try {
                    if (strict) {
                        if (eof) {
                            throw new ParseFailure("text after # EOF");
                        }
                        eof = openMetricsLine(start, nl, samples, metadata, validator);
                    } else {
                        prometheusLine(start, nl, samples, metadata);
                    }
                } catch (ParseFailure f) {
                    errors.add(new ParseError(lineNo, f.getMessage()));
                    if (strict) {
                        return rejected(format, errors);
                    }
                }
                start = nl + 1;
            }
            if (strict) {
                if (!eof) {
                    errors.add(new ParseError(lineNo, "missing # EOF at the end"));
                    return rejected(format, errors);
                }
                try {
                    validator.finish();
                } catch (ParseFailure f) {
                    errors.add(new ParseError(lineNo, f.getMessage()));
                    return rejected(format, errors);
                }
            }
            return new Exposition(format, samples, metadata, errors);
        } finally {
            this.b = null;
        }
    }

    private static Exposition rejected(Format format, List<ParseError> errors) {
        return new Exposition(format, new ArrayList<>(), new LinkedHashMap<>(), errors);
    }

    private int indexOfNewline(int from, int length) {
        for (int i = from; i < length; i++) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return length;
    }

    // ---------------------------------------------------------------- Prometheus text (lenient)

    private void prometheusLine(int start, int end, List<Sample> samples, Map<String, MetricMetadata> metadata) {
        if (end > start && b[end - 1] == '\r') {
            end--;
        }
        pos = start;
        lineEnd = end;
        skipBlanks();
        if (pos == lineEnd) {
            return;
        }
        if (b[pos] == '#') {
            prometheusComment(metadata);
            return;
        }
        String name = null;
        quotedName = null;
        int labelCount = 0;
        if (b[pos] == '{') {
            labelCount = lenientLabels();
            name = quotedName;
        } else {
            name = metricName();
            if (pos < lineEnd && b[pos] != ' ' && b[pos] != '\t' && b[pos] != '{') {
                throw new ParseFailure("invalid character '" + b[pos] + "' in metric name");
            }
            skipBlanks();
            if (pos < lineEnd && b[pos] == '{') {
                labelCount = lenientLabels();
                if (quotedName != null) {
                    throw new ParseFailure("metric name given twice");
                }
            }
        }
        if (name == null) {
            throw new ParseFailure("missing metric name");
        }
        skipBlanks();
        int valueStart = pos;
        while (pos < lineEnd && b[pos] != ' ' && b[pos] != '\t') {
            pos++;
        }
        if (pos == valueStart) {
            throw new ParseFailure("missing value for " + name);
        }
        double value = Numbers.parseFloat(b, valueStart, pos, "value");
        skipBlanks();
        long ts = Sample.NO_TIMESTAMP;
        if (pos < lineEnd) {
            int tsStart = pos;
            while (pos < lineEnd && b[pos] != ' ' && b[pos] != '\t') {
                pos++;
            }
            ts = Numbers.parseMillis(b, tsStart, pos);
            skipBlanks();
            if (pos < lineEnd) {
                throw new ParseFailure("unexpected text after the timestamp");
            }
        }
        samples.add(new Sample(name, Labels.copyOf(scratch, labelCount), value, ts));
    }

    private void prometheusComment(Map<String, MetricMetadata> metadata) {
        pos++;
        skipBlanks();
        int wordStart = pos;
        while (pos < lineEnd && b[pos] != ' ' && b[pos] != '\t') {
            pos++;
        }
        boolean help = isWord(wordStart, pos, "HELP");
        boolean type = !help && isWord(wordStart, pos, "TYPE");
        if (!help && !type) {
            return; // an ordinary comment (also "# EOF", which Prometheus text does not need)
        }
        skipBlanks();
        String name;
        if (pos < lineEnd && b[pos] == '"') {
            pos++;
            name = quoted();
        } else {
            name = metricName();
        }
        if (pos < lineEnd && b[pos] != ' ' && b[pos] != '\t') {
            throw new ParseFailure("invalid character '" + b[pos] + "' in metric name");
        }
        skipBlanks();
        MetricMetadata current = metadata.get(name);
        MetricMetadata md = current == null ? new MetricMetadata(name, null, null, null) : current;
        if (help) {
            if (current != null && current.help() != null) {
                throw new ParseFailure("second HELP line for " + name);
            }
            metadata.put(name, md.withHelp(unescapeHelp(pos, lineEnd, false)));
            return;
        }
        int typeEnd = lineEnd;
        while (typeEnd > pos && (b[typeEnd - 1] == ' ' || b[typeEnd - 1] == '\t')) {
            typeEnd--;
        }
        String typeName = new String(b, pos, typeEnd - pos);
        MetricType t = MetricType.fromPrometheus(typeName);
        if (t == null) {
            throw new ParseFailure("unknown metric type '" + typeName + "' for " + name);
        }
        if (current != null && current.type() != null) {
            throw new ParseFailure("second TYPE line for " + name);
        }
        metadata.put(name, md.withType(t));
    }

    /** Reads {@code {...}} leniently; a bare quoted string first is the metric name (left in {@link #quotedName}). */
    private int lenientLabels() {
        pos++;
        int count = 0;
        boolean first = true;
        while (true) {
            skipBlanks();
            if (pos >= lineEnd) {
                throw new ParseFailure("unterminated label set");
            }
            if (b[pos] == '}') {
                pos++;
                return count;
            }
            String labelName;
            if (b[pos] == '"') {
                pos++;
                String q = quoted();
                skipBlanks();
                if (pos < lineEnd && b[pos] == '=') {
                    labelName = q;
                } else if (first) {
                    quotedName = q;
                    first = false;
                    if (!endOfLabelItem()) {
                        pos++;
                        return count;
                    }
                    continue;
                } else {
                    throw new ParseFailure("a quoted metric name must come first in the braces");
                }
            } else {
                labelName = labelName();
                skipBlanks();
            }
            first = false;
            expect('=');
            skipBlanks();
            expect('"');
            count = addLabel(count, labelName, quoted());
            if (!endOfLabelItem()) {
                pos++;
                return count;
            }
        }
    }

    /** After a label: true if a comma follows (more may come), false if the closing brace does (not consumed). */
    private boolean endOfLabelItem() {
        skipBlanks();
        if (pos < lineEnd && b[pos] == ',') {
            pos++;
            return true;
        }
        if (pos < lineEnd && b[pos] == '}') {
            return false;
        }
        throw new ParseFailure("expected ',' or '}' in the label set");
    }

    // ---------------------------------------------------------------- OpenMetrics (strict)

    /** Returns true for the {@code # EOF} line. */
    private boolean openMetricsLine(
            int start,
            int end,
            List<Sample> samples,
            Map<String, MetricMetadata> metadata,
            OpenMetricsValidator validator) {
        pos = start;
        lineEnd = end;
        if (start == end) {
            throw new ParseFailure("blank lines are not allowed");
        }
        if (b[start] == '#') {
            if (isWord(start, end, "# EOF")) {
                return true;
            }
            openMetricsMetadata(metadata, validator);
            return false;
        }
        String name = metricName();
        int labelCount = 0;
        if (pos < lineEnd && b[pos] == '{') {
            labelCount = strictLabels(0);
        }
        expect(' ');
        int valueStart = pos;
        while (pos < lineEnd && b[pos] != ' ') {
            pos++;
        }
        double value = Numbers.parseFloat(b, valueStart, pos, "value");
        boolean hasTimestamp = false;
        double seconds = 0;
        boolean exemplar = false;
        if (pos < lineEnd) {
            pos++;
            if (pos < lineEnd && b[pos] == '#') {
                exemplar = true;
            } else {
                int tsStart = pos;
                while (pos < lineEnd && b[pos] != ' ') {
                    pos++;
                }
                seconds = Numbers.parseSeconds(b, tsStart, pos);
                hasTimestamp = true;
                if (pos < lineEnd) {
                    pos++;
                    exemplar = true;
                }
            }
        }
        Labels labels = Labels.copyOf(scratch, labelCount);
        if (exemplar) {
            exemplar(labelCount);
        }
        validator.sample(name, labels, value, hasTimestamp, seconds, exemplar);
        samples.add(
                new Sample(name, labels, value, hasTimestamp ? Numbers.secondsToMillis(seconds) : Sample.NO_TIMESTAMP));
        return false;
    }

    /** Reads {@code # {labels} value [timestamp]} to the end of the line; the scratch labels of the sample stay. */
    private void exemplar(int sampleLabelCount) {
        expect('#');
        expect(' ');
        if (pos >= lineEnd || b[pos] != '{') {
            throw new ParseFailure("an exemplar starts with a label set");
        }
        int end = strictLabels(sampleLabelCount);
        int codePoints = 0;
        for (int i = sampleLabelCount; i < end; i++) {
            String n = scratch[2 * i];
            String v = scratch[2 * i + 1];
            codePoints += n.codePointCount(0, n.length()) + v.codePointCount(0, v.length());
        }
        if (codePoints > EXEMPLAR_MAX_CODE_POINTS) {
            throw new ParseFailure("exemplar labels longer than " + EXEMPLAR_MAX_CODE_POINTS + " characters");
        }
        expect(' ');
        int valueStart = pos;
        while (pos < lineEnd && b[pos] != ' ') {
            pos++;
        }
        Numbers.parseFloat(b, valueStart, pos, "exemplar value");
        if (pos < lineEnd) {
            pos++;
            int tsStart = pos;
            while (pos < lineEnd && b[pos] != ' ') {
                pos++;
            }
            Numbers.parseSeconds(b, tsStart, pos);
            if (pos < lineEnd) {
                throw new ParseFailure("unexpected text after the exemplar timestamp");
            }
        }
    }

    private void openMetricsMetadata(Map<String, MetricMetadata> metadata, OpenMetricsValidator validator) {
        expect('#');
        expect(' ');
        int wordStart = pos;
        while (pos < lineEnd && b[pos] != ' ') {
            pos++;
        }
        int kind = isWord(wordStart, pos, "HELP")
                ? 0
                : isWord(wordStart, pos, "TYPE") ? 1 : isWord(wordStart, pos, "UNIT") ? 2 : -1;
        if (kind < 0) {
            throw new ParseFailure("OpenMetrics allows only # HELP, # TYPE, # UNIT and # EOF comments");
        }
        expect(' ');
        String name = metricName();
        expect(' ');
        MetricMetadata current = metadata.get(name);
        MetricMetadata md = current == null ? new MetricMetadata(name, null, null, null) : current;
        if (kind == 0) {
            validator.help(name);
            metadata.put(name, md.withHelp(unescapeHelp(pos, lineEnd, true)));
        } else if (kind == 1) {
            String typeName = new String(b, pos, lineEnd - pos);
            MetricType t = MetricType.fromOpenMetrics(typeName);
            if (t == null) {
                throw new ParseFailure("unknown metric type '" + typeName + "' for " + name);
            }
            validator.type(name, t);
            metadata.put(name, md.withType(t));
        } else {
            String unit = new String(b, pos, lineEnd - pos);
            for (int i = 0; i < unit.length(); i++) {
                if (!isNameChar(unit.charAt(i), i > 0)) {
                    throw new ParseFailure("invalid unit '" + unit + "' for " + name);
                }
            }
            validator.unit(name, unit);
            metadata.put(name, md.withUnit(unit));
        }
    }

    /**
     * Reads {@code {name="value",...}} strictly, appending to the scratch labels after {@code count} existing
     * ones; returns the new count. No spaces, no trailing comma.
     */
    private int strictLabels(int count) {
        int base = count;
        pos++;
        if (pos < lineEnd && b[pos] == '}') {
            pos++;
            return count;
        }
        while (true) {
            String labelName = labelName();
            expect('=');
            expect('"');
            count = addLabel(count, labelName, quoted(), base);
            if (pos < lineEnd && b[pos] == ',') {
                pos++;
            } else if (pos < lineEnd && b[pos] == '}') {
                pos++;
                return count;
            } else {
                throw new ParseFailure("expected ',' or '}' in the label set");
            }
        }
    }

    // ---------------------------------------------------------------- tokens shared by both formats

    private int addLabel(int count, String labelName, String value) {
        return addLabel(count, labelName, value, 0);
    }

    private int addLabel(int count, String labelName, String value, int from) {
        for (int i = from; i < count; i++) {
            String n = scratch[2 * i];
            if (n.equals(labelName)) {
                throw new ParseFailure("duplicate label " + labelName);
            }
        }
        if (count >= MAX_LABELS) {
            throw new ParseFailure("more than " + MAX_LABELS + " labels");
        }
        if (2 * count + 1 >= scratch.length) {
            String[] bigger = new String[scratch.length * 2];
            System.arraycopy(scratch, 0, bigger, 0, scratch.length);
            scratch = bigger;
        }
        scratch[2 * count] = labelName;
        scratch[2 * count + 1] = value;
        return count + 1;
    }

    private String metricName() {
        int start = pos;
        while (pos < lineEnd && isNameChar(b[pos], pos > start)) {
            pos++;
        }
        if (pos == start) {
            throw new ParseFailure(pos < lineEnd ? "invalid metric name at '" + b[pos] + "'" : "missing metric name");
        }
        return strings.get(b, start, pos - start);
    }

    private String labelName() {
        int start = pos;
        while (pos < lineEnd && isLabelChar(b[pos], pos > start)) {
            pos++;
        }
        if (pos == start) {
            throw new ParseFailure(pos < lineEnd ? "invalid label name at '" + b[pos] + "'" : "missing label name");
        }
        return strings.get(b, start, pos - start);
    }

    /** Reads a quoted string whose opening quote was consumed; unescapes {@code \\ \" \n}, keeps other escapes. */
    private String quoted() {
        int start = pos;
        while (pos < lineEnd) {
            char c = b[pos];
            if (c == '"') {
                String s = strings.get(b, start, pos - start);
                pos++;
                return s;
            }
            if (c == '\\') {
                return quotedWithEscapes(start);
            }
            pos++;
        }
        throw new ParseFailure("unterminated quoted string");
    }

    private String quotedWithEscapes(int start) {
        int n = 0;
        for (int i = start; i < pos; i++) {
            n = put(n, b[i]);
        }
        while (pos < lineEnd) {
            char c = b[pos++];
            if (c == '"') {
                return strings.get(unescape, 0, n);
            }
            if (c == '\\' && pos < lineEnd) {
                char e = b[pos++];
                if (e == 'n') {
                    n = put(n, '\n');
                } else if (e == '\\' || e == '"') {
                    n = put(n, e);
                } else {
                    n = put(put(n, '\\'), e);
                }
            } else {
                n = put(n, c);
            }
        }
        throw new ParseFailure("unterminated quoted string");
    }

    private int put(int n, char c) {
        if (n == unescape.length) {
            char[] bigger = new char[n * 2];
            System.arraycopy(unescape, 0, bigger, 0, n);
            unescape = bigger;
        }
        unescape[n] = c;
        return n + 1;
    }

    /** HELP text: {@code \\} and {@code \n} are escapes in both formats, {@code \"} in OpenMetrics too. */
    private String unescapeHelp(int start, int end, boolean quoteEscape) {
        StringBuilder sb = new StringBuilder(end - start);
        for (int i = start; i < end; i++) {
            char c = b[i];
            if (c == '\\' && i + 1 < end) {
                char e = b[i + 1];
                if (e == 'n') {
                    sb.append('\n');
                    i++;
                    continue;
                }
                if (e == '\\' || (quoteEscape && e == '"')) {
                    sb.append(e);
                    i++;
                    continue;
                }
            }
            sb.append(c);
        }
        return sb.toString();
    }

    private void expect(char c) {
        if (pos >= lineEnd || b[pos] != c) {
            String found = pos >= lineEnd ? "end of line" : "'" + b[pos] + "'";
            throw new ParseFailure("expected '" + c + "' but found " + found);
        }
        pos++;
    }

    private void skipBlanks() {
        while (pos < lineEnd && (b[pos] == ' ' || b[pos] == '\t')) {
            pos++;
        }
    }

    private boolean isWord(int start, int end, String word) {
        if (end - start != word.length()) {
            return false;
        }
        for (int i = 0; i < word.length(); i++) {
            if (b[start + i] != word.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isNameChar(char c, boolean notFirst) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || c == '_'
                || c == ':'
                || (notFirst && c >= '0' && c <= '9');
    }

    private static boolean isLabelChar(char c, boolean notFirst) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (notFirst && c >= '0' && c <= '9');
    }
}
