package io.lifeline.connector.outbound.command;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lifeline.action.port.TrainerCommand;
import io.lifeline.platform.Json;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A trainer command as a CloudEvent 1.0 in structured JSON mode: {@code type} is the command's
 * {@link io.lifeline.action.port.CommandType#cloudEventType()}, {@code source} {@code lifeline}, {@code id} the
 * command id (receivers dedupe by it and echo it in {@code trainer.command_ack}), {@code subject} the job,
 * {@code time} when it was issued, {@code data} its parameters plus {@code deadline} (RFC 3339) when it has one.
 */
public final class CommandCloudEvents {

    static final String SOURCE = "lifeline";
    /** The content type of a structured-mode CloudEvent. */
    public static final String CONTENT_TYPE = "application/cloudevents+json";

    private static final ObjectMapper JSON = Json.mapper();

    private CommandCloudEvents() {}

    static ObjectNode toJson(TrainerCommand c) {
        ObjectNode e = JSON.createObjectNode();
        e.put("specversion", "1.0");
        e.put("id", c.id());
        e.put("source", SOURCE);
        e.put("type", c.type().cloudEventType());
        e.put("subject", c.job());
        if (c.issuedAt() != null) {
            e.put("time", c.issuedAt().toString());
        }
        e.put("datacontenttype", "application/json");
        ObjectNode data = e.putObject("data");
        // Sorted, so the same command always has the same bytes.
        for (Map.Entry<String, String> p : new TreeMap<>(c.params()).entrySet()) {
            data.put(p.getKey(), p.getValue());
        }
        if (c.deadline() != null) {
            data.put("deadline", c.deadline().toString());
        }
        return e;
    }

    /** The command's CloudEvent, as JSON bytes (the same command always gives the same bytes). */
    public static byte[] bytes(TrainerCommand c) {
        try {
            return JSON.writeValueAsBytes(toJson(c));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot write command " + c.id(), e);
        }
    }

    public static ArrayNode array(List<TrainerCommand> commands) {
        ArrayNode a = JSON.createArrayNode();
        commands.forEach(c -> a.add(toJson(c)));
        return a;
    }
}
