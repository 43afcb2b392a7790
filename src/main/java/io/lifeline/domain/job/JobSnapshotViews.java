package io.lifeline.domain.job;

import io.lifeline.domain.job.checkpoint.CheckpointHistory;
import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.domain.job.recovery.Advice;
import java.util.List;

/**
 * What a snapshot of the whole model holds of one job, taken together ({@link Jobs#snapshotViews}).
 *
 * @param detail       everything about it now
 * @param incidents    its incidents, oldest first, the open one last
 * @param checkpoints  its checkpoint history
 * @param nodes        the nodes hosting its ranks (those it is indexed under in {@link Jobs#jobsByNode})
 * @param recovery     the recovery ladder's newest advice for it, or null
 */
public record JobSnapshotViews(
        JobDetail detail,
        List<IncidentView> incidents,
        CheckpointHistory checkpoints,
        List<String> nodes,
        Advice recovery) {}
