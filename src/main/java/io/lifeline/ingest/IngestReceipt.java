package io.lifeline.ingest;

import io.lifeline.codec.Refusal;
import io.lifeline.domain.event.NotAppliedReason;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * What became of a submitted batch: at once what was taken (stored, for lifecycle events) and refused, and once the
 * model has applied the accepted events, which of them it did not apply and why ({@link #applied()}).
 *
 * @param accepted    events new to Lifeline, stored (lifecycle) and queued for the model
 * @param duplicates  events already seen (same source and id), accepted and ignored
 * @param rejected    events the gateway refused (neither stored nor applied), by their index in the submitted list,
 *                    each with its reason in words
 * @param applied     completes once every accepted event is applied to the model (without a read of the store: the
 *                    model's thread hands the outcomes over), with the events it did not apply; transports that must
 *                    not wait for the model (Kafka, the sources of their own) only record what it says
 */
public record IngestReceipt(int accepted, int duplicates, List<Refusal> rejected, CompletionStage<Applied> applied) {

    public IngestReceipt {
        rejected = List.copyOf(rejected);
    }

    /** A batch whose accepted events were all applied (a transport that knows no model, in tests). */
    public IngestReceipt(int accepted, int duplicates, List<Refusal> rejected) {
        this(accepted, duplicates, rejected, CompletableFuture.completedFuture(Applied.all(accepted)));
    }

    /** A batch of which nothing was refused and everything accepted applied. */
    public IngestReceipt(int accepted, int duplicates) {
        this(accepted, duplicates, List.of());
    }

    /**
     * What the model did with the accepted events.
     *
     * @param applied     how many it applied (changed, or confirmed what it held)
     * @param notApplied  the others, by their index in the submitted list, each with a stable code
     *                    ({@link NotAppliedReason#wire()}) and what the model compared it with
     */
    public record Applied(int applied, List<Refusal> notApplied) {

        public Applied {
            notApplied = List.copyOf(notApplied);
        }

        /** All {@code accepted} applied. */
        public static Applied all(int accepted) {
            return new Applied(accepted, List.of());
        }

        /** The outcome of a whole submission split in two parts, each entry at its index in the whole. */
        static Applied merge(Applied first, List<Integer> firstAt, Applied second, List<Integer> secondAt) {
            List<Refusal> all = new ArrayList<>(first.notApplied.size() + second.notApplied.size());
            for (Refusal n : first.notApplied) {
                all.add(n.at(firstAt.get(n.index())));
            }
            for (Refusal n : second.notApplied) {
                all.add(n.at(secondAt.get(n.index())));
            }
            all.sort(Comparator.comparingInt(Refusal::index));
            return new Applied(first.applied + second.applied, all);
        }
    }
}
