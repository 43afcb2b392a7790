package io.lifeline.docs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lifeline.codec.EventCodec;
import io.lifeline.codec.InvalidEventException;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.testing.MarkdownDoc;
import java.io.IOException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Keeps docs/events.md honest: every CloudEvent example in it must pass the codec, every catalogue type must
 * have a section with an example, each section's field table must name exactly the fields the codec maps, and the
 * telemetry types (and only they) say so and point to what the log keeps of them (shown by
 * {@code HttpIngestTest.theTelemetryTheLogKeepsIsListedAndTheRestIsNot}).
 */
class EventsDocTest {

    private static final Path DOC = Path.of("docs", "events.md");
    private static final Pattern TYPE_HEADING = Pattern.compile("^### `([a-z_.]+)`\\s*$", Pattern.MULTILINE);
    private static final Pattern NEXT_HEADING = Pattern.compile("^#{1,3} ", Pattern.MULTILINE);
    private static final Pattern FIELD_ROW = Pattern.compile("^\\| `([A-Za-z\\[\\].]+)` \\|", Pattern.MULTILINE);

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static String doc;

    private final EventCodec codec = new EventCodec();

    @BeforeAll
    static void readDoc() throws IOException {
        doc = Files.readString(DOC, StandardCharsets.UTF_8);
    }

    @Test
    void everyCloudEventExampleDecodes() throws IOException {
        List<JsonNode> examples = cloudEventExamples(doc);
        assertThat(examples).hasSizeGreaterThanOrEqualTo(EventType.values().length);
        List<String> refused = new ArrayList<>();
        for (JsonNode example : examples) {
            try {
                codec.decodeEvent(example);
            } catch (InvalidEventException e) {
                refused.add(example.path("id").asText() + ": " + e.getMessage());
            }
        }
        assertThat(refused).as("examples the codec refuses").isEmpty();
    }

    @Test
    void everyEventTypeHasAnExample() throws IOException {
        EnumSet<EventType> documented = EnumSet.noneOf(EventType.class);
        for (JsonNode example : cloudEventExamples(doc)) {
            EventType type = EventType.fromWireName(example.path("type").asText());
            if (type != null) {
                documented.add(type);
            }
        }
        assertThat(EnumSet.complementOf(documented))
                .as("event types without an example in %s", DOC)
                .isEmpty();
    }

    @Test
    void examplesUseTheSubjectOfTheirFamily() throws IOException {
        for (JsonNode example : cloudEventExamples(doc)) {
            Event e = codec.decodeEvent(example);
            if (e.type().family().subjectIsNode()) {
                assertThat(e.subject())
                        .as("subject of %s example %s (a node name)", e.type().wireName(), e.id())
                        .doesNotContain("/");
            } else {
                assertThat(e.subject())
                        .as(
                                "subject of %s example %s (namespace/name)",
                                e.type().wireName(), e.id())
                        .matches("[^/]+/[^/]+");
            }
        }
    }

    @Test
    void exampleDataHoldsOnlyFieldsTheCodecReads() throws IOException {
        // Unknown data fields are ignored on the wire, so a misspelt field in an example would still decode:
        // re-encoding shows whether every field the example sends was actually read, with the same value.
        for (JsonNode example : cloudEventExamples(doc)) {
            Event e = codec.decodeEvent(example);
            List<String> lost = new ArrayList<>();
            collectUnread("data", example.get("data"), codec.encodeData(e.data()), lost);
            assertThat(lost)
                    .as("fields of example %s the codec does not read back", e.id())
                    .isEmpty();
        }
    }

    @Test
    void everyTypeSectionDocumentsExactlyItsFields() throws IOException {
        Map<String, String> sections = typeSections(doc);
        for (EventType type : EventType.values()) {
            String section = sections.get(type.wireName());
            assertThat(section).as("section ### `%s`", type.wireName()).isNotNull();
            List<JsonNode> examples = cloudEventExamples(section);
            assertThat(examples).as("example in section %s", type.wireName()).isNotEmpty();
            for (JsonNode example : examples) {
                assertThat(example.path("type").asText())
                        .as("type of the example in section %s", type.wireName())
                        .isEqualTo(type.wireName());
            }
            Event decoded = codec.decodeEvent(examples.get(0));
            Set<String> expected = new TreeSet<>();
            fieldPaths("", decoded.data().getClass(), expected);
            assertThat(tableFields(section))
                    .as("fields in the table of %s", type.wireName())
                    .isEqualTo(expected);
        }
    }

