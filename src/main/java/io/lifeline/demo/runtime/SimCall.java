package io.lifeline.demo.runtime;

import io.lifeline.demo.FleetSimulator;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A call that changes the demo fleet (a command to its trainers, an action on its cluster, its resumption after a
 * stop), as plain strings: the runner makes every such call through one of these and keeps it in its
 * {@link DemoJournal}, so that a restart rebuilds the fleet by making the same calls again at the same simulated times.
 *
 * @param op   what is called
 * @param args its arguments, in order (a null argument is absent)
 */
public record SimCall(Op op, List<String> args) {

    /** The calls there are, and how each is made on a simulator. */
    public enum Op {
        CHECKPOINT,
        RESCALE,
        SUSPEND,
        RESUME,
        RESTORE,
        INTERVAL,
        NOTE,
        CORDON,
        UNCORDON,
        EVICT,
        SCALE_WORKERS,
        SET_SUSPENDED,
        RESTORE_FROM,
        CONTINUE;

        /** The name kept in the journal. */
        public String wire() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }

        /** The operation of a journal name. */
        public static Op of(String wire) {
            return valueOf(wire.toUpperCase(java.util.Locale.ROOT).replace('-', '_'));
        }
    }

    public SimCall {
        Objects.requireNonNull(op, "op");
        args = Collections.unmodifiableList(Arrays.asList(args.toArray(new String[0])));
    }

    private static SimCall of(Op op, Object... args) {
        String[] a = new String[args.length];
        for (int i = 0; i < args.length; i++) {
            a[i] = args[i] == null ? null : args[i].toString();
        }
        return new SimCall(op, Arrays.asList(a));
    }

    static SimCall checkpoint(String commandId, String command, String job, Instant deadline, boolean durable) {
        return of(Op.CHECKPOINT, commandId, command, job, deadline, durable);
    }

    static SimCall rescale(String commandId, String job, int nodes) {
        return of(Op.RESCALE, commandId, job, nodes);
    }

    static SimCall suspend(String commandId, String job) {
        return of(Op.SUSPEND, commandId, job);
    }

    static SimCall resume(String commandId, String job) {
        return of(Op.RESUME, commandId, job);
    }

    static SimCall restore(String commandId, String job, String checkpointId) {
        return of(Op.RESTORE, commandId, job, checkpointId);
    }

    static SimCall interval(String commandId, String job, long seconds) {
        return of(Op.INTERVAL, commandId, job, seconds);
    }

    static SimCall note(String commandId, String command, String job) {
        return of(Op.NOTE, commandId, command, job);
    }

    static SimCall cordon(String node) {
        return of(Op.CORDON, node);
    }

    static SimCall uncordon(String node) {
        return of(Op.UNCORDON, node);
    }

    static SimCall evict(String namespace, String pod) {
        return of(Op.EVICT, namespace, pod);
    }

    static SimCall scaleWorkers(String job, int nodes) {
        return of(Op.SCALE_WORKERS, job, nodes);
    }

    static SimCall setSuspended(String job, boolean suspended) {
        return of(Op.SET_SUSPENDED, job, suspended);
    }

    static SimCall restoreFrom(String job, String checkpointId) {
        return of(Op.RESTORE_FROM, job, checkpointId);
    }

    /** The fleet goes on at {@code at} after standing still (see {@link FleetSimulator#resumeAt}). */
    static SimCall continueAt(Instant at) {
        return of(Op.CONTINUE, at);
    }

    /**
     * Makes the call on {@code sim}: the cluster's answer ({@code SimOutcome}) for a cluster action, else null.
     *
     * @throws IllegalArgumentException when the simulator refuses the arguments (nothing changed then)
     */
    Object applyTo(FleetSimulator sim) {
        switch (op) {
            case CHECKPOINT -> sim.requestCheckpoint(arg(0), arg(1), arg(2), instant(3), Boolean.parseBoolean(arg(4)));
            case RESCALE -> sim.requestRescale(arg(0), arg(1), Integer.parseInt(arg(2)));
            case SUSPEND -> sim.suspend(arg(0), arg(1));
            case RESUME -> sim.resume(arg(0), arg(1));
            case RESTORE -> sim.restore(arg(0), arg(1), arg(2));
            case INTERVAL -> sim.setCheckpointInterval(arg(0), arg(1), Long.parseLong(arg(2)));
            case NOTE -> sim.note(arg(0), arg(1), arg(2));
            case CORDON -> {
                return sim.cordon(arg(0));
            }
            case UNCORDON -> {
                return sim.uncordon(arg(0));
            }
            case EVICT -> {
                return sim.evict(arg(0), arg(1));
            }
            case SCALE_WORKERS -> {
                return sim.scaleWorkers(arg(0), Integer.parseInt(arg(1)));
            }
            case SET_SUSPENDED -> {
                return sim.setSuspended(arg(0), Boolean.parseBoolean(arg(1)));
            }
            case RESTORE_FROM -> {
                return sim.restoreFrom(arg(0), arg(1));
            }
            case CONTINUE -> sim.resumeAt(instant(0));
            default -> throw new IllegalStateException(op.name());
        }
        return null;
    }

    private String arg(int i) {
        if (i >= args.size()) {
            throw new IllegalArgumentException(op.wire() + ": argument " + i + " missing");
        }
        return args.get(i);
    }

    private Instant instant(int i) {
        String s = arg(i);
        return s == null ? null : Instant.parse(s);
    }

    @Override
    public String toString() {
        return op.wire() + args;
    }
}
