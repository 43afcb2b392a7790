package io.lifeline.domain.replay;

import io.lifeline.domain.job.incident.IncidentCause;
import java.time.Instant;

/**
 * One interruption a what-if replays: when training stopped, how long it took to train again, and whether a notice
 * came first.
 *
 * @param stoppedAt         when training stopped
 * @param recoveryMillis    stop until training again (detection, restart, load)
 * @param cause             why
 * @param pool              the pool it is attributed to, or null
 * @param noticeLeadMillis  how long before the stop a notice came (the announced lead when known), or null without one
 */
public record ReplayInterruption(
        Instant stoppedAt, long recoveryMillis, IncidentCause cause, String pool, Long noticeLeadMillis) {}
