package io.lifeline.domain.replay;

/** A replay was stopped before its end (its deadline passed, or its caller went away). */
public final class ReplayCancelledException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ReplayCancelledException(long applied) {
        super("replay cancelled after " + applied + " events");
    }
}
