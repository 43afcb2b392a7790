package io.lifeline.eventlog;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The order in which Lifeline stops, so that nothing uses the database after it is gone.
 *
 * <p>Quarkus calls the {@code ShutdownEvent} observers lowest priority first, and only then destroys the beans, in no
 * particular order: the connection pool may close before any other bean's {@code @PreDestroy}. So whatever uses the
 * database from a thread of its own stops in an observer of one of these phases (conditional on the bean existing,
 * {@code Reception.IF_EXISTS}, so that a stop never creates what never started), and keeps its {@code @PreDestroy}
 * as an idempotent fallback:
 * <ol>
 *   <li>{@link #INGEST}: ingest closes and stores the latest telemetry;</li>
 *   <li>{@link #MODEL_CHECKPOINT}: the model's last checkpoint is written;</li>
 *   <li>{@link #BACKGROUND}: listeners, the log follower, Kafka consumers, the demo fleet (which writes its journal
 *       as it stops), executors, timers and scheduled jobs stop and the leader lease is given up, so nothing new is
 *       written;</li>
 *   <li>{@link #WRITERS}: the history and timeline writers write what is queued;</li>
 *   <li>{@link #EVENT_LOG}: the event log's writer does, last, and then says so ({@link #applicationStopped}).</li>
 * </ol>
 *
 * <p>The embedded database (started before Quarkus, stopped by a JVM shutdown hook that runs beside Quarkus' own)
 * waits for that last write, unless the store never started or the start failed: then there is nothing to wait for.
 */
public final class ShutdownOrder {

    /** Ingest closes (Quarkus' default observer priority). */
    public static final int INGEST = 2500;
    /** The model's last checkpoint. */
    public static final int MODEL_CHECKPOINT = 3000;
    /** Listeners, followers, consumers, the demo fleet, executors, timers, scheduled jobs and the leader lease stop. */
    public static final int BACKGROUND = 3500;
    /** The history and timeline writers drain. */
    public static final int WRITERS = 4000;
    /** The event log's writer drains, last. */
    public static final int EVENT_LOG = 4500;

    /**
     * Longer than the last writes may take: the model checkpoint at shutdown waits up to a minute for the model and
     * another for its write (a large fleet on a busy machine takes tens of seconds), then the log writer drains.
     * Stopping the database sooner lost that checkpoint, and the next start replayed the log since the previous one.
     */
    static final long MAX_WAIT_SECONDS = 150;

    private static final Gate GATE = new Gate();

    private ShutdownOrder() {}

    /** Called when the store starts writing: from now on, a stop waits for {@link #applicationStopped}. */
    public static void storeStarted() {
        GATE.started();
    }

    /** Called once the store has written everything it will write, or when the application failed to start. */
    public static void applicationStopped() {
        GATE.stopped();
    }

    /**
     * Waits (bounded) until the store has written everything, so the embedded database may stop; at once when the
     * store never started. False when the wait ran out first.
     */
    public static boolean awaitApplicationStopped() {
        return GATE.await(MAX_WAIT_SECONDS, TimeUnit.SECONDS);
    }

    /** The state behind the static methods, one per process; its own instances for tests. */
    static final class Gate {
        private final CountDownLatch stopped = new CountDownLatch(1);
        private volatile boolean started;

        void started() {
            started = true;
        }

        void stopped() {
            stopped.countDown();
        }

        boolean await(long timeout, TimeUnit unit) {
            if (!started) {
                return true;
            }
            try {
                return stopped.await(timeout, unit);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }
}
