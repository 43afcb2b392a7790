package io.lifeline.codec;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventData;
import io.lifeline.domain.event.EventType;
import io.lifeline.platform.Json;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * CloudEvents 1.0 JSON codec for the Lifeline catalogue: structured mode (one event, a JSON array
 * batch, or NDJSON) and the data member of binary mode. Every rejection names the field and the reason;
 * one bad event never takes the others of its batch with it. Thread-safe.
 */
public final class EventCodec {

    /** Deep nesting is an attack, not an event: no catalogue event nests deeper than a few levels. */
    static final int MAX_NESTING = 32;
    /** Attributes binary mode reads itself; every other header with the prefix is an extension. */
    private static final Set<String> BINARY_CORE =
            Set.of("specversion", "id", "source", "type", "subject", "time", "datacontenttype", "dataschema");

    private final ObjectMapper mapper;
    /**
     * Reads and writes trees with their types resolved once: {@code ObjectMapper.readTree} resolves the tree type anew
     * on every call, a tenth of decoding an event.
     */
    private final ObjectReader trees;

    private final ObjectWriter writer;
    private final EnvelopeReader envelopes;

    public EventCodec() {
        this.mapper = Json.bounded(StreamReadConstraints.builder()
                .maxNestingDepth(MAX_NESTING)
                .maxStringLength(1 << 20)
                .maxNumberLength(64)
                .build());
        this.trees = mapper.readerFor(JsonNode.class);
        this.writer = mapper.writer();
        this.envelopes = new EnvelopeReader(trees);
    }

    /**
     * Decodes a structured-mode body: a single event object, an array of them, or (when {@code ndjson})
     * one event per line. A body that is not JSON at all fails with {@link InvalidEventException}.
     */
    public DecodedBatch decodeBody(byte[] body, boolean ndjson) {
        if (ndjson) {
            return decodeNdjson(body);
        }
        List<Event> events = new ArrayList<>();
        List<Integer> positions = new ArrayList<>();
        List<Refusal> rejections = new ArrayList<>();
        try (JsonParser p = trees.createParser(body)) {
            JsonToken first = p.nextToken();
            if (first == null) {
                throw new InvalidEventException("empty body");
            }
            if (first == JsonToken.START_ARRAY) {
                int i = 0;
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    if (p.currentToken() == null) {
                        throw new InvalidEventException("malformed JSON: unexpected end of input in the array");
                    }
                    decodeInto(i++, p, events, positions, rejections);
                }
            } else if (first == JsonToken.START_OBJECT) {
                decodeInto(0, p, events, positions, rejections);
            } else {
                throw new InvalidEventException("expected a CloudEvent object or an array of them, got "
                        + DataReader.describe(trees.readTree(p)));
            }
            // As a tree read would: the whole body must be well-formed JSON, whatever follows the value is ignored.
        } catch (JsonProcessingException e) {
            throw new InvalidEventException("malformed JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new InvalidEventException("unreadable body: " + e.getMessage());
        }
        return new DecodedBatch(events, positions, rejections);
    }

    private DecodedBatch decodeNdjson(byte[] body) {
        List<Event> events = new ArrayList<>();
        List<Integer> positions = new ArrayList<>();
        List<Refusal> rejections = new ArrayList<>();
        int index = 0;
        int start = 0;
        for (int i = 0; i <= body.length; i++) {
            if (i == body.length || body[i] == '\n') {
                int end = i;
                if (end > start && body[end - 1] == '\r') {
                    end--;
                }
                if (end > start && !isBlank(body, start, end)) {
                    try (JsonParser p = trees.createParser(body, start, end - start)) {
                        if (p.nextToken() == null) {
                            throw new InvalidEventException("expected a CloudEvent object, got nothing");
                        }
                        decodeInto(index, p, events, positions, rejections);
                    } catch (IOException e) {
                        rejections.add(new Refusal(
                                index,
                                null,
                                "line " + (index + 1) + ": malformed JSON: "
                                        + (e instanceof JsonProcessingException j
                                                ? j.getOriginalMessage()
                                                : e.getMessage())));
                    }
                    index++;
                }
                start = i + 1;
            }
        }
        return new DecodedBatch(events, positions, rejections);
    }

