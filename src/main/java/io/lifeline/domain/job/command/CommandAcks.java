package io.lifeline.domain.job.command;

import io.lifeline.domain.event.TrainerData;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The latest answer per command for one job, so an action waiting on a command learns at once that the trainers
 * refused it instead of waiting out its deadline. Bounded: the oldest command is forgotten first; commands are
 * answered within seconds, long before a job has sent this many newer ones.
 */
public final class CommandAcks {

    private final Map<String, CommandAckView> latest;

    public CommandAcks(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, got " + capacity);
        }
        this.latest = new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, CommandAckView> eldest) {
                return size() > capacity;
            }
        };
    }

    /** Records an answer; an answer older than the one already held for the command is ignored. */
    public void record(TrainerData.CommandAck ack, Instant at) {
        if (ack.commandId() == null) {
            return;
        }
        CommandAckView held = latest.get(ack.commandId());
        if (held != null && at.isBefore(held.at())) {
            return;
        }
        latest.put(
                ack.commandId(), new CommandAckView(ack.commandId(), ack.command(), ack.status(), ack.message(), at));
    }

    /** The answers held, oldest command first. */
    public List<CommandAckView> views() {
        return new ArrayList<>(latest.values());
    }

    /** Holds again answers {@link #views()} gave, in their order. */
    public void restore(List<CommandAckView> views) {
        for (CommandAckView v : views) {
            latest.put(v.commandId(), v);
        }
    }

    public Optional<CommandAckView> find(String commandId) {
        return Optional.ofNullable(latest.get(commandId));
    }

    public int size() {
        return latest.size();
    }
}
