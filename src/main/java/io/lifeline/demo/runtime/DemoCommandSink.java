package io.lifeline.demo.runtime;

import io.lifeline.action.port.CommandChannel;
import io.lifeline.action.port.TrainerCommand;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Hands commands for the demo fleet's jobs to its simulated trainers while the demo runs, so the quick start closes
 * the loop: they acknowledge with {@code trainer.command_ack} and act (checkpoint, restore, interval) like an agent.
 */
@ApplicationScoped
public class DemoCommandSink implements CommandChannel {

    @Override
    public String name() {
        return "demo fleet";
    }

    private final DemoRunner runner;

    DemoCommandSink(DemoRunner runner) {
        this.runner = runner;
    }

    /** Whether the demo runs and the command is for one of its jobs. */
    @Override
    public boolean accepts(TrainerCommand command) {
        return runner.hasJob(command.job());
    }

    /**
     * Delivers the command to the simulated trainers, at once: failed with {@link IllegalArgumentException} when a
     * parameter the command needs is missing or malformed, with {@link IllegalStateException} when the demo is not
     * running.
     */
    @Override
    public CompletionStage<Void> send(TrainerCommand c) {
        try {
            deliver(c);
            return CompletableFuture.completedFuture(null);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private void deliver(TrainerCommand c) {
        switch (c.type()) {
            case CHECKPOINT_NOW -> runner.requestCheckpoint(c.id(), "checkpoint", c.job(), c.deadline(), durable(c));
            case PREPARE_EXIT -> runner.requestCheckpoint(c.id(), c.type().wire(), c.job(), c.deadline(), durable(c));
            case RESCALE_NOTICE, CAPTURE_STACKS, RESTART_WORKERS ->
                runner.note(c.id(), c.type().wire(), c.job());
            case RESTORE_FROM -> runner.restore(c.id(), c.job(), required(c, "checkpointId"));
            case SET_CHECKPOINT_INTERVAL -> {
                String s = required(c, "intervalSeconds");
                try {
                    runner.setCheckpointInterval(c.id(), c.job(), Long.parseLong(s.trim()));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("intervalSeconds: not a whole number: '" + s + "'");
                }
            }
            default -> throw new IllegalStateException(c.type().name());
        }
    }

    /** Whether the command asks for a checkpoint that outlives the node. */
    private static boolean durable(TrainerCommand c) {
        return "durable".equals(c.params().get("storage"));
    }

    private static String required(TrainerCommand c, String param) {
        String v = c.params().get(param);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException(c.type().wire() + " needs parameter " + param);
        }
        return v;
    }
}
