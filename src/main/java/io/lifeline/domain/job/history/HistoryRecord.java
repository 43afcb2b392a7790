package io.lifeline.domain.job.history;

import java.time.Instant;

/**
 * One incident or checkpoint of a job as it stands after a change, handed over by {@code Jobs.drainRecords()} so
 * that a caller can store every one while memory keeps only the newest. Unlike timeline entries these change after
 * they are created (an incident closes, a started checkpoint completes or is verified), so a store keeps the latest
 * version per {@code (kind, job, incarnation, id)}.
 *
 * @param kind         incident or checkpoint
 * @param job          job name
 * @param incarnation  the job's incarnation (see {@code JobTimelineEntry})
 * @param id           incident or checkpoint id
 * @param ordinal      order of creation within the incarnation, from 1; pages go by it
 * @param time         when it began (incident opened, checkpoint first reported); retention goes by it
 * @param view         the incident's {@code IncidentView} or the checkpoint's {@code CheckpointView}
 */
public record HistoryRecord(
        Kind kind, String job, long incarnation, String id, long ordinal, Instant time, Object view) {

    /** What the record is. */
    public enum Kind {
        INCIDENT,
        CHECKPOINT
    }
}
