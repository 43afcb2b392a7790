package io.lifeline.app;

import io.lifeline.codec.OutgoingText;
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
 * The logging context's values ({@code io.lifeline.platform.LogContext}: a job's or node's name, printed before the
 * message) are escaped the same way. A stack trace is printed after the message as usual, on its own lines.
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
            escapeContext(ext);
        } else if (record.getMessage() != null && (record.getParameters() == null
                || record.getParameters().length == 0)) {
            record.setMessage(OutgoingText.oneLine(record.getMessage()));
        }
        return true;
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
