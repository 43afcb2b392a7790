package io.lifeline.faults;

import java.time.Duration;
import java.util.concurrent.Callable;

/** Polling until something holds, for the scenarios. */
final class Waits {

    private Waits() {}

    /**
     * Calls {@code probe} every 100 ms until it answers something other than null or false, and returns that; an
     * exception counts as "not yet". Throws once {@code timeout} has passed.
     */
    static <T> T until(String what, Duration timeout, Callable<T> probe) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Exception last = null;
        while (System.nanoTime() < deadline) {
            try {
                T v = probe.call();
                if (v != null && !Boolean.FALSE.equals(v)) {
                    return v;
                }
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                last = e;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("timed out after " + timeout.toSeconds() + " s waiting for " + what
                + (last == null ? "" : " (last error: " + last + ")"));
    }

    /**
     * Waits until nothing holds {@code port} on loopback: the suite's fixed ports lie in the kernel's range of
     * ephemeral ports, so a client connection may hold one for a moment while its server is down.
     */
    static void portFree(int port) throws InterruptedException {
        until("port " + port + " to be free", Duration.ofSeconds(90), () -> {
            try (java.net.ServerSocket s = new java.net.ServerSocket()) {
                s.setReuseAddress(false);
                s.bind(new java.net.InetSocketAddress("0.0.0.0", port));
                return true;
            } catch (java.io.IOException e) {
                return false;
            }
        });
    }

    static void sleep(Duration d) throws InterruptedException {
        Thread.sleep(d.toMillis());
    }

    static double seconds(long fromNanos, long toNanos) {
        return Math.round((toNanos - fromNanos) / 1e7) / 100.0;
    }
}
