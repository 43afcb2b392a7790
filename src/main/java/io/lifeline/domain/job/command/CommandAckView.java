package io.lifeline.domain.job.command;

import io.lifeline.domain.event.TrainerData.AckStatus;
import java.time.Instant;

/**
 * The trainers' latest answer to one command sent to a job.
 *
 * @param commandId the command's id, as Lifeline sent it
 * @param command   the command's wire name as the trainers echoed it, or null
 * @param status    accepted, rejected, done or failed
 * @param message   the trainers' reason, or null
 * @param at        when the trainers answered
 */
public record CommandAckView(String commandId, String command, AckStatus status, String message, Instant at) {

    /** Whether the trainers said they will not, or could not, carry the command out. */
    public boolean refused() {
        return status == AckStatus.REJECTED || status == AckStatus.FAILED;
    }
}
