package io.lifeline.cli;

/** Exit codes scripts can rely on (docs/cli.md). */
final class Exit {

    /** Done. */
    static final int OK = 0;
    /** The action failed or was refused (including a confirmation answered no). */
    static final int FAILED = 1;
    /** Wrong usage: unknown command or option, bad value, missing argument. */
    static final int USAGE = 2;
    /** No such job, node, action, policy or token. */
    static final int NOT_FOUND = 3;
    /** Not allowed: no token, an invalid or expired one, or a role or namespace scope that does not allow it. */
    static final int NOT_ALLOWED = 4;
    /** The server could not be reached (or answered that it is unavailable). */
    static final int UNREACHABLE = 5;

    private Exit() {}

    /** The exit code of an answer with this HTTP status; {@code acting} for requests that change something. */
    static int ofStatus(int status, boolean acting) {
        switch (status) {
            case 400:
            case 422:
                return acting ? FAILED : USAGE;
            case 401:
            case 403:
                return NOT_ALLOWED;
            case 404:
            case 410:
                return NOT_FOUND;
            case 502:
            case 503:
            case 504:
                return UNREACHABLE;
            default:
                return FAILED;
        }
    }
}
