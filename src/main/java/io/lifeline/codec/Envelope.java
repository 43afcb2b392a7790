package io.lifeline.codec;

import com.fasterxml.jackson.databind.JsonNode;
import io.lifeline.domain.event.EventType;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The CloudEvents 1.0 envelope rules, and the limits of what the event log (PostgreSQL) and the model accept, in one
 * place for structured and binary mode alike. Everything is checked here, before storage, so that the database never
 * has to refuse an event: a refusal there would hold up every event behind it.
 */
final class Envelope {

    static final int MAX_ID = 256;
    static final int MAX_SOURCE = 1024;
    static final int MAX_SUBJECT = 253;
    static final int MAX_TYPE = 256;
    static final int MAX_EXTENSION_NAME = 64;
    static final int MAX_EXTENSIONS = 64;
    /** The {@code data} member, as compact JSON (binary mode: the record value, in bytes). */
    static final int MAX_DATA = 64 * 1024;
    /**
     * A rendezvous names every node of its group: at about 50 characters a node, 64 KiB would stop at some 1,300 nodes
     * (10,000 GPUs), below the jobs Lifeline is for. 1 MiB holds about 20,000 nodes and still fits one Kafka record at
     * the brokers' default limit.
     */
    static final int MAX_RENDEZVOUS_DATA = 1024 * 1024;
    /**
     * The event times Lifeline takes: from the Unix epoch to the end of year 9999. PostgreSQL would store far more
     * (4713 BC to 294276 AD), but a time outside these years is a broken clock or a broken sender, not an event.
     */
    static final Instant EARLIEST = Instant.parse("1970-01-01T00:00:00Z");

    static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999999999Z");

    /** Attributes of the CloudEvents core specification; every other member is an extension. */
    static final Set<String> CORE = Set.of(
            "specversion",
            "id",
            "source",
            "type",
            "datacontenttype",
            "dataschema",
            "subject",
            "time",
            "data",
            "data_base64");

    private static final Pattern EXTENSION_NAME = Pattern.compile("[a-z0-9]+");
    /** RFC 2046 / RFC 9110 {@code type "/" subtype *( ";" parameter )}, tokens as in RFC 9110. */
    private static final Pattern MEDIA_TYPE = Pattern.compile(
            "[!#$%&'*+.^_`|~0-9A-Za-z-]+/[!#$%&'*+.^_`|~0-9A-Za-z-]+(\\s*;\\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+="
                    + "([!#$%&'*+.^_`|~0-9A-Za-z-]+|\"[^\"\\\\]*\"))*\\s*");

    private Envelope() {}

    /** A required string attribute: present, not blank, at most {@code max} characters, printable. */
    static String required(String field, String value, int max) {
        if (value == null || value.isBlank()) {
            throw new InvalidEventException(field + ": required");
        }
        return text(field, value, max);
    }

    /** A string attribute: at most {@code max} characters, printable (no control characters, valid Unicode). */
    static String text(String field, String value, int max) {
        if (value.length() > max) {
            throw new InvalidEventException(field + ": longer than " + max + " characters");
        }
        String bad = unprintable(value);
        if (bad != null) {
            throw new InvalidEventException(field + ": must not contain " + bad);
        }
        return value;
    }

