package io.lifeline.domain.job.incident;

import java.time.Instant;

/**
 * One failed worker of an incident, as the agent or torchelastic reported it: what tells a workload error (the same
 * exception on every rank) from a node that fails its workers.
 *
 * @param at         when it was reported
 * @param rank       global rank
 * @param node       its node, or null
 * @param exitCode   the process's exit code, or null
 * @param signal     the signal that ended it ({@code SIGKILL}...), from a negative exit code (torchelastic) or one
 *                   above 128 (a shell), or null
 * @param errorType  the exception's type ({@code RuntimeError}), or null
 * @param errorLine  the error's first line, without its type, bounded, or null
 * @param step       the last step the rank completed, as it reported it (the trainer agent does), else the job's last
 *                   step when the failure arrived, or null
 */
public record WorkerFailure(
        Instant at,
        int rank,
        String node,
        Integer exitCode,
        String signal,
        String errorType,
        String errorLine,
        Long step) {

    /** Longest first line kept. */
    static final int MAX_LINE = 200;

    private static final String[] SIGNALS = {
        null, "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT", "SIGBUS", "SIGFPE", "SIGKILL", "SIGUSR1",
        "SIGSEGV", "SIGUSR2", "SIGPIPE", "SIGALRM", "SIGTERM"
    };

    /**
     * A failure from what was reported: the error's first line is split into its exception type and message when it
     * reads {@code Type: message} (Python's form, as torchelastic's error file and the agent give it).
     */
    public static WorkerFailure of(Instant at, int rank, String node, Integer exitCode, String error, Long step) {
        String type = null;
        String line = null;
        if (error != null && !error.isBlank()) {
            String first = firstMeaningfulLine(error);
            int colon = first.indexOf(':');
            String head = colon > 0 ? first.substring(0, colon).trim() : "";
            if (!head.isEmpty() && head.matches("[A-Za-z_][A-Za-z0-9_.]*")) {
                type = head.substring(head.lastIndexOf('.') + 1);
                line = first.substring(colon + 1).trim();
            } else {
                line = first.trim();
            }
            if (line.length() > MAX_LINE) {
                line = line.substring(0, MAX_LINE);
            }
            if (line.isEmpty()) {
                line = null;
            }
        }
        return new WorkerFailure(at, rank, node, exitCode, signal(exitCode), type, line, step);
    }

    /** The signal an exit code stands for, or null. */
    static String signal(Integer exitCode) {
        if (exitCode == null) {
            return null;
        }
        int n = exitCode < 0 ? -exitCode : exitCode > 128 && exitCode < 160 ? exitCode - 128 : 0;
        if (n <= 0) {
            return null;
        }
        return n < SIGNALS.length ? SIGNALS[n] : "SIG" + n;
    }

    /**
     * The line that names the error: a traceback's last {@code Type: message} line when the text is a traceback, else
     * the first non-empty line.
     */
    private static String firstMeaningfulLine(String error) {
        String[] lines = error.strip().split("\\R");
        if (lines[0].startsWith("Traceback")) {
            for (int i = lines.length - 1; i >= 0; i--) {
                String l = lines[i].strip();
                if (!l.isEmpty() && !l.startsWith("File ") && !l.startsWith("^")) {
                    return l;
                }
            }
        }
        for (String l : lines) {
            if (!l.isBlank()) {
                return l.strip();
            }
        }
        return "";
    }

    /**
     * What makes two failures the same error: the exception's type and first line, or, without an error, the exit
     * code or signal; null when nothing was reported (nothing to compare).
     */
    public String signature() {
        if (errorType != null || errorLine != null) {
            return (errorType == null ? "" : errorType + ": ") + (errorLine == null ? "" : errorLine);
        }
        if (signal != null) {
            return signal;
        }
        return exitCode == null ? null : "exit code " + exitCode;
    }
}
