package io.lifeline.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The CloudEvents conformance suite ({@code fixtures/cloudevents}, see its SOURCES.md entry), made into Lifeline events.
 *
 * <p>The suite's events use the type {@code io.cloudevents.test} and mostly leave out {@code subject}, {@code time}
 * and {@code data}, which Lifeline's catalogue requires. Each case is therefore adapted by one rule, the same for valid
 * and invalid cases: the test type becomes the catalogue type {@code node.cordoned}; a {@code subject}, {@code time}
 * or {@code data} that is absent or null is filled in (a run's own node name, a fixed 2024 time, {@code {}}); a string
 * {@code subject} becomes the run's node name and a non-empty string {@code id} gets the run's suffix, so that runs do
 * not collide. An attribute the case sets to anything else (an empty subject, a garbage time, a number for an id) is
 * left exactly as the suite has it. Valid cases only: a non-JSON {@code datacontenttype} (Lifeline takes JSON data
 * only) is replaced by {@code application/json} and its data by {@code {}}.
 */
public final class ConformanceSuite {

    public static final String TYPE = "node.cordoned";
    private static final String TEST_TYPE = "io.cloudevents.test";
    private static final String TIME = "2024-03-01T10:00:00Z";
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Why each invalid case is invalid, as the start of the reason Lifeline must give (structured mode). Every case of
     * the suite must be named here: a case added to the suite fails {@link #invalidEvents} until it is.
     */
    public static final Map<String, String> INVALID_REASONS = Map.ofEntries(
            Map.entry("invalidNoSpecVersion", "specversion: required"),
            Map.entry("invalidNoId", "id: required"),
            Map.entry("invalidNoType", "type: required"),
            Map.entry("invalidNoSource", "source: required"),
            Map.entry("invalidTimeGarbage", "time: expected an RFC 3339 timestamp"),
            Map.entry("invalidTimeToMinute", "time: expected an RFC 3339 timestamp"),
            Map.entry("invalidTimeOffsetX", "time: expected an RFC 3339 timestamp"),
            Map.entry("invalidTimeOffsetOutOfRange", "time: expected an RFC 3339 timestamp"),
            Map.entry("invalidTimeOffsetNonInteger", "time: expected an RFC 3339 timestamp"),
            Map.entry("invalidTimeOffsetHourOnly", "time: expected an RFC 3339 timestamp"),
            Map.entry("invalidEmptyId", "id: required"),
            Map.entry("invalidEmptyType", "type: required"),
            Map.entry("invalidEmptySource", "source: required"),
            Map.entry("invalidEmptySpecVersion", "specversion: only \"1.0\" is supported"),
            Map.entry("invalidUnknownSpecVersion", "specversion: only \"1.0\" is supported, got '0.9'"),
            Map.entry("invalidNonRfc2046DataContentType", "datacontenttype: must be an RFC 2046 media type"),
            Map.entry("invalidEmptyDataContentType", "datacontenttype: must be an RFC 2046 media type"),
            Map.entry("invalidEmptyDataSchema", "dataschema: must be a non-empty absolute URI"),
            Map.entry("invalidEmptySubject", "subject: required"),
            Map.entry("invalidNumericId", "id: expected a string"),
            Map.entry("invalidObjectId", "id: expected a string"),
            Map.entry("invalidCapitalizedExtension", "extension 'MyExtension': attribute names are lower-case"),
            Map.entry("invalidPunctuatedExtension", "extension 'my.extension': attribute names are lower-case"),
            Map.entry("invalidNonIntegerExtensionValue", "extension 'my.extension': a number must be an integer"),
            Map.entry("invalidBothDataAndDataBase64", "data_base64:"));

    /**
     * Invalid cases that binary mode cannot express: their fault is the JSON type of a member (every header is a
     * string) or a member binary mode does not have.
     */
    public static final Set<String> NOT_IN_BINARY_MODE =
            Set.of("invalidNumericId", "invalidObjectId", "invalidBothDataAndDataBase64");

    /** One case: its id in the suite, the event as the suite has it, and the event adapted to Lifeline. */
    public record Case(String id, ObjectNode raw, ObjectNode event) {

        public String json() {
            return ConformanceSuite.json(event);
        }

        @Override
        public String toString() {
            return id;
        }
    }

    /** One batch case: its id and its events, adapted. */
    public record Batch(String id, List<JsonNode> raw, ArrayNode events) {

        @Override
        public String toString() {
            return id;
        }
    }

    private final String node;
    private final String suffix;

    /** The suite for one run: {@code node} is the subject of every event, {@code suffix} is added to their ids. */
    public ConformanceSuite(String node, String suffix) {
        this.node = node;
        this.suffix = suffix;
    }

    public String node() {
        return node;
    }

    public List<Case> validEvents() {
        return cases("cloudevents/valid-events.json", true);
    }

    public List<Case> invalidEvents() {
        List<Case> cases = cases("cloudevents/invalid-events.json", false);
        assertThat(cases).extracting(Case::id).containsExactlyInAnyOrderElementsOf(INVALID_REASONS.keySet());
        return cases;
    }

    public List<Batch> validBatches() {
        return batches("cloudevents/valid-batches.json", true);
    }

    public List<Batch> invalidBatches() {
        return batches("cloudevents/invalid-batches.json", false);
    }

    /** The reason an invalid case must be rejected with in binary mode (attributes in {@code ce_} headers). */
    public static String binaryReason(String caseId) {
        String reason = INVALID_REASONS.get(caseId);
        if (caseId.equals("invalidNonIntegerExtensionValue")) {
            // Every header is a string: 1.5 is text there, and only the attribute's name is wrong.
            return "extension 'ce_my.extension': attribute names are lower-case";
        }
        if (caseId.equals("invalidNoSpecVersion")) {
            // Without ce_specversion the record is not binary mode: it is read as a structured event, and fails so.
            return reason;
        }
        if (reason.startsWith("datacontenttype:")) {
            return "content-type:" + reason.substring("datacontenttype:".length());
        }
        if (reason.startsWith("extension '")) {
            return "extension 'ce_" + reason.substring("extension '".length());
        }
        return "ce_" + reason;
    }

    /**
     * A case in Kafka binary mode: attribute headers ({@code ce_} + name, the value as text) in member order, the
     * data's media type as {@code content-type}, the data as the value.
     */
    public static Map<String, String> binaryHeaders(ObjectNode event) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = event.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> m = it.next();
            if (m.getKey().equals("data") || m.getValue().isNull()) {
                continue;
            }
            String value = m.getValue().isTextual() ? m.getValue().textValue() : json(m.getValue());
            headers.put(m.getKey().equals("datacontenttype") ? "content-type" : "ce_" + m.getKey(), value);
        }
        return headers;
    }

    /** The data of a binary-mode record. */
    public static byte[] binaryValue(ObjectNode event) {
        JsonNode data = event.get("data");
        return (data == null ? "{}" : json(data)).getBytes(StandardCharsets.UTF_8);
    }

    private List<Case> cases(String fixture, boolean valid) {
        List<Case> out = new ArrayList<>();
        for (JsonNode test : read(fixture).get("tests")) {
            ObjectNode raw = (ObjectNode) test.get("event");
            out.add(new Case(test.get("id").textValue(), raw.deepCopy(), adapt(raw, valid)));
        }
        assertThat(out).isNotEmpty();
        return out;
    }

    private List<Batch> batches(String fixture, boolean valid) {
        List<Batch> out = new ArrayList<>();
        for (JsonNode test : read(fixture).get("tests")) {
            ArrayNode events = JSON.createArrayNode();
            List<JsonNode> raw = new ArrayList<>();
            for (JsonNode e : test.get("batch")) {
                raw.add(e.deepCopy());
                events.add(e.isObject() ? adapt((ObjectNode) e, valid) : e.deepCopy());
            }
            out.add(new Batch(test.get("id").textValue(), raw, events));
        }
        assertThat(out).isNotEmpty();
        return out;
    }

    /** The one adaptation rule of the class comment. */
    private ObjectNode adapt(ObjectNode raw, boolean valid) {
        ObjectNode e = raw.deepCopy();
        if (e.path("type").isTextual() && e.get("type").textValue().equals(TEST_TYPE)) {
            e.put("type", TYPE);
        }
        if (!e.has("subject")
                || e.get("subject").isNull()
                || (e.get("subject").isTextual()
                        && !e.get("subject").textValue().isEmpty())) {
            e.put("subject", node);
        }
        if (e.path("id").isTextual() && !e.get("id").textValue().isEmpty()) {
            e.put("id", e.get("id").textValue() + "-" + suffix);
        }
        if (!e.has("time") || e.get("time").isNull()) {
            e.put("time", TIME);
        }
        if (valid
                && e.path("datacontenttype").isTextual()
                && !e.get("datacontenttype").textValue().contains("json")) {
            e.put("datacontenttype", "application/json");
            e.remove("data");
        }
        if (!e.has("data") || e.get("data").isNull()) {
            e.set("data", JSON.createObjectNode());
        }
        return e;
    }

    /** When the adapted events are dated. */
    public static Instant time() {
        return Instant.parse(TIME);
    }

    public static String json(JsonNode node) {
        try {
            return JSON.writeValueAsString(node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode read(String fixture) {
        try {
            return JSON.readTree(Fixtures.bytes(fixture));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
