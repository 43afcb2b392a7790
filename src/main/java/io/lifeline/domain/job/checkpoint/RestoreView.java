package io.lifeline.domain.job.checkpoint;

import java.time.Instant;

/**
 * A run of the job resumed from a checkpoint ({@code trainer.restored}).
 *
 * @param time          when it resumed
 * @param checkpointId  the checkpoint restored from (null or empty: from scratch)
 * @param step          the step restored
 * @param runId         the run that restored, may be null
 * @param incidentId    the incident the restore belonged to, or null
 * @param known         whether the checkpoint is in the job's (bounded) checkpoint history
 */
public record RestoreView(
        Instant time, String checkpointId, long step, String runId, String incidentId, boolean known) {}
