package io.lifeline.app;

import io.lifeline.codec.OutgoingText;
import io.quarkus.logging.LoggingFilter;
import java.util.logging.Filter;
import java.util.logging.LogRecord;
import org.jboss.logmanager.ExtLogRecord;

/**
 * Every log record's message, with its parameters, on one line ({@link OutgoingText#oneLine}): what events carry
 * (a trainer's message, a job's name in a data field) reaches the log through many messages, and none of them may
 * end the line and forge the next one. One filter on every handler ({@code quarkus.log.console.filter},
 * {@code quarkus.log.file.filter}) instead of an escape at each call, so a message written tomorrow is covered too.
 * A stack trace is printed after the message as usual, on its own lines.
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
        } else if (record.getMessage() != null && (record.getParameters() == null
                || record.getParameters().length == 0)) {
            record.setMessage(OutgoingText.oneLine(record.getMessage()));
        }
        return true;
    }
}