    /**
     * What makes {@code s} unfit for an attribute, or null: a control character (U+0000..U+001F, U+007F..U+009F; the
     * event log's text columns refuse NUL) or a lone surrogate (not Unicode, so not UTF-8 either).
     */
    static String unprintable(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
                return c == 0 ? "NUL characters" : String.format("control characters (U+%04X at %d)", (int) c, i);
            }
            String surrogate = surrogateAt(s, i);
            if (surrogate != null) {
                return surrogate;
            }
            if (Character.isHighSurrogate(c)) {
                i++;
            }
        }
        return null;
    }

    /** What is wrong with the character at {@code i} if it is half of a surrogate pair without the other half. */
    static String surrogateAt(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) {
            if (i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                return null;
            }
            return String.format("a lone surrogate (U+%04X at %d): not valid Unicode", (int) c, i);
        }
        if (Character.isLowSurrogate(c)) {
            return String.format("a lone surrogate (U+%04X at %d): not valid Unicode", (int) c, i);
        }
        return null;
    }

    /**
     * An event time: RFC 3339 with seconds and an offset, within {@link #EARLIEST}..{@link #LATEST}, to the microsecond.
     * PostgreSQL keeps microseconds: the replica that receives an event applies it as every other replica (and itself
     * after a restart) reads it back from the log, so all of them answer with the same times.
     */
    static Instant time(String field, String value) {
        Instant t = Rfc3339.parseOrNull(value);
        if (t == null) {
            throw new InvalidEventException(
                    field + ": expected an RFC 3339 timestamp with seconds and an offset such as"
                            + " 2026-01-31T12:00:00Z or 2026-01-31T13:00:00.250+01:00, got '"
                            + DataReader.abbreviate(value) + "'");
        }
        if (t.isBefore(EARLIEST) || t.isAfter(LATEST)) {
            throw new InvalidEventException(field + ": must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59Z,"
                    + " got '" + DataReader.abbreviate(value) + "'");
        }
        return t.truncatedTo(ChronoUnit.MICROS);
    }

    /** {@code datacontenttype}: an RFC 2046 media type, and for Lifeline a JSON one. */
    static void contentType(String field, String value) {
        if (value == null) {
            return;
        }
        if (!MEDIA_TYPE.matcher(value).matches()) {
            throw new InvalidEventException(field + ": must be an RFC 2046 media type such as application/json, got '"
                    + DataReader.abbreviate(value) + "'");
        }
        String essence = value.split(";", 2)[0].trim().toLowerCase(java.util.Locale.ROOT);
        if (!essence.equals("application/json") && !essence.endsWith("+json")) {
            throw new InvalidEventException(
                    field + ": must be application/json, got '" + DataReader.abbreviate(value) + "'");
        }
    }

    /** {@code dataschema}: when present, a non-empty absolute URI. */
    static void dataSchema(String field, String value) {
        if (value == null) {
            return;
        }
        text(field, value, DataReader.MAX_STRING);
        if (value.isEmpty()) {
            throw new InvalidEventException(field + ": must be a non-empty absolute URI when present");
        }
        try {
            if (!new URI(value).isAbsolute()) {
                throw new InvalidEventException(
                        field + ": must be an absolute URI, got '" + DataReader.abbreviate(value) + "'");
            }
        } catch (URISyntaxException e) {
            throw new InvalidEventException(
                    field + ": not a URI (" + e.getReason() + "), got '" + DataReader.abbreviate(value) + "'");
        }
    }

    /**
     * The extension attributes of a structured-mode event: every member that is not a core attribute. Values are
     * checked before names, so that a bad value is named as such whatever the name.
     */
    static void extensions(JsonNode event) {
        int count = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = event.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> member = it.next();
            String name = member.getKey();
            if (CORE.contains(name) || member.getValue().isNull()) {
                continue;
            }
            if (++count > MAX_EXTENSIONS) {
                throw new InvalidEventException("extensions: more than " + MAX_EXTENSIONS + " extension attributes");
            }
            extensionValue(name, member.getValue());
            extensionName(name, name);
        }
    }

    /**
     * An extension attribute's name: lower-case ASCII letters and digits (CloudEvents 1.0), at most
     * {@link #MAX_EXTENSION_NAME} characters.
     */
    static void extensionName(String field, String name) {
        if (name.length() > MAX_EXTENSION_NAME) {
            throw new InvalidEventException("extension '" + DataReader.abbreviate(field) + "': name longer than "
                    + MAX_EXTENSION_NAME + " characters");
        }
        if (!EXTENSION_NAME.matcher(name).matches()) {
            throw new InvalidEventException("extension '" + DataReader.abbreviate(field)
                    + "': attribute names are lower-case letters a-z and digits 0-9 only");
        }
    }

    /** A structured-mode extension value: a string, a boolean or an integer of CloudEvents' 32-bit range. */
    private static void extensionValue(String name, JsonNode v) {
        String field = "extension '" + DataReader.abbreviate(name) + "'";
        if (v.isTextual()) {
            text(field, v.textValue(), DataReader.MAX_STRING);
        } else if (v.isNumber()) {
            if (!v.isIntegralNumber() || !v.canConvertToInt()) {
                throw new InvalidEventException(field + ": a number must be an integer between -2147483648 and"
                        + " 2147483647, got " + DataReader.abbreviate(v.asText()));
            }
        } else if (!v.isBoolean()) {
            throw new InvalidEventException(
                    field + ": must be a string, a boolean or an integer, got " + DataReader.describe(v));
        }
    }

    /** The largest {@code data} an event of {@code type} may carry. */
    static int maxData(EventType type) {
        return type == EventType.TRAINER_RENDEZVOUS ? MAX_RENDEZVOUS_DATA : MAX_DATA;
    }

    /** Fails when {@code data} would be more than {@link #maxData} characters as compact JSON. */
    static void dataSize(EventType type, JsonNode data) {
        int max = maxData(type);
        if (jsonLength(data, max) > max) {
            throw new InvalidEventException("data: larger than " + max + " characters of JSON");
        }
    }

    /** The length of {@code node} as compact JSON (escapes aside), counting no further than just past {@code limit}. */
    private static long jsonLength(JsonNode node, long limit) {
        if (node.isTextual()) {
            return node.textValue().length() + 2L;
        }
        if (node.isContainerNode()) {
            long n = 2;
            if (node.isObject()) {
                for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext() && n <= limit; ) {
                    Map.Entry<String, JsonNode> f = it.next();
                    n += f.getKey().length() + 4 + jsonLength(f.getValue(), limit - n);
                }
            } else {
                for (int i = 0; i < node.size() && n <= limit; i++) {
                    n += 1 + jsonLength(node.get(i), limit - n);
                }
            }
            return n;
        }
        if (node.isIntegralNumber() && node.canConvertToLong()) {
            // Counted, not printed: a sample's numbers are most of its data, and asText() allocates for each.
            return decimalLength(node.longValue());
        }
        return node.asText().length();
    }

    /** The number of characters of {@code v} in decimal, its sign included. */
    static int decimalLength(long v) {
        if (v == Long.MIN_VALUE) {
            return 20;
        }
        int n = v < 0 ? 2 : 1;
        for (long a = Math.abs(v); a >= 10; a /= 10) {
            n++;
        }
        return n;
    }
}
