package io.lifeline.faults;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A process the suite started (broker, database, Lifeline, API server mock), with its log. Every one of them, and
 * whatever it started, is ended when the suite ends, however it ends: normally, by an exception or by a signal.
 */
final class Child {

    private static final List<Child> ALL = new CopyOnWriteArrayList<>();
    private static final List<Runnable> CLEANUPS = new CopyOnWriteArrayList<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(Child::endAll, "faults-cleanup"));
    }

    private final String name;
    private final Process process;
    private final Path log;

    private Child(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /** Starts {@code command} in {@code dir}, appending its output to {@code log}. */
    static Child start(String name, List<String> command, Path dir, Path log, Map<String, String> env)
            throws IOException {
        Files.createDirectories(dir);
        ProcessBuilder pb = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().remove("QUARKUS_DATASOURCE_JDBC_URL");
        pb.environment().putAll(env);
        Child c = new Child(name, pb.start(), log);
        ALL.add(c);
        return c;
    }

    /** Something to do at the end besides ending the children (an orphaned server to stop). */
    static void atEnd(Runnable cleanup) {
        CLEANUPS.add(cleanup);
    }

    String name() {
        return name;
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process.isAlive();
    }

    Path log() {
        return log;
    }

    /** Sends a signal by name ({@code STOP}, {@code CONT}, {@code INT}, {@code TERM}, {@code KILL}). */
    void signal(String sig) {
        signal(process.pid(), sig);
    }

    static void signal(long pid, String sig) {
        try {
            new ProcessBuilder("kill", "-" + sig, Long.toString(pid))
                    .inheritIO()
                    .start()
                    .waitFor(10, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** kill -9, and waits until it is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** Sends {@code sig} and waits up to {@code grace}; kills it if it is still there. Returns the exit code. */
    int stop(String sig, Duration grace) throws InterruptedException {
        if (!process.isAlive()) {
            return process.exitValue();
        }
        signal(sig);
        if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
            kill();
        }
        return process.exitValue();
    }

    private static void endAll() {
        for (Child c : ALL) {
            if (c.process.isAlive()) {
                // A stopped process ignores everything but SIGKILL; its children are ended with it.
                c.process.descendants().forEach(ProcessHandle::destroyForcibly);
                c.process.destroyForcibly();
            }
        }
        for (Runnable r : CLEANUPS) {
            try {
                r.run();
            } catch (RuntimeException e) {
                System.err.println("cleanup failed: " + e);
            }
        }
    }

    /** Ends every child now (the suite is done). */
    static void endAllNow() {
        endAll();
        for (Child c : ALL) {
            try {
                c.process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        ALL.clear();
        CLEANUPS.clear();
    }
}
