package io.lifeline.ingest;

/** Lifeline cannot take events right now (store unavailable and buffer full, or shutting down); retry later. */
public class IngestRejectedException extends RuntimeException {

    public IngestRejectedException(String reason) {
        super(reason, null, false, false);
    }
}
