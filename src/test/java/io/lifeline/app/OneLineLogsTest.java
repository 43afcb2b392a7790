package io.lifeline.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.platform.LogContext;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import org.jboss.logging.MDC;
import org.jboss.logmanager.ExtLogRecord;
import org.jboss.logmanager.formatters.PatternFormatter;
import org.junit.jupiter.api.Test;

/**
 * The filter keeps a record on one line, its logging context included: a job name with a line break in it (as an
 * event may carry) is printed escaped in the context the format puts before the message, and the thread's own
 * context is left as it was.
 */
class OneLineLogsTest {

    private static final String FORMAT = "%-5p (%t) %X{subject}%s%n";

    @Test
    void theContextBeforeTheMessageIsEscapedLikeTheMessage() {
        String job = "team-a/llm\n12:00:00.000 INFO  forged";
        String line;
        try (LogContext about = LogContext.job(job);
                LogContext action = LogContext.action("act-1")) {
            ExtLogRecord r = new ExtLogRecord(
                    Level.INFO,
                    "checkpoint %s\r\ndone",
                    ExtLogRecord.FormatStyle.PRINTF,
                    OneLineLogsTest.class.getName());
            r.setParameters(new Object[] {"now"});
            assertThat(new OneLineLogs().isLoggable(r)).isTrue();
            line = new PatternFormatter(FORMAT).format(r);
            assertThat(MDC.get(LogContext.JOB))
                    .as("the thread's context is not rewritten")
                    .isEqualTo(job);
            assertThat(r.getMdc(LogContext.JOB)).isEqualTo("team-a/llm\\n12:00:00.000 INFO  forged");
        }
        assertThat(line)
                .isEqualTo("INFO  (" + Thread.currentThread().getName()
                        + ") {job=team-a/llm\\n12:00:00.000 INFO  forged, action=act-1} checkpoint now\\r\\ndone\n");
    }

    @Test
    void aThreadThatOnlyInheritedAContextLogsWithoutIt() throws Exception {
        AtomicReference<String> line = new AtomicReference<>();
        try (LogContext about = LogContext.job("team-a/llm");
                LogContext action = LogContext.action("act-1")) {
            // A client's I/O thread, started on first use inside a step: its lines are not about that step's job.
            Thread io = new Thread(
                    () -> {
                        ExtLogRecord r = new ExtLogRecord(
                                Level.INFO,
                                "metadata refreshed",
                                ExtLogRecord.FormatStyle.NO_FORMAT,
                                OneLineLogsTest.class.getName());
                        new OneLineLogs().isLoggable(r);
                        line.set(new PatternFormatter(FORMAT).format(r));
                    },
                    "client-io");
            io.start();
            io.join(10_000);
        }
        assertThat(line.get()).isEqualTo("INFO  (client-io) metadata refreshed\n");
    }

    @Test
    void aLineAboutNothingHasNothingBeforeTheMessage() {
        ExtLogRecord r = new ExtLogRecord(
                Level.INFO, "started", ExtLogRecord.FormatStyle.NO_FORMAT, OneLineLogsTest.class.getName());
        new OneLineLogs().isLoggable(r);
        assertThat(new PatternFormatter(FORMAT).format(r))
                .isEqualTo("INFO  (" + Thread.currentThread().getName() + ") started\n");
    }
}
