package io.lifeline.domain.replay;

import java.util.Arrays;
import java.util.Optional;

/** The trace formats Lifeline reads (docs/whatif.md describes each). */
public enum TraceFormat {
    /** The Philly multi-attempt jobs CSV: one row per attempt. */
    PHILLY_CSV("philly-csv"),
    /** The Philly {@code cluster_job_log} JSON: job records with their attempts (an array, or one record per line). */
    PHILLY_JSON("philly-json"),
    /** The OPT-175B chronicles' dated events CSV. */
    OPT175B("opt175b"),
    /** Lifeline's own stored events of a job (CloudEvents JSON, one per line or an array). */
    LIFELINE("lifeline");

    private final String wire;

    TraceFormat(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public static Optional<TraceFormat> fromWire(String s) {
        return Arrays.stream(values())
                .filter(f -> f.wire.equalsIgnoreCase(s == null ? "" : s.trim()))
                .findFirst();
    }
}
