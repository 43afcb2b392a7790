package io.lifeline.connector.inbound.exposition;

/**
 * One line that could not be read.
 *
 * @param line     1-based line number
 * @param message  what is wrong with it
 */
public record ParseError(int line, String message) {

    @Override
    public String toString() {
        return "line " + line + ": " + message;
    }
}
