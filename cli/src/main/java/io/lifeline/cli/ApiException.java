package io.lifeline.cli;

import com.fasterxml.jackson.databind.JsonNode;

/** The server answered with an error: its problem document's title and detail, and the exit code they mean. */
final class ApiException extends CliException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final String title;
    private final String detail;
    private final transient JsonNode problem;

    ApiException(int status, String title, String detail, JsonNode problem, boolean acting) {
        super(Exit.ofStatus(status, acting), message(status, title, detail));
        this.status = status;
        this.title = title;
        this.detail = detail;
        this.problem = problem;
    }

    int status() {
        return status;
    }

    String title() {
        return title;
    }

    String detail() {
        return detail;
    }

    /** The problem document as sent, or null when the answer was not one. */
    JsonNode problem() {
        return problem;
    }

    static String message(int status, String title, String detail) {
        boolean untitled = title == null || title.isBlank();
        String t = untitled ? "HTTP " + status : title;
        if (detail == null || detail.isBlank()) {
            return untitled ? t : t + " (HTTP " + status + ")";
        }
        return t + ": " + detail;
    }
}
