package io.lifeline.domain.replay;

/**
 * A record of a trace that could not be read; the rest of the trace is kept.
 *
 * @param line    the line the record starts on (1-based)
 * @param reason  why it was refused
 */
public record TraceRejection(int line, String reason) {}
