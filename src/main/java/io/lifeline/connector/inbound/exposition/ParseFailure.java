package io.lifeline.connector.inbound.exposition;

/**
 * Why a line was refused; caught by the parser and turned into a {@link ParseError}. It carries no stack trace:
 * it is an expected outcome for bad input, not a bug, and lenient parsing may raise it once per bad line.
 */
final class ParseFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    ParseFailure(String message) {
        super(message, null, false, false);
    }
}
