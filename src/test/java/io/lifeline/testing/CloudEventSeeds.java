package io.lifeline.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Real CloudEvents to start fuzzing from: the example of every catalogue type in docs/events.md (so that every
 * type's data reaches the codec) and every event and batch of the CloudEvents conformance suite (fixtures).
 */
public final class CloudEventSeeds {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private CloudEventSeeds() {}

    /** Every single event: the catalogue examples, then the conformance suite's valid and invalid events. */
    public static List<JsonNode> events() {
        List<JsonNode> out = new ArrayList<>(catalogueExamples());
        for (String f : List.of("cloudevents/valid-events.json", "cloudevents/invalid-events.json")) {
            read(Fixtures.bytes(f)).path("tests").forEach(t -> out.add(t.get("event")));
        }
        return out;
    }

    /** The docs/events.md example of every catalogue type. */
    public static List<JsonNode> catalogueExamples() {
        List<JsonNode> out = new ArrayList<>();
        for (MarkdownDoc.Block block :
                MarkdownDoc.read(Path.of("docs", "events.md")).blocks("json")) {
            JsonNode root = read(block.text().getBytes(StandardCharsets.UTF_8));
            if (root.has("specversion")) {
                out.add(root);
            }
        }
        return out;
    }

    /** The conformance suite's batches, and one batch of all catalogue examples. */
    public static List<JsonNode> batches() {
        List<JsonNode> out = new ArrayList<>();
        out.add(MAPPER.createArrayNode().addAll(catalogueExamples()));
        for (String f : List.of("cloudevents/valid-batches.json", "cloudevents/invalid-batches.json")) {
            read(Fixtures.bytes(f)).path("tests").forEach(t -> out.add(t.get("batch")));
        }
        return out;
    }

    /** Every event and batch as a seed, named after where it came from. */
    public static List<Hostile.Seed> seeds() {
        List<Hostile.Seed> out = new ArrayList<>();
        List<JsonNode> events = events();
        for (int i = 0; i < events.size(); i++) {
            out.add(new Hostile.Seed(
                    "event " + i + " (" + events.get(i).path("id").asText() + ")", bytes(events.get(i))));
        }
        List<JsonNode> batches = batches();
        for (int i = 0; i < batches.size(); i++) {
            out.add(new Hostile.Seed("batch " + i, bytes(batches.get(i))));
        }
        return out;
    }

    /** The catalogue examples as one NDJSON body, and each alone. */
    public static List<Hostile.Seed> ndjsonSeeds() {
        List<Hostile.Seed> out = new ArrayList<>();
        StringBuilder all = new StringBuilder();
        for (JsonNode e : catalogueExamples()) {
            all.append(e).append('\n');
            out.add(Hostile.Seed.of("line " + e.path("id").asText(), e + "\n"));
        }
        out.add(0, Hostile.Seed.of("all catalogue examples", all.toString()));
        return out;
    }

    public static byte[] bytes(JsonNode n) {
        try {
            return MAPPER.writeValueAsBytes(n);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode read(byte[] json) {
        try {
            return MAPPER.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
