package io.lifeline.app;

import io.lifeline.codec.OutgoingText;
import io.lifeline.platform.LogContext;
import io.quarkus.logging.LoggingFilter;
import java.util.Map;
import java.util.logging.Filter;
import java.util.logging.LogRecord;
import org.jboss.logmanager.ExtLogRecord;

/**
 * Every log record's message, with its parameters, on one line ({@link OutgoingText#oneLine}): what events carry
 * (a trainer's message, a job's name in a data field) reaches the log through many messages, and none of them may
 * end the line and forge the next one. One filter on every handler ({@code quarkus.log.console.filter},
 * {@code quarkus.log.file.filter}) instead of an escape at each call, so a message written tomorrow is covered too.
 * The logging context's values ({@link LogContext}: a job's or node's name, printed before the message) are escaped
 * the same way, and dropped from the line of a thread that only inherited them (started inside another thread's
 * scope: that is not what it is doing). A stack trace is printed after the message as usual, on its own lines.
 */
@LoggingFilter(name = "one-line")
public final class OneLineLogs implements Filter {

    @Override
    public boolean isLoggable(LogRecord record) {
        if (record instanceof ExtLogRecord ext) {
            String formatted = ext.getFormattedMessage();
            String line = OutgoingText.oneLine(formatted);
            // Replaced even when unchanged: the handler then prints it as it is, without formatting it again.
            ext.setMessage(line, ExtLogRecord.FormatStyle.NO_FORMAT);
            ext.setParameters(null);
            dropInheritedContext(ext);
            escapeContext(ext);
        } else if (record.getMessage() != null
                && (record.getParameters() == null || record.getParameters().length == 0)) {
            record.setMessage(OutgoingText.oneLine(record.getMessage()));
        }
        return true;
    }

    /**
     * Drops the context from the line of a thread that did not set it, and the owner stamp once checked: a second
     * handler's pass finds the line as the first one left it.
     */
    private static void dropInheritedContext(ExtLogRecord ext) {
        String owner = ext.getMdc(LogContext.THREAD);
        if (owner == null) {
            return;
        }
        if (!owner.equals(Long.toString(ext.getLongThreadID()))) {
            LogContext.keys().forEach(ext::removeMdc);
        }
        ext.removeMdc(LogContext.THREAD);
    }

    /** Only values that need it are replaced (on the record's own copy of the context, never the thread's). */
    private static void escapeContext(ExtLogRecord ext) {
        Map<String, String> context = ext.getMdcCopy();
        if (context.isEmpty()) {
            return;
        }
        for (Map.Entry<String, String> e : context.entrySet()) {
            String line = OutgoingText.oneLine(e.getValue());
            if (line != null && !line.equals(e.getValue())) {
                ext.putMdc(e.getKey(), line);
            }
        }
    }
}
