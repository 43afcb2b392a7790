package io.lifeline.api.read;

import jakarta.ws.rs.NotFoundException;

/** 404 answers that say what was not found. */
final class NotFound {

    private NotFound() {}

    static NotFoundException job(String job) {
        return new NotFoundException("no job named '" + job + "'");
    }

    static NotFoundException stacks(String job, String request) {
        return new NotFoundException(
                request == null
                        ? "no stacks captured for job '" + job + "' yet: POST to this path captures them"
                        : "no stacks of request '" + request + "' for job '" + job
                                + "' (a job keeps its newest few captures)");
    }

    static NotFoundException node(String node) {
        return new NotFoundException("no node named '" + node + "'");
    }
}
