package io.lifeline.runtime;

/**
 * The room of the model's queue, in events and in estimated bytes: taken when work is queued, given back when the
 * model thread takes it. A single piece larger than the whole room is let in when the queue is empty, so nothing is
 * refused for good.
 */
final class QueueRoom {

    private final long maxEvents;
    private final long maxBytes;
    private long events;
    private long bytes;

    QueueRoom(long maxEvents, long maxBytes) {
        if (maxEvents < 1 || maxBytes < 1) {
            throw new IllegalArgumentException("the model queue needs room for at least one event and one byte");
        }
        this.maxEvents = maxEvents;
        this.maxBytes = maxBytes;
    }

    /** Takes room if there is some now. */
    synchronized boolean tryTake(long n, long size) {
        if (!fits(n, size)) {
            return false;
        }
        events += n;
        bytes += size;
        return true;
    }

    /** Takes room, waiting up to {@code timeoutMillis} for it; false when there was none in time. */
    synchronized boolean take(long n, long size, long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
        while (!fits(n, size)) {
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                return false;
            }
            wait(left);
        }
        events += n;
        bytes += size;
        return true;
    }

    synchronized void give(long n, long size) {
        events -= n;
        bytes -= size;
        notifyAll();
    }

    synchronized long events() {
        return events;
    }

    synchronized long bytes() {
        return bytes;
    }

    long maxEvents() {
        return maxEvents;
    }

    long maxBytes() {
        return maxBytes;
    }

    private boolean fits(long n, long size) {
        return events == 0 && bytes == 0 || events + n <= maxEvents && bytes + size <= maxBytes;
    }
}
