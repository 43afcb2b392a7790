package io.lifeline.demo;

import java.util.PriorityQueue;

/**
 * The things scheduled to happen, in time order. Ties keep scheduling order, so a run is a pure
 * function of the seed and the scenario. Happenings that stop mattering (a job restarted, a node
 * went away) stay queued and check their own relevance when they run: cancelling is not needed.
 */
final class Agenda {

    private record Entry(long at, long seq, Runnable action) implements Comparable<Entry> {
        @Override
        public int compareTo(Entry o) {
            int c = Long.compare(at, o.at);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }

    private final PriorityQueue<Entry> queue = new PriorityQueue<>();
    private long seq;
    private long now;

    Agenda(long startMillis) {
        this.now = startMillis;
    }

    /** Current simulated time, epoch milliseconds. */
    long now() {
        return now;
    }

    /** Schedules an action at an absolute time; times in the past run at the current time. */
    void at(long atMillis, Runnable action) {
        queue.add(new Entry(Math.max(atMillis, now), seq++, action));
    }

    void after(long delayMillis, Runnable action) {
        at(now + delayMillis, action);
    }

    /** Runs every action due at or before {@code until}, in order, then sets the clock to {@code until}. */
    void runUntil(long until) {
        while (!queue.isEmpty() && queue.peek().at <= until) {
            Entry e = queue.poll();
            now = e.at;
            e.action.run();
        }
        now = Math.max(now, until);
    }

    int size() {
        return queue.size();
    }
}