    private static boolean isBlank(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != ' ' && b[i] != '\t') {
                return false;
            }
        }
        return true;
    }

    /** Decodes the value at the parser's current token into {@code events}, or its refusal into {@code rejections}. */
    private void decodeInto(
            int index, JsonParser p, List<Event> events, List<Integer> positions, List<Refusal> rejections)
            throws IOException {
        EnvelopeReader.Decoded d;
        try {
            d = envelopes.read(p, this);
        } catch (EnvelopeReader.Refused r) {
            rejections.add(new Refusal(index, r.id() == null ? null : DataReader.abbreviate(r.id()), r.getMessage()));
            return;
        }
        if (d.event() != null) {
            events.add(d.event());
            positions.add(index);
        } else {
            decodeInto(index, d.tree(), events, positions, rejections);
        }
    }

    private void decodeInto(
            int index, JsonNode node, List<Event> events, List<Integer> positions, List<Refusal> rejections) {
        String id = node != null && node.isObject() && node.path("id").isTextual()
                ? node.get("id").textValue()
                : null;
        try {
            events.add(decodeEvent(node));
            positions.add(index);
        } catch (InvalidEventException e) {
            rejections.add(new Refusal(index, id == null ? null : DataReader.abbreviate(id), e.getMessage()));
        }
    }

    /**
     * Decodes one structured-mode event from its JSON text (a Kafka record's value), reading the attributes off the
     * parser: the same event or refusal as {@code decodeEvent(parse(json))}.
     */
    public Event decodeStructured(byte[] json) {
        try (JsonParser p = trees.createParser(json)) {
            if (p.nextToken() == null) {
                return decodeEvent(parse(json));
            }
            EnvelopeReader.Decoded d = envelopes.read(p, this);
            return d.event() != null ? d.event() : decodeEvent(d.tree());
        } catch (JsonProcessingException e) {
            throw new InvalidEventException("malformed JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new InvalidEventException("unreadable JSON: " + e.getMessage());
        }
    }

    /**
     * The attributes read by {@link EnvelopeReader} (in its order; null when absent) and {@code data}, checked in the
     * order {@link #decodeEvent(JsonNode)} checks them.
     */
    Event decodeAttributes(String[] a, JsonNode data) {
        specversion("specversion", checked("specversion", a[0]));
        Envelope.contentType("datacontenttype", checked("datacontenttype", a[6]));
        Envelope.dataSchema("dataschema", checked("dataschema", a[7]));
        return decode(
                "",
                checked("id", a[1]),
                checked("source", a[2]),
                checked("type", a[3]),
                checked("subject", a[4]),
                checked("time", a[5]),
                data);
    }

    private static String checked(String field, String value) {
        return value == null ? null : DataReader.checked(field, value);
    }

    /** Decodes one structured-mode event object. */
    public Event decodeEvent(JsonNode node) {
        if (node == null || !node.isObject()) {
            throw new InvalidEventException("expected a CloudEvent object, got " + DataReader.describe(node));
        }
        DataReader env = new DataReader(node, "");
        specversion("specversion", env.optString("specversion"));
        Envelope.contentType("datacontenttype", env.optString("datacontenttype"));
        Envelope.dataSchema("dataschema", env.optString("dataschema"));
        if (node.has("data_base64")) {
            throw new InvalidEventException("data_base64: binary data is not accepted; send JSON in data");
        }
        Envelope.extensions(node);
        return decode(
                "",
                env.optString("id"),
                env.optString("source"),
                env.optString("type"),
                env.optString("subject"),
                env.optString("time"),
                node.get("data"));
    }

    /** A transport header as received: its name and its raw value (null when it has none). */
    public record Header(String name, byte[] value) {}

    /**
     * Decodes a binary-mode event: the attributes from the headers named {@code prefix} + attribute name (Kafka:
     * {@code ce_}), the media type of the data from {@code contentType} (null when absent) and the data itself from
     * {@code data}. Header values must be UTF-8 and follow the same rules as in structured mode; headers without the
     * prefix are not looked at.
     */
    public Event decodeBinary(String prefix, List<Header> headers, Header contentType, byte[] data) {
        Map<String, String> attributes = new HashMap<>();
        for (Header h : headers) {
            if (h.name() == null || !h.name().startsWith(prefix)) {
                continue;
            }
            String name = h.name().substring(prefix.length());
            String value = utf8(h.name(), h.value());
            if (attributes.put(name, value) != null) {
                throw new InvalidEventException(DataReader.abbreviate(h.name()) + ": given more than once");
            }
            if (!BINARY_CORE.contains(name)) {
                Envelope.extensionName(h.name(), name);
                Envelope.text(DataReader.abbreviate(h.name()), value, DataReader.MAX_STRING);
            }
        }
        specversion(prefix + "specversion", attributes.get("specversion"));
        if (contentType != null) {
            Envelope.contentType(contentType.name(), utf8(contentType.name(), contentType.value()));
        }
        Envelope.contentType(prefix + "datacontenttype", attributes.get("datacontenttype"));
        Envelope.dataSchema(prefix + "dataschema", attributes.get("dataschema"));
        EventType declared = EventType.fromWireName(attributes.get("type"));
        int max = declared == null ? Envelope.MAX_DATA : Envelope.maxData(declared);
        if (data != null && data.length > max) {
            throw new InvalidEventException("data: larger than " + max + " bytes");
        }
        return decode(
                prefix,
                attributes.get("id"),
                attributes.get("source"),
                attributes.get("type"),
                attributes.get("subject"),
                attributes.get("time"),
                data == null ? null : parse(data));
    }

    private static void specversion(String field, String specversion) {
        if (specversion == null) {
            throw new InvalidEventException(field + ": required (\"1.0\")");
        }
        if (!"1.0".equals(specversion)) {
            throw new InvalidEventException(
                    field + ": only \"1.0\" is supported, got '" + DataReader.abbreviate(specversion) + "'");
        }
    }

    private static String utf8(String field, byte[] value) {
        if (value == null) {
            throw new InvalidEventException(DataReader.abbreviate(field) + ": header without a value");
        }
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(value))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new InvalidEventException(DataReader.abbreviate(field) + ": not valid UTF-8");
        }
    }

    /**
     * Builds an event from CloudEvents attributes (as read from structured JSON or from Kafka binary-mode
     * headers) and its JSON data.
     */
    public Event decodeAttributes(String id, String source, String type, String subject, String time, JsonNode data) {
        return decode("", id, source, type, subject, time, data);
    }

    private static Event decode(
            String prefix, String id, String source, String type, String subject, String time, JsonNode data) {
        id = Envelope.required(prefix + "id", id, Envelope.MAX_ID);
        source = Envelope.required(prefix + "source", source, Envelope.MAX_SOURCE);
        type = Envelope.required(prefix + "type", type, Envelope.MAX_TYPE);
        EventType eventType = EventType.fromWireName(type);
        if (eventType == null) {
            throw new InvalidEventException(prefix + "type: unknown type '" + DataReader.abbreviate(type)
                    + "' (see docs/events.md for the catalogue)");
        }
        subject = Envelope.required(prefix + "subject", subject, Envelope.MAX_SUBJECT);
        if (!isSubject(subject)) {
            throw new InvalidEventException(prefix + "subject: must be a job (namespace/name) or node name of letters,"
                    + " digits and . _ : / @ -, got '" + DataReader.abbreviate(subject) + "'");
        }
        if (time == null || time.isBlank()) {
            throw new InvalidEventException(
                    prefix + "time: required (when the event happened at the source, RFC 3339)");
        }
        Instant at = Envelope.time(prefix + "time", time);
        if (data == null || data.isNull()) {
            throw new InvalidEventException("data: required (an object; {} when the type has no fields)");
        }
        if (!data.isObject()) {
            throw new InvalidEventException("data: expected an object, got " + DataReader.describe(data));
        }
        Envelope.dataSize(eventType, data);
        EventData payload;
        try {
            payload = DataCodec.decode(eventType, new DataReader(data, "data."));
        } catch (IllegalArgumentException e) {
            throw new InvalidEventException("data: " + e.getMessage());
        }
        return new Event(id, source, eventType, subject, at, payload);
    }

    /** {@code [A-Za-z0-9][A-Za-z0-9._:/@-]*}, by a loop: a pattern match was a tenth of decoding an event. */
    static boolean isSubject(String s) {
        if (s.isEmpty() || !isAlnum(s.charAt(0))) {
            return false;
        }
        for (int i = 1; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!isAlnum(c) && c != '.' && c != '_' && c != ':' && c != '/' && c != '@' && c != '-') {
                return false;
            }
        }
        return true;
    }

    private static boolean isAlnum(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9';
    }

    /** Parses a JSON document (for example a Kafka binary-mode value) with the codec's limits. */
    public JsonNode parse(byte[] json) {
        try {
            return trees.readTree(json);
        } catch (JsonProcessingException e) {
            throw new InvalidEventException("malformed JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new InvalidEventException("unreadable JSON: " + e.getMessage());
        }
    }

    /** The {@code data} member of an event as a JSON object. */
    public ObjectNode encodeData(EventData data) {
        return DataCodec.encode(data);
    }

    /** Serialises an event as a structured-mode CloudEvent. */
    public ObjectNode encodeEvent(Event e) {
        ObjectNode o = mapper.createObjectNode();
        o.put("specversion", "1.0")
                .put("id", e.id())
                .put("source", e.source())
                .put("type", e.type().wireName())
                .put("subject", e.subject())
                .put("time", e.time().toString())
                .put("datacontenttype", "application/json");
        o.set("data", DataCodec.encode(e.data()));
        return o;
    }

    public byte[] toBytes(JsonNode node) {
        try {
            return writer.writeValueAsBytes(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public String toJson(JsonNode node) {
        return new String(toBytes(node), StandardCharsets.UTF_8);
    }

    ObjectMapper mapper() {
        return mapper;
    }
}
