package io.lifeline.testing;

import io.lifeline.platform.LogContext;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import org.jboss.logmanager.ExtLogRecord;

/**
 * The log records of a category and those below it, captured while open, each with the logging context
 * ({@link LogContext}'s keys) it was written in. Debug lines included: the category's level is lowered while it is
 * open and given back at close.
 */
public final class LogLines extends Handler implements AutoCloseable {

    /** One record: its logger, level, message as printed and its context (only the keys that were set). */
    public record Line(String logger, Level level, String message, Map<String, String> context) {

        /** The value of a context key, or null. */
        public String get(String key) {
            return context.get(key);
        }
    }

    private final Logger logger;
    private final Level before;
    private final List<Line> lines = new CopyOnWriteArrayList<>();

    private LogLines(String category) {
        this.logger = Logger.getLogger(category);
        this.before = logger.getLevel();
        logger.setLevel(Level.FINE);
        logger.addHandler(this);
    }

    /** Captures {@code category} (a logger name, or a package for all of its loggers) from now until closed. */
    public static LogLines capture(String category) {
        return new LogLines(category);
    }

    /** What was logged so far. */
    public List<Line> lines() {
        return List.copyOf(lines);
    }

    /** What was logged so far whose message contains {@code text}. */
    public List<Line> about(String text) {
        return lines.stream().filter(l -> l.message().contains(text)).toList();
    }

    @Override
    public void publish(LogRecord r) {
        // Called on the thread that logs, so the thread's context is the line's (as the log filter keeps it: not one
        // the thread only inherited).
        LogContext.Snapshot now = LogContext.current();
        Map<String, String> context = new HashMap<>();
        put(context, LogContext.JOB, now.job());
        put(context, LogContext.NODE, now.node());
        put(context, LogContext.ACTION, now.action());
        String message =
                r instanceof ExtLogRecord ext ? ext.getFormattedMessage() : new SimpleFormatter().formatMessage(r);
        lines.add(new Line(r.getLoggerName(), r.getLevel(), message, Map.copyOf(context)));
    }

    private static void put(Map<String, String> context, String key, String value) {
        if (value != null) {
            context.put(key, value);
        }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {
        logger.removeHandler(this);
        logger.setLevel(before);
    }
}
