package io.lifeline.store;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Lets the embedded database outlive the application's last write during JVM shutdown. */
public final class ShutdownOrder {

    private static final CountDownLatch STOPPED = new CountDownLatch(1);
    /**
     * Longer than the last writes may take: the model checkpoint at shutdown waits up to a minute for the model and
     * another for its write (a large fleet on a busy machine takes tens of seconds), then the log writer drains.
     * Stopping the database sooner lost that checkpoint, and the next start replayed the log since the previous one.
     */
    private static final long MAX_WAIT_SECONDS = 150;

    private ShutdownOrder() {
    }

    /** Called once the store has written everything it will write. */
    public static void applicationStopped() {
        STOPPED.countDown();
    }

    /**
     * Waits (bounded) until the store has written everything, so the embedded database may stop; false when the
     * wait ran out first.
     */
    public static boolean awaitApplicationStopped() {
        try {
            return STOPPED.await(MAX_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
