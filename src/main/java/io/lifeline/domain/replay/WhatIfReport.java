package io.lifeline.domain.replay;

import java.time.Instant;
import java.util.List;

/**
 * A what-if's answer: the actual row first, then one row per scenario, with the inputs shared by all.
 *
 * @param job                     job name
 * @param start                   window start
 * @param end                     window end
 * @param gpus                    GPUs
 * @param nodes                   nodes
 * @param pool                    pool, or null
 * @param mtbiSeconds             observed job-level time between interruptions over the window, or null
 * @param currentIntervalSeconds  the job's interval, or null
 * @param advisedIntervalSeconds  the advised interval, or null
 * @param rows                    actual, then scenarios
 * @param notes                   assumptions and what could not be answered
 * @param elapsedMillis           time the replays took
 */
public record WhatIfReport(
        String job,
        Instant start,
        Instant end,
        int gpus,
        int nodes,
        String pool,
        Double mtbiSeconds,
        Double currentIntervalSeconds,
        Double advisedIntervalSeconds,
        List<WhatIfRow> rows,
        List<String> notes,
        long elapsedMillis) {

    public WhatIfReport {
        rows = List.copyOf(rows);
        notes = List.copyOf(notes);
    }
}
