package io.lifeline.domain.job.incident;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** What a failed worker's report says: its exception's type and first line, or the signal that ended it. */
class WorkerFailureTest {

    private static final Instant AT = Instant.parse("2026-12-07T10:00:00Z");

    @Test
    void aPythonErrorIsSplitIntoItsTypeAndFirstLine() {
        WorkerFailure f = WorkerFailure.of(AT, 3, "n1", 1, "RuntimeError: loss is nan\nmore detail", 120L);
        assertThat(f.errorType()).isEqualTo("RuntimeError");
        assertThat(f.errorLine()).isEqualTo("loss is nan");
        assertThat(f.signal()).isNull();
        assertThat(f.signature()).isEqualTo("RuntimeError: loss is nan");
    }

    @Test
    void aTracebackIsReadFromItsLastLineAndAQualifiedTypeKeepsItsSimpleName() {
        String tb = "Traceback (most recent call last):\n  File \"train.py\", line 9, in <module>\n    step()\n"
                + "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970\n";
        WorkerFailure f = WorkerFailure.of(AT, 0, null, 1, tb, null);
        assertThat(f.errorType()).isEqualTo("DistBackendError");
        assertThat(f.errorLine()).isEqualTo("NCCL error in: ProcessGroupNCCL.cpp:1970");
    }

    @Test
    void signalsAreReadFromNegativeAndShellExitCodes() {
        assertThat(WorkerFailure.of(AT, 0, null, -9, null, null).signal()).isEqualTo("SIGKILL");
        assertThat(WorkerFailure.of(AT, 0, null, 143, null, null).signal()).isEqualTo("SIGTERM");
        assertThat(WorkerFailure.of(AT, 0, null, 139, null, null).signature()).isEqualTo("SIGSEGV");
        assertThat(WorkerFailure.of(AT, 0, null, 1, null, null).signature()).isEqualTo("exit code 1");
        assertThat(WorkerFailure.of(AT, 0, null, null, "  ", null).signature()).isNull();
    }

    @Test
    void aMessageWithoutATypeIsKeptWholeAndBounded() {
        WorkerFailure f = WorkerFailure.of(AT, 0, null, 1, "x".repeat(500), null);
        assertThat(f.errorType()).isNull();
        assertThat(f.errorLine()).hasSize(WorkerFailure.MAX_LINE);
        WorkerFailure spaced = WorkerFailure.of(AT, 0, null, 1, "worker exited: see log", null);
        assertThat(spaced.errorType()).isNull();
        assertThat(spaced.errorLine()).isEqualTo("worker exited: see log");
    }
}
