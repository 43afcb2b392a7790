package io.lifeline.domain.job.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.action.FleetFixture;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.domain.event.TrainerData.AckStatus;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class CommandAcksTest {

    private static final Instant T = Instant.parse("2024-05-01T10:00:00Z");

    @Test
    void theLatestAnswerPerCommandIsKeptAndALateRedeliveryDoesNotOverwriteIt() {
        CommandAcks acks = new CommandAcks(4);
        acks.record(new TrainerData.CommandAck("c1", "checkpoint", AckStatus.ACCEPTED, null), T);
        acks.record(new TrainerData.CommandAck("c1", "checkpoint", AckStatus.FAILED, "disk full"), T.plusSeconds(5));
        acks.record(new TrainerData.CommandAck("c1", "checkpoint", AckStatus.ACCEPTED, null), T.plusSeconds(1));
        CommandAckView held = acks.find("c1").orElseThrow();
        assertThat(held.status()).isEqualTo(AckStatus.FAILED);
        assertThat(held.message()).isEqualTo("disk full");
        assertThat(held.refused()).isTrue();
    }

    @Test
    void memoryIsBoundedByForgettingTheOldestCommand() {
        CommandAcks acks = new CommandAcks(3);
        for (int i = 0; i < 10; i++) {
            acks.record(new TrainerData.CommandAck("c" + i, "checkpoint", AckStatus.DONE, null), T.plusSeconds(i));
        }
        assertThat(acks.size()).isEqualTo(3);
        assertThat(acks.find("c6")).isEmpty();
        assertThat(acks.find("c9")).isPresent();
        assertThat(acks.find("c9").get().refused()).isFalse();
    }

    @Test
    void theJobModelAnswersWithTheTrainersRejection() {
        FleetFixture f = new FleetFixture().node("n1", "a100").job("team-a/llm", 0, 0, "n1");
        f.apply(
                "team-a/llm",
                EventType.TRAINER_COMMAND_ACK,
                new TrainerData.CommandAck(
                        "act-1:checkpoint:team-a/llm",
                        "checkpoint",
                        AckStatus.REJECTED,
                        "job is starting, not training"));
        assertThat(f.model.jobs().commandAck("team-a/llm", "act-1:checkpoint:team-a/llm"))
                .hasValueSatisfying(a -> {
                    assertThat(a.refused()).isTrue();
                    assertThat(a.message()).isEqualTo("job is starting, not training");
                });
        assertThat(f.model.jobs().commandAck("team-a/llm", "other")).isEmpty();
        assertThat(f.model.jobs().commandAck("nobody/none", "act-1")).isEmpty();
    }
}
