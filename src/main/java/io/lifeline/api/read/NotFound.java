package io.lifeline.api.read;

import jakarta.ws.rs.NotFoundException;

/** 404 answers that say what was not found. */
final class NotFound {

    private NotFound() {}

    static NotFoundException job(String job) {
        return new NotFoundException("no job named '" + job + "'");
    }

    static NotFoundException node(String node) {
        return new NotFoundException("no node named '" + node + "'");
    }
}
