package io.lifeline.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** JSON (always) and YAML (loaded only when asked for: it costs start-up time) through Jackson's tree model. */
final class Json {

    static final ObjectMapper MAPPER = new ObjectMapper();
    private static ObjectMapper yaml;

    private Json() {}

    static ObjectNode object() {
        return JsonNodeFactory.instance.objectNode();
    }

    static ArrayNode array() {
        return JsonNodeFactory.instance.arrayNode();
    }

    static JsonNode parse(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new CliException(Exit.FAILED, "the server's answer is not JSON: " + e.getOriginalMessage());
        }
    }

    static String pretty(JsonNode node) {
        try {
            return MAPPER.writer(SerializationFeature.INDENT_OUTPUT).writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static String compact(JsonNode node) {
        return node.toString();
    }

    static synchronized ObjectMapper yaml() {
        if (yaml == null) {
            com.fasterxml.jackson.dataformat.yaml.YAMLFactory f =
                    com.fasterxml.jackson.dataformat.yaml.YAMLFactory.builder()
                            .disable(com.fasterxml.jackson.dataformat.yaml.YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                            .enable(com.fasterxml.jackson.dataformat.yaml.YAMLGenerator.Feature.MINIMIZE_QUOTES)
                            .enable(
                                    com.fasterxml.jackson.dataformat.yaml.YAMLGenerator.Feature
                                            .ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
                            .build();
            yaml = new ObjectMapper(f);
        }
        return yaml;
    }

    static String toYaml(JsonNode node) {
        try {
            return yaml().writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Text of a field, or null when it is absent or null. */
    static String text(JsonNode n, String field) {
        JsonNode v = n == null ? null : n.get(field);
        return v == null || v.isNull() || v.isMissingNode() ? null : v.asText();
    }

    static boolean has(JsonNode n, String field) {
        JsonNode v = n == null ? null : n.get(field);
        return v != null && !v.isNull() && !v.isMissingNode();
    }

    /** Text at a path of fields ({@code "summary", "state"}), or null. */
    static String at(JsonNode n, String... path) {
        JsonNode v = n;
        for (String p : path) {
            if (v == null || v.isNull()) {
                return null;
            }
            v = v.get(p);
        }
        return v == null || v.isNull() || v.isMissingNode() ? null : v.asText();
    }

    static JsonNode node(JsonNode n, String... path) {
        JsonNode v = n;
        for (String p : path) {
            if (v == null || v.isNull()) {
                return null;
            }
            v = v.get(p);
        }
        return v == null || v.isNull() || v.isMissingNode() ? null : v;
    }
}
