package io.lifeline.store;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Lets the embedded database outlive the application's last write during JVM shutdown. */
public final class ShutdownOrder {

    private static final CountDownLatch STOPPED = new CountDownLatch(1);
    private static final long MAX_WAIT_SECONDS = 15;

    private ShutdownOrder() {
    }

    /** Called once the store has written everything it will write. */
    public static void applicationStopped() {
        STOPPED.countDown();
    }

    /** Waits (bounded) until the store has written everything, so the embedded database may stop. */
    public static void awaitApplicationStopped() {
        try {
            STOPPED.await(MAX_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
