package io.lifeline.domain.job.incident;

import java.time.Instant;

/**
 * An incident's eviction → stop time: from the first request to stop its workers ({@link StopRequest}) to the first
 * sign, at or after it, that they did stop (a worker's exit, the agent restarting its workers, a new rendezvous round,
 * the job's end). Signals from different sources arrive out of order, so worker stops seen before any request are
 * remembered (the earliest and the latest) and measured against a request that arrives later with an earlier time.
 *
 * @param request          what asked the workers to stop, or null
 * @param requestedAt      when (the request's own time), or null
 * @param stoppedAt        when the workers were seen stopped, or null while not measured
 * @param stoppedBy        the signal that showed it (an event type), or null
 * @param earliestStopAt   the earliest worker stop seen before any request, or null
 * @param earliestStopBy   its signal, or null
 * @param latestStopAt     the latest worker stop seen before any request, or null
 * @param latestStopBy     its signal, or null
 */
public record StopLatency(
        StopRequest request,
        Instant requestedAt,
        Instant stoppedAt,
        String stoppedBy,
        Instant earliestStopAt,
        String earliestStopBy,
        Instant latestStopAt,
        String latestStopBy) {

    /** Nothing asked, nothing seen. */
    public static final StopLatency NONE = new StopLatency(null, null, null, null, null, null, null, null);

    /** With a request to stop: the first one is kept; a worker stop already seen at or after it measures it. */
    public StopLatency requested(StopRequest kind, Instant at) {
        if (requestedAt != null || kind == null || at == null) {
            return this;
        }
        if (earliestStopAt != null && !earliestStopAt.isBefore(at)) {
            return new StopLatency(kind, at, earliestStopAt, earliestStopBy, null, null, null, null);
        }
        if (latestStopAt != null && !latestStopAt.isBefore(at)) {
            return new StopLatency(kind, at, latestStopAt, latestStopBy, null, null, null, null);
        }
        return new StopLatency(kind, at, null, null, null, null, null, null);
    }

    /** With a sign that workers stopped at {@code at}: measures an open request; before any, remembered. */
    public StopLatency workersStopped(Instant at, String signal) {
        if (at == null || stoppedAt != null) {
            return this;
        }
        if (requestedAt != null) {
            // A stop timed before the request did not answer it (an earlier failure of the same incident).
            return at.isBefore(requestedAt)
                    ? this
                    : new StopLatency(request, requestedAt, at, signal, null, null, null, null);
        }
        boolean earliest = earliestStopAt == null || at.isBefore(earliestStopAt);
        boolean latest = latestStopAt == null || at.isAfter(latestStopAt);
        return new StopLatency(
                null,
                null,
                null,
                null,
                earliest ? at : earliestStopAt,
                earliest ? signal : earliestStopBy,
                latest ? at : latestStopAt,
                latest ? signal : latestStopBy);
    }

    /** Milliseconds from the request to the workers' stop, or null while not measured. */
    public Long millis() {
        return requestedAt != null && stoppedAt != null ? stoppedAt.toEpochMilli() - requestedAt.toEpochMilli() : null;
    }
}
