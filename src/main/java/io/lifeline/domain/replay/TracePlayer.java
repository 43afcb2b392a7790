package io.lifeline.domain.replay;

import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.fleet.NodeDirectory;
import io.lifeline.domain.fleet.NodeSignal;
import io.lifeline.domain.job.Jobs;
import io.lifeline.domain.job.JobsConfig;
import java.time.Instant;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Applies a stream of catalogue events to the real jobs model: job, scheduler and trainer events as they are, node
 * terminations and interruption notices as the signals the fleet would derive from them. The model's clock follows
 * the stream, so "now" is the time of the last event applied.
 */
public final class TracePlayer {

    /** How many events are applied between two looks at the cancellation. */
    static final int CHECK_EVERY = 4096;

    private final ReplayClock clock;
    private final Jobs jobs;
    private long applied;

    /** A player over a model of its own, with no node facts (pools unknown) and the default bounds. */
    public TracePlayer(Instant start) {
        this(start, node -> null, JobsConfig.defaults());
    }

    public TracePlayer(Instant start, NodeDirectory nodes, JobsConfig config) {
        this.clock = new ReplayClock(start);
        this.jobs = new Jobs(nodes, clock, config);
    }

    /** A model with the whole trace applied, its clock at the last event. */
    public static Jobs play(Trace trace) {
        List<Event> events = trace.events();
        TracePlayer p =
                new TracePlayer(events.isEmpty() ? Instant.EPOCH : events.get(0).time());
        p.apply(events, () -> false);
        return p.jobs();
    }

    /**
     * Applies the events in order.
     *
     * @param stop  asked every few thousand events; true ends the replay with {@link ReplayCancelledException}
     */
    public void apply(List<Event> events, BooleanSupplier stop) {
        for (Event e : events) {
            apply(e);
            if (++applied % CHECK_EVERY == 0 && stop.getAsBoolean()) {
                throw new ReplayCancelledException(applied);
            }
        }
    }

    /** Applies one event. */
    public void apply(Event e) {
        clock.advanceTo(e.time());
        if (e.type() == EventType.NODE_TERMINATED && e.data() instanceof NodeData.Terminated t) {
            jobs.onNodeSignal(
                    new NodeSignal(e.subject(), e.time(), NodeSignal.Kind.TERMINATED, null, null, t.reason()));
        } else if (e.type() == EventType.NODE_INTERRUPTION_NOTICE
                && e.data() instanceof NodeData.InterruptionNotice n) {
            jobs.onNodeSignal(new NodeSignal(
                    e.subject(), e.time(), NodeSignal.Kind.INTERRUPTION_NOTICE, n.kind(), n.deadline(), n.provider()));
        } else if (!e.type().family().subjectIsNode()) {
            jobs.apply(e);
        }
    }

    /** Moves the model's clock to {@code t} (for reads "as of" the end of a window). */
    public void advanceTo(Instant t) {
        clock.advanceTo(t);
    }

    public Jobs jobs() {
        return jobs;
    }

    public long applied() {
        return applied;
    }
}
