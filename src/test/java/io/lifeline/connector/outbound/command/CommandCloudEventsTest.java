package io.lifeline.connector.outbound.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lifeline.action.port.CommandType;
import io.lifeline.action.port.TrainerCommand;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CommandCloudEventsTest {

    @Test
    void aCommandIsAStructuredCloudEventWithParamsAndDeadlineAsData() throws Exception {
        TrainerCommand c = new TrainerCommand(
                "a-17/checkpoint",
                "team/echo",
                CommandType.RESTORE_FROM,
                Map.of("checkpointId", "ckpt-42", "uri", "s3://ckpt/echo/42"),
                Instant.parse("2026-03-01T10:00:00Z"),
                Instant.parse("2026-03-01T10:02:00Z"));
        JsonNode e = new ObjectMapper().readTree(CommandCloudEvents.bytes(c));
        assertThat(e.get("specversion").asText()).isEqualTo("1.0");
        assertThat(e.get("id").asText()).isEqualTo("a-17/checkpoint");
        assertThat(e.get("source").asText()).isEqualTo("lifeline");
        assertThat(e.get("type").asText()).isEqualTo("lifeline.command.restore_from");
        assertThat(e.get("subject").asText()).isEqualTo("team/echo");
        assertThat(e.get("time").asText()).isEqualTo("2026-03-01T10:00:00Z");
        assertThat(e.get("datacontenttype").asText()).isEqualTo("application/json");
        assertThat(e.get("data").get("checkpointId").asText()).isEqualTo("ckpt-42");
        assertThat(e.get("data").get("uri").asText()).isEqualTo("s3://ckpt/echo/42");
        assertThat(e.get("data").get("deadline").asText()).isEqualTo("2026-03-01T10:02:00Z");
    }

    @Test
    void noDeadlineMeansNoDeadlineField() {
        TrainerCommand c = new TrainerCommand(
                "x",
                "team/echo",
                CommandType.SET_CHECKPOINT_INTERVAL,
                Map.of("intervalSeconds", "600"),
                Instant.parse("2026-03-01T10:00:00Z"),
                null);
        assertThat(CommandCloudEvents.toJson(c).get("data").has("deadline")).isFalse();
        assertThat(CommandCloudEvents.toJson(c)
                        .get("data")
                        .get("intervalSeconds")
                        .asText())
                .isEqualTo("600");
    }
}
