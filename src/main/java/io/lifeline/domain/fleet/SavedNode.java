package io.lifeline.domain.fleet;

import io.lifeline.domain.event.NoticeKind;
import io.lifeline.domain.gpu.SavedGpu;
import java.util.List;
import java.util.Objects;

/**
 * One node's state as plain values, part of a {@link SavedFleet}. Each register keeps both its value and the times
 * that decide last-writer-wins ({@code since}: when the value began, {@code written}: the newest event that confirmed
 * it), in epoch milliseconds, {@link Long#MIN_VALUE} when unset.
 *
 * @param name            node name
 * @param facts           registered facts, null before registration
 * @param factsWritten    time of the registration the facts come from
 * @param state           lifecycle state
 * @param stateSince      when it began
 * @param stateWritten    the newest event that confirmed it
 * @param lifeStart       when the current life began (older GPU errors and notices do not count)
 * @param cordoned        whether the node is cordoned
 * @param cordonSince     when the cordon register got its value
 * @param cordonWritten   the newest event that confirmed it
 * @param noticeKind      pending (or past) interruption notice, null when none in this life
 * @param noticeProvider  who sent it, may be null
 * @param noticeDeadline  its deadline
 * @param noticeReceived  when it arrived
 * @param gpus            the node's GPUs, each with its index
 * @param interruptions   the times of its latest interruptions for the lemon score, oldest first (empty when none)
 * @param version         the fleet's change stamp of the node's latest change
 * @param causes          per entry of {@code interruptions}: its cause's wire name, or "" for the outage a notice
 *                        announced (counted with the notice); empty when unknown
 * @param details         per entry of {@code interruptions}: what the event said, null entries allowed; may be empty
 * @param pastLives       the node's earlier lives as (start, end) pairs of epoch ms, oldest first: its time in service
 * @param noticeWindowEnd the end of the notice's announced outage window
 * @param admissions      the pods its kubelet rejected at admission, null when none
 */
public record SavedNode(
        String name,
        NodeInfo facts,
        long factsWritten,
        NodeLifecycle state,
        long stateSince,
        long stateWritten,
        long lifeStart,
        boolean cordoned,
        long cordonSince,
        long cordonWritten,
        NoticeKind noticeKind,
        String noticeProvider,
        long noticeDeadline,
        long noticeReceived,
        List<SavedGpu> gpus,
        List<Long> interruptions,
        long version,
        List<String> causes,
        List<String> details,
        List<Long> pastLives,
        long noticeWindowEnd,
        SavedAdmissions admissions) {

    public SavedNode {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(state, "state");
        gpus = List.copyOf(gpus);
        interruptions = List.copyOf(interruptions);
        causes = causes == null ? List.of() : List.copyOf(causes);
        details = details == null
                ? List.of()
                : java.util.Collections.unmodifiableList(new java.util.ArrayList<>(details));
        pastLives = pastLives == null ? List.of() : List.copyOf(pastLives);
    }
}
