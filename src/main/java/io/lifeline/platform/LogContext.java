package io.lifeline.platform;

import java.util.List;
import org.jboss.logging.MDC;

/**
 * What the log lines written now are about: the job, node and action whose work runs on this thread, as the
 * logging context's (MDC) keys {@value #JOB}, {@value #NODE} and {@value #ACTION}, so that every line about a job or
 * node says which without each message having to (Strimzi's {@code Reconciliation} does the same for its resources).
 * The text format prints {@value #SUBJECT}, the three rendered ({@code {job=team-a/llm, action=8f1c}}), only when one
 * is set; JSON logs carry each key as a field.
 *
 * <p>A scope is opened with try-with-resources where work about one subject starts, and closing it restores what was
 * there before, so scopes nest: a drain of a node ({@code node}, {@code action}) runs a step about one of its jobs
 * ({@code job} as well), and after that step the node's context is back as it was.
 *
 * <pre>{@code
 * try (LogContext about = LogContext.action(a.id()); LogContext job = LogContext.job(a.target())) {
 *     ...
 * }
 * }</pre>
 *
 * <p>The context is per thread. Work handed to another thread (a pool's task, a future's callback) opens its context
 * again there, from what it is about or from a {@link #current() snapshot} taken when it was handed over. A thread
 * started inside a scope (a pool growing, a client starting its I/O thread on first use) inherits a copy of the MDC,
 * which is not what that thread will be doing: the keys are stamped with the thread that set them ({@value #THREAD}),
 * so that on any other thread they count as unset here, and the log filter drops them from its lines.
 *
 * <p>Opening a scope costs a few map operations: cheap per action step or decision, not meant for the per-event
 * path of ingest. Values are written as given; the log filter escapes control characters in them as in messages.
 */
public final class LogContext implements AutoCloseable {

    /** The job ({@code namespace/name}) the line is about. */
    public static final String JOB = "job";
    /** The node the line is about. */
    public static final String NODE = "node";
    /** The action (its id) the line is part of. */
    public static final String ACTION = "action";
    /** The keys above rendered for the text format ({@code {job=..., node=..., action=...} }), absent when none is set. */
    public static final String SUBJECT = "subject";
    /** The id of the thread that set the keys: on any other thread they were inherited, and do not apply. */
    public static final String THREAD = "contextThread";

    private static final String[] KEYS = {JOB, NODE, ACTION};
    private static final List<String> ALL_KEYS = List.of(JOB, NODE, ACTION, SUBJECT);
    private static final LogContext NOTHING = new LogContext(null);

    /** The values of {@link #KEYS} before this scope opened, to restore at close; null for a scope that set nothing. */
    private final String[] before;

    private LogContext(String[] before) {
        this.before = before;
    }

    /** The job's scope; null leaves the context as it is. */
    public static LogContext job(String job) {
        return with(0, job);
    }

    /** The node's scope; null leaves the context as it is. */
    public static LogContext node(String node) {
        return with(1, node);
    }

    /** The action's scope; null leaves the context as it is. */
    public static LogContext action(String id) {
        return with(2, id);
    }

    /**
     * Exactly this context, whatever was there: each key set to its value, or removed when it is null. For the top
     * of a task on a pooled thread, and for a context carried to another thread.
     */
    public static LogContext of(String job, String node, String action) {
        String[] before = read();
        write(new String[] {job, node, action});
        return new LogContext(before);
    }

    /** The context now, to open again on another thread ({@link Snapshot#open()}). */
    public static Snapshot current() {
        String[] now = read();
        return new Snapshot(now[0], now[1], now[2]);
    }

    /**
     * The keys a line carries ({@link #JOB}, {@link #NODE}, {@link #ACTION}, {@link #SUBJECT}): what a log filter drops
     * when they were set by another thread than the line's ({@link #THREAD}).
     */
    public static List<String> keys() {
        return ALL_KEYS;
    }

    /** Restores the context as it was when this scope opened. */
    @Override
    public void close() {
        if (before != null) {
            write(before);
        }
    }

    /**
     * A context taken on one thread to be opened on another: a continuation that runs where a future completes
     * logs as the work that started it.
     */
    public record Snapshot(String job, String node, String action) {

        /** Exactly this context on the current thread, until closed. */
        public LogContext open() {
            return of(job, node, action);
        }

        /** {@code task} run in this context. */
        public Runnable wrap(Runnable task) {
            return () -> {
                try (LogContext ignored = open()) {
                    task.run();
                }
            };
        }
    }

    private static LogContext with(int key, String value) {
        if (value == null) {
            return NOTHING;
        }
        String[] before = read();
        if (value.equals(before[key])) {
            return NOTHING;
        }
        String[] now = before.clone();
        now[key] = value;
        write(now);
        return new LogContext(before);
    }

    /** This thread's context; empty when the keys there were set by another thread (inherited when it started). */
    private static String[] read() {
        String[] values = new String[KEYS.length];
        if (!threadId().equals(MDC.get(THREAD))) {
            return values;
        }
        for (int i = 0; i < KEYS.length; i++) {
            values[i] = MDC.get(KEYS[i]) instanceof String s ? s : null;
        }
        return values;
    }

    private static void write(String[] values) {
        StringBuilder subject = null;
        for (int i = 0; i < KEYS.length; i++) {
            if (values[i] == null) {
                MDC.remove(KEYS[i]);
                continue;
            }
            MDC.put(KEYS[i], values[i]);
            subject = (subject == null ? new StringBuilder("{") : subject.append(", "))
                    .append(KEYS[i])
                    .append('=')
                    .append(values[i]);
        }
        if (subject == null) {
            MDC.remove(SUBJECT);
            MDC.remove(THREAD);
        } else {
            // The space ends the field, so that a format can print it right before the message, or nothing.
            MDC.put(SUBJECT, subject.append("} ").toString());
            MDC.put(THREAD, threadId());
        }
    }

    @SuppressWarnings("deprecation") // Thread.threadId() is Java 19+; getId() is the same number
    private static String threadId() {
        return Long.toString(Thread.currentThread().getId());
    }
}
