package io.lifeline.demo;

import io.lifeline.domain.event.Event;
import io.lifeline.runtime.LiveModel;
import java.lang.reflect.Method;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * One version's whole-model reads on a simulated fleet, for {@link ModelHoldBenchmark}: the benchmark loads this
 * class once from the current build and once from an earlier one, and times both side by side. It finds the reads
 * of its version by name: the one published snapshot ({@code runtime.ModelSnapshot.take}) where it exists, the
 * three readers of earlier versions (metrics, alert rules, dashboards) otherwise.
 */
public final class HoldProbe {

    private final FleetSimulator sim;
    private final MovingClock clock;
    private final LiveModel model;
    private final List<String> names = new ArrayList<>();
    private final List<Method> reads = new ArrayList<>();
    private Instant now;
    private Object previous;

    public HoldProbe(int nodes, int jobs, int warmUpMinutes) throws Exception {
        Instant start = TestScenarios.START;
        this.sim = new FleetSimulator(TestScenarios.large(nodes, jobs), start);
        this.clock = new MovingClock(start);
        this.model = LiveModel.create(clock);
        this.now = start;
        advance(warmUpMinutes * 60);
        Class<?> snapshot = type("io.lifeline.runtime.ModelSnapshot");
        if (snapshot != null) {
            previous = snapshot.getField("EMPTY").get(null);
            names.add("the model snapshot (every lifeline.model.snapshot-interval, 1 s)");
            reads.add(method(snapshot.getName(), "take", LiveModel.class, snapshot, Instant.class, long.class));
        } else {
            names.add("dashboards' snapshot (every second while a dashboard is open)");
            reads.add(method("io.lifeline.ui.data.SnapshotReader", "capture", LiveModel.class, Instant.class));
            names.add("metrics snapshot (every lifeline.metrics.snapshot-interval, 5 s)");
            reads.add(method(
                    "io.lifeline.metrics.SnapshotReader", "read", LiveModel.class, Instant.class, boolean.class));
            names.add("alert rules' snapshot (every lifeline.alerts.evaluation-interval, 15 s)");
            reads.add(method("io.lifeline.alert.AlertSnapshots", "fromModel", LiveModel.class));
        }
    }

    /** Applies the events of the next {@code seconds} of simulated time (not timed); returns how many. */
    public int advance(int seconds) {
        now = now.plusSeconds(seconds);
        List<Event> events = sim.advanceTo(now);
        for (Event e : events) {
            clock.now = e.time().isAfter(clock.now) ? e.time() : clock.now;
            model.root().apply(e);
        }
        clock.now = now;
        return events.size();
    }

    /** What each read is. */
    public List<String> reads() {
        return List.copyOf(names);
    }

    /** Runs every read once; returns the nanoseconds each held the (this) thread. */
    public long[] readOnce() throws Exception {
        long[] out = new long[reads.size()];
        for (int i = 0; i < reads.size(); i++) {
            Method m = reads.get(i);
            long t0 = System.nanoTime();
            Object r = switch (m.getParameterCount()) {
                case 1 -> m.invoke(null, model);
                case 2 -> m.invoke(null, model, now);
                case 3 -> m.invoke(null, model, now, true);
                default -> previous = m.invoke(null, model, previous, now, 0L);
            };
            out[i] = System.nanoTime() - t0;
            if (r == null) {
                throw new IllegalStateException(names.get(i) + " returned nothing");
            }
        }
        return out;
    }

    private static Class<?> type(String name) {
        try {
            return Class.forName(name);
        } catch (ClassNotFoundException e) {
            return null;
        }
    }

    private static Method method(String type, String name, Class<?>... params) throws Exception {
        try {
            Method m = Class.forName(type).getDeclaredMethod(name, params);
            m.setAccessible(true);
            return m;
        } catch (ClassNotFoundException | NoSuchMethodException e) {
            return null;
        }
    }

    /**
     * The model's clock, moved by the simulation. Its own rather than {@code testing.MovableClock}:
     * bench/model-hold.sh compiles this one file into an earlier commit, so it may use nothing that commit lacks.
     */
    private static final class MovingClock extends Clock {
        private Instant now;

        MovingClock(Instant now) {
            this.now = now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