    @Test
    void theTelemetryTypesAndOnlyTheySayWhatTheLogKeepsOfThem() {
        assertThat(doc).as("the section telemetry types point to").contains("\n### Telemetry in the log\n");
        Map<String, String> sections = typeSections(doc);
        for (EventType type : EventType.values()) {
            String section = sections.get(type.wireName());
            if (type.isTelemetry()) {
                assertThat(section)
                        .as("section of telemetry type %s", type.wireName())
                        .contains("**Telemetry**")
                        .contains("(#telemetry-in-the-log)")
                        .doesNotContain("not stored")
                        .doesNotContain("memory only");
            } else {
                assertThat(section)
                        .as("section of lifecycle type %s", type.wireName())
                        .doesNotContain("**Telemetry**");
            }
        }
        String reading = doc.substring(doc.indexOf("## Reading the event log"));
        assertThat(reading)
                .as("what GET /api/v1/events lists")
                .contains("(#telemetry-in-the-log)")
                .doesNotContain("never in the log");
    }

    @Test
    void everyTypeSectionNamesACatalogueType() {
        for (String wireName : typeSections(doc).keySet()) {
            assertThat(EventType.fromWireName(wireName))
                    .as("section ### `%s` is not in the catalogue", wireName)
                    .isNotNull();
        }
    }

    // ---------------------------------------------------------------- reading the doc

    /** Every JSON block whose root is a CloudEvent (has specversion), or an array holding CloudEvents. */
    private static List<JsonNode> cloudEventExamples(String markdown) throws IOException {
        List<JsonNode> events = new ArrayList<>();
        for (MarkdownDoc.Block block : MarkdownDoc.parse(DOC, markdown).blocks("json")) {
            JsonNode root = MAPPER.readTree(block.text());
            if (root.isArray()) {
                root.forEach(n -> {
                    if (n.has("specversion")) {
                        events.add(n);
                    }
                });
            } else if (root.has("specversion")) {
                events.add(root);
            }
        }
        return events;
    }

    /** Text of each {@code ### `type`} section, up to the next heading of level 1 to 3. */
    private static Map<String, String> typeSections(String markdown) {
        Map<String, String> sections = new LinkedHashMap<>();
        Matcher m = TYPE_HEADING.matcher(markdown);
        while (m.find()) {
            Matcher next = NEXT_HEADING.matcher(markdown);
            int end = next.find(m.end()) ? next.start() : markdown.length();
            sections.put(m.group(1), markdown.substring(m.end(), end));
        }
        return sections;
    }

    private static Set<String> tableFields(String section) {
        Set<String> fields = new TreeSet<>();
        Matcher m = FIELD_ROW.matcher(section);
        while (m.find()) {
            fields.add(m.group(1));
        }
        return fields;
    }

    // ---------------------------------------------------------------- what the code defines

    /** Wire field paths of a data record: its component names, {@code a.b} for nested records, {@code a[].b} for lists. */
    private static void fieldPaths(String prefix, Class<?> record, Set<String> out) {
        for (RecordComponent c : record.getRecordComponents()) {
            String path = prefix + c.getName();
            out.add(path);
            Class<?> type = c.getType();
            if (type.isRecord()) {
                fieldPaths(path + ".", type, out);
            } else if (List.class.isAssignableFrom(type)) {
                Type element = ((ParameterizedType) c.getGenericType()).getActualTypeArguments()[0];
                if (element instanceof Class<?> k && k.isRecord()) {
                    fieldPaths(path + "[].", k, out);
                }
            }
        }
    }

    private static void collectUnread(String path, JsonNode sent, JsonNode readBack, List<String> lost) {
        if (sent.isObject()) {
            for (Map.Entry<String, JsonNode> f : sent.properties()) {
                JsonNode back = readBack == null ? null : readBack.get(f.getKey());
                String where = path + "." + f.getKey();
                if (back == null) {
                    lost.add(where + " (not read)");
                } else {
                    collectUnread(where, f.getValue(), back, lost);
                }
            }
        } else if (sent.isArray()) {
            for (int i = 0; i < sent.size(); i++) {
                collectUnread(path + "[" + i + "]", sent.get(i), readBack.get(i), lost);
            }
        } else if (!sameValue(sent, readBack)) {
            lost.add(path + " (sent " + sent + ", read back " + readBack + ")");
        }
    }

    private static boolean sameValue(JsonNode a, JsonNode b) {
        if (a.isNumber() && b != null && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue()) == 0;
        }
        return a.equals(b);
    }
}
