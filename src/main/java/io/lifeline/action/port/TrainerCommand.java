package io.lifeline.action.port;

import java.time.Instant;
import java.util.Map;

/**
 * A command for a job's trainers. Its id is echoed back in {@code trainer.command_ack} (field {@code commandId}),
 * which is how an action knows its command arrived.
 *
 * @param id       unique and stable: the action id and step, so a resent command is recognisable as the same
 * @param job      {@code namespace/name}
 * @param params   type-specific parameters
 * @param issuedAt when it was sent
 * @param deadline when it stops mattering (null if never)
 */
public record TrainerCommand(
        String id, String job, CommandType type, Map<String, String> params, Instant issuedAt, Instant deadline) {

    public TrainerCommand {
        params = Map.copyOf(params);
    }
}
