package io.lifeline.domain.fleet;

import io.lifeline.domain.event.NoticeKind;
import java.time.Instant;

/**
 * Something that happened to a node that the jobs running on it must hear about (an interruption notice,
 * the node going away, a GPU on it failing). The fleet derives signals from node and GPU events; the jobs
 * model turns them into incidents.
 *
 * @param node        node name
 * @param time        when it happened (the event time)
 * @param kind        what happened
 * @param noticeKind  for {@link Kind#INTERRUPTION_NOTICE}: which kind of notice, else null
 * @param deadline    for notices: when the node is expected to go, may be null
 * @param detail      human-readable detail (reason, XID code and message), may be null
 */
public record NodeSignal(String node, Instant time, Kind kind, NoticeKind noticeKind, Instant deadline, String detail) {

    /** What happened to the node. */
    public enum Kind {
        INTERRUPTION_NOTICE,
        TERMINATED,
        NOT_READY,
        READY,
        CORDONED,
        UNCORDONED,
        GPU_FAILED
    }
}
