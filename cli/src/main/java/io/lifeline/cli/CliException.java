package io.lifeline.cli;

/** Ends the command with an exit code and a message for standard error. */
class CliException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int exitCode;

    CliException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    CliException(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    int exitCode() {
        return exitCode;
    }

    static CliException usage(String message) {
        return new CliException(Exit.USAGE, message);
    }

    static CliException notFound(String message) {
        return new CliException(Exit.NOT_FOUND, message);
    }
}
