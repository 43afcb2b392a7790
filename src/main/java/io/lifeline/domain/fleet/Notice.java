package io.lifeline.domain.fleet;

import io.lifeline.domain.event.NoticeKind;
import java.time.Instant;

/**
 * The latest interruption notice of a node.
 *
 * @param kind        spot reclaim, rebalance, maintenance or preempt
 * @param provider    who sent it, may be null
 * @param deadline    when the node is expected to go, may be null
 * @param receivedAt  event time of the notice
 * @param windowEnd   when the announced outage is expected to be over (a maintenance window's end), may be null
 * @param expired     whether its deadline had passed when the view was taken (never without a deadline): an expired
 *                    notice is history, the node is not at risk from it
 */
public record Notice(
        NoticeKind kind, String provider, Instant deadline, Instant receivedAt, Instant windowEnd, boolean expired) {}
