package io.lifeline.action.port;

/** Commands to a job's training runtime; the wire name is the CloudEvent type suffix. */
public enum CommandType {
    /** Save a checkpoint now; parameter {@code deadline}. */
    CHECKPOINT_NOW("checkpoint_now"),
    /** Get ready to exit (save and stop cleanly); parameter {@code deadline}. */
    PREPARE_EXIT("prepare_exit"),
    /** The job will be rescaled; parameter {@code worldSize}. */
    RESCALE_NOTICE("rescale_notice"),
    /** Restart from a checkpoint; parameters {@code checkpointId} and {@code uri}. */
    RESTORE_FROM("restore_from"),
    /** Send every rank's stacks (trainer.stacks); parameter {@code requestId}. */
    CAPTURE_STACKS("capture_stacks"),
    /** Make every worker exit so that its runtime restarts it from the newest checkpoint; {@code reason}, {@code exitCode}. */
    RESTART_WORKERS("restart_workers"),
    /** Change the checkpoint interval; parameter {@code intervalSeconds}. */
    SET_CHECKPOINT_INTERVAL("set_checkpoint_interval");

    private final String wire;

    CommandType(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    /** The CloudEvent type a command is sent as, for example {@code lifeline.command.checkpoint_now}. */
    public String cloudEventType() {
        return "lifeline.command." + wire;
    }
}
