package io.lifeline.app;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A small shell process that stops the embedded PostgreSQL server when this JVM ends, however it ends. The server
 * is started by {@code pg_ctl}, which detaches it, so it outlives a JVM killed with SIGKILL (a crash, the OOM
 * killer) unless something stops it: this process holds the read end of a pipe whose write end only this JVM holds,
 * sees its end when the kernel closes it, and then shuts the server down (fast, then immediate after a grace).
 */
final class PostmasterWatchdog implements AutoCloseable {

    /** How long a fast shutdown may take (a checkpoint of the dirty buffers) before an immediate one. */
    static final Duration FAST_SHUTDOWN_GRACE = Duration.ofSeconds(30);

    private static final Path SHELL = Path.of("/bin/sh");
    private static final String SCRIPT = script();

    private final Process process;

    private PostmasterWatchdog(Process process) {
        this.process = process;
    }

    /** Whether this system can run the watchdog (a POSIX shell; not on Windows). */
    static boolean available() {
        return Files.isExecutable(SHELL);
    }

    /** Starts watching the server {@code pid} of {@code dataDir}; it stops that server once this JVM is gone. */
    static PostmasterWatchdog watch(long pid, Path dataDir) throws IOException {
        return new PostmasterWatchdog(launch(pid, dataDir));
    }

    /**
     * Stops the server {@code pid} of {@code dataDir} now, the way the watchdog would, and waits for it to be gone.
     *
     * @return whether it stopped within {@code timeout}
     */
    static boolean stopNow(long pid, Path dataDir, Duration timeout) throws IOException, InterruptedException {
        Process stopper = launch(pid, dataDir);
        stopper.getOutputStream().close();
        boolean done = stopper.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (!done) {
            stopper.destroyForcibly();
        }
        return awaitGone(pid, done ? Duration.ofSeconds(10) : Duration.ZERO);
    }

    private static Process launch(long pid, Path dataDir) throws IOException {
        return new ProcessBuilder(
                        SHELL.toString(),
                        "-c",
                        SCRIPT,
                        "lifeline-postmaster-watchdog",
                        Long.toString(pid),
                        dataDir.toString(),
                        Long.toString(FAST_SHUTDOWN_GRACE.toSeconds()))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
    }

    /** Whether {@code pid} has ended, waiting at most {@code timeout} (the script returns as its lock file goes). */
    private static boolean awaitGone(long pid, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(50);
        }
        return true;
    }

    /**
     * Ends the watch after the server was stopped the ordinary way: the script sees its input end, finds the server
     * gone (or stops it, if the ordinary stop gave up) and exits.
     */
    @Override
    public void close() {
        try {
            process.getOutputStream().close();
            if (!process.waitFor(FAST_SHUTDOWN_GRACE.toSeconds() + 10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String script() {
        try (InputStream in = PostmasterWatchdog.class.getResourceAsStream("postmaster-watchdog.sh")) {
            if (in == null) {
                throw new IllegalStateException("postmaster-watchdog.sh missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
