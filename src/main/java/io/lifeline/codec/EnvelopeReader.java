package io.lifeline.codec;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/**
 * Reads one structured-mode event object straight off the parser: the attributes as strings, only {@code data} as a
 * tree. Building a tree of the whole envelope first was most of the cost of decoding an event. An object this reader
 * does not take as it comes (an attribute that is not a string, an extension, {@code data_base64}, a member given
 * twice) is turned into the tree it would have been, the members read so far first, and decoded as a tree, so that
 * every event gets exactly the answer of {@link EventCodec#decodeEvent(JsonNode)}.
 */
final class EnvelopeReader {

    private static final String[] ATTRIBUTES = {
        "specversion", "id", "source", "type", "subject", "time", "datacontenttype", "dataschema"
    };
    private static final int DATA = ATTRIBUTES.length;

    private final ObjectReader trees;

    EnvelopeReader(ObjectReader trees) {
        this.trees = trees;
    }

    /**
     * The event whose first token is the parser's current one (a {@code START_OBJECT}, or anything else, which is
     * decoded as a tree and refused there); leaves the parser on the value's last token.
     *
     * @throws Refused when the event is refused on its content
     */
    Decoded read(JsonParser p, EventCodec codec) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            return new Decoded(null, trees.readTree(p));
        }
        String[] attributes = new String[ATTRIBUTES.length];
        JsonNode data = null;
        boolean[] seen = new boolean[ATTRIBUTES.length + 1];
        String name;
        while ((name = p.nextFieldName()) != null) {
            int slot = slot(name);
            JsonToken t = p.nextToken();
            boolean plain = slot >= 0
                    && !seen[slot]
                    && (slot == DATA || t == JsonToken.VALUE_STRING || t == JsonToken.VALUE_NULL);
            if (!plain) {
                return new Decoded(null, asTree(attributes, data, seen, name, p));
            }
            seen[slot] = true;
            if (slot == DATA) {
                data = trees.readTree(p);
            } else if (t == JsonToken.VALUE_STRING) {
                attributes[slot] = p.getText();
            }
        }
        try {
            return new Decoded(codec.decodeAttributes(attributes, data), null);
        } catch (InvalidEventException e) {
            throw new Refused(attributes[1], e.getMessage());
        }
    }

    /** An event refused on its content, with its id as sent (null without one) for a refusal that names it. */
    static final class Refused extends InvalidEventException {
        private final String id;

        Refused(String id, String message) {
            super(message);
            this.id = id;
        }

        String id() {
            return id;
        }
    }

    /** The event, or the tree to decode instead. */
    record Decoded(io.lifeline.domain.event.Event event, JsonNode tree) {}

    private static int slot(String name) {
        if (name.equals("data")) {
            return DATA;
        }
        for (int i = 0; i < ATTRIBUTES.length; i++) {
            if (ATTRIBUTES[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** The object as a tree: the members read so far, then {@code name}'s value (the current token) and the rest. */
    private ObjectNode asTree(String[] attributes, JsonNode data, boolean[] seen, String name, JsonParser p)
            throws IOException {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        // The tree's decoding reads core attributes by name; only extensions are read in order, and they all come
        // from here on.
        for (int i = 0; i < ATTRIBUTES.length; i++) {
            if (seen[i]) {
                o.set(
                        ATTRIBUTES[i],
                        attributes[i] == null
                                ? JsonNodeFactory.instance.nullNode()
                                : JsonNodeFactory.instance.textNode(attributes[i]));
            }
        }
        if (seen[DATA]) {
            o.set("data", data);
        }
        o.set(name, trees.readTree(p));
        String next;
        while ((next = p.nextFieldName()) != null) {
            p.nextToken();
            o.set(next, trees.readTree(p));
        }
        return o;
    }
}
