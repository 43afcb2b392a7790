package io.lifeline.codec.trace;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lifeline.codec.DecodedBatch;
import io.lifeline.codec.EventCodec;
import io.lifeline.codec.InvalidEventException;
import io.lifeline.codec.Refusal;
import io.lifeline.domain.replay.LifelineHistory;
import io.lifeline.domain.replay.Opt175bReader;
import io.lifeline.domain.replay.PhillyCsvReader;
import io.lifeline.domain.replay.Trace;
import io.lifeline.domain.replay.TraceFormat;
import io.lifeline.domain.replay.TraceRejection;
import io.lifeline.platform.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The one entry point that reads a trace of any {@link TraceFormat} into catalogue events (docs/whatif.md). */
public final class TraceReaders {

    private static final ObjectMapper PAGE = Json.mapper();

    private TraceReaders() {}

    public static Trace read(TraceFormat format, String text) {
        return switch (format) {
            case PHILLY_CSV -> PhillyCsvReader.read(text);
            case PHILLY_JSON -> PhillyJobLogReader.read(text);
            case OPT175B -> Opt175bReader.read(text);
            case LIFELINE -> lifeline(text);
        };
    }

    /**
     * Lifeline's own events (CloudEvents JSON: an array, one object, or one per line), as the log stores them, or a page
     * of {@code GET /api/v1/events} ({@code {"events": [...], "nextCursor": ...}}, each event with the log's {@code seq}
     * and {@code receivedAt}, which are left out).
     */
    private static Trace lifeline(String text) {
        String page = eventsOfPage(text);
        if (page != null) {
            text = page;
        }
        String t = text.trim();
        boolean ndjson = !t.startsWith("[")
                && t.indexOf('\n') > 0
                && t.lines().filter(l -> !l.isBlank()).allMatch(l -> l.trim().startsWith("{"));
        DecodedBatch batch;
        try {
            batch = new EventCodec().decodeBody(text.getBytes(StandardCharsets.UTF_8), ndjson);
        } catch (InvalidEventException e) {
            return new Trace(TraceFormat.LIFELINE, List.of(), List.of(new TraceRejection(1, e.getMessage())));
        }
        List<TraceRejection> rejected = new ArrayList<>();
        for (Refusal r : batch.rejections()) {
            // NDJSON: the index is the line; otherwise the event's position, named in the reason
            rejected.add(new TraceRejection(
                    ndjson ? r.index() + 1 : 1, (ndjson ? "" : "event " + r.index() + ": ") + r.reason()));
        }
        return LifelineHistory.trace(batch.events(), rejected);
    }

    /** The events of an API page as a JSON array without the log's own fields; null when the text is no such page. */
    private static String eventsOfPage(String text) {
        String t = text.trim();
        if (!t.startsWith("{") || !t.contains("\"events\"")) {
            return null;
        }
        try {
            JsonNode root = PAGE.readTree(t);
            JsonNode events = root == null ? null : root.get("events");
            if (events == null || !events.isArray() || root.has("specversion")) {
                return null;
            }
            ArrayNode out = PAGE.createArrayNode();
            for (JsonNode e : events) {
                if (e instanceof ObjectNode o) {
                    ObjectNode copy = o.deepCopy();
                    copy.remove(List.of("seq", "receivedAt"));
                    out.add(copy);
                } else {
                    out.add(e);
                }
            }
            return PAGE.writeValueAsString(out);
        } catch (JsonProcessingException e) {
            return null;
        }
    }
}
