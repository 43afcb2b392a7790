package io.lifeline.platform;

import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;

/**
 * Lifeline's background threads: daemons (they never hold the JVM open; each owner stops its own at shutdown), named
 * so that a thread dump, a log line or a CPU profile says whose they are, and whose uncaught failure is logged with
 * that name instead of vanishing on standard error.
 */
public final class Threads {

    private static final Logger LOG = Logger.getLogger(Threads.class);

    /** Logs a failure that escaped a background thread's task; the thread ends, its pool (if any) makes another. */
    static final Thread.UncaughtExceptionHandler LOG_UNCAUGHT =
            (t, e) -> LOG.errorf(e, "Thread %s stopped on an uncaught failure", t.getName());

    private Threads() {}

    /**
     * A factory of daemon threads named {@code name-1}, {@code name-2}, ... (numbered per factory, so one factory
     * shared by several executors numbers their threads as one family).
     */
    public static ThreadFactory daemon(String name) {
        Objects.requireNonNull(name, "name");
        AtomicInteger n = new AtomicInteger();
        return r -> daemon(name + "-" + n.incrementAndGet(), r);
    }

    /** One daemon thread named exactly {@code name}, not started: for a loop that owns its thread. */
    public static Thread daemon(String name, Runnable task) {
        Thread t = new Thread(task, Objects.requireNonNull(name, "name"));
        t.setDaemon(true);
        t.setUncaughtExceptionHandler(LOG_UNCAUGHT);
        return t;
    }

    /** {@link #daemon(String, Runnable)}, started. */
    public static Thread start(String name, Runnable task) {
        Thread t = daemon(name, task);
        t.start();
        return t;
    }
}
