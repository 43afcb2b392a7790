package io.lifeline.ingest;

import io.lifeline.codec.Refusal;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The events that must not wait behind telemetry: an interruption notice (its deadline runs from the moment it was
 * sent), an XID and a trainer's worker failure (a job stopping). A submission holding some is split: they go first,
 * stored in a small write of their own and applied ahead of the batches waiting for the model; the rest follows the
 * ordinary way. Their order among themselves is kept, and so is the rest's.
 */
final class PriorityLane {

    private static final Set<EventType> URGENT =
            EnumSet.of(EventType.NODE_INTERRUPTION_NOTICE, EventType.GPU_XID, EventType.TRAINER_WORKER_FAILED);

    private PriorityLane() {}

    static boolean urgent(Event e) {
        return URGENT.contains(e.type());
    }

    /** The split of a submission that holds urgent events, or null when it holds none (the common case, no copy). */
    static Split split(List<Event> events) {
        int first = -1;
        for (int i = 0; i < events.size(); i++) {
            if (urgent(events.get(i))) {
                first = i;
                break;
            }
        }
        if (first < 0) {
            return null;
        }
        List<Event> urgent = new ArrayList<>();
        List<Integer> urgentAt = new ArrayList<>();
        List<Event> rest = new ArrayList<>(events.size());
        List<Integer> restAt = new ArrayList<>(events.size());
        // Order per subject is kept: an urgent event whose subject has an earlier ordinary event in the submission
        // (the node's first sample, say) stays behind it, or the model would see it about a GPU it does not know yet.
        Set<String> behind = new HashSet<>();
        for (int i = 0; i < events.size(); i++) {
            Event e = events.get(i);
            if (i >= first && urgent(e) && !behind.contains(e.subject())) {
                urgent.add(e);
                urgentAt.add(i);
            } else {
                rest.add(e);
                restAt.add(i);
                behind.add(e.subject());
            }
        }
        return new Split(urgent, urgentAt, rest, restAt);
    }

    /** The two parts of a submission, with each event's index in it (receipts name refusals by that index). */
    record Split(List<Event> urgent, List<Integer> urgentAt, List<Event> rest, List<Integer> restAt) {

        /** One receipt for the whole submission, refusals and events not applied by their index in it. */
        IngestReceipt merge(IngestReceipt ofUrgent, IngestReceipt ofRest) {
            List<Refusal> refused = new ArrayList<>();
            for (Refusal r : ofUrgent.rejected()) {
                refused.add(r.at(urgentAt.get(r.index())));
            }
            for (Refusal r : ofRest.rejected()) {
                refused.add(r.at(restAt.get(r.index())));
            }
            refused.sort((a, b) -> Integer.compare(a.index(), b.index()));
            return new IngestReceipt(
                    ofUrgent.accepted() + ofRest.accepted(),
                    ofUrgent.duplicates() + ofRest.duplicates(),
                    refused,
                    ofUrgent.applied()
                            .thenCombine(
                                    ofRest.applied(), (u, r) -> IngestReceipt.Applied.merge(u, urgentAt, r, restAt)));
        }
    }
}
