package io.lifeline.connector.outbound.kube;

import io.lifeline.domain.job.checkpoint.PriorityBoostPolicy.Decision;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What a job's preemption cost writes on a scheduler's PodGroup (KAI Scheduler's {@code scheduling.run.ai} or
 * Volcano's {@code scheduling.volcano.sh}), from the same decision as Kueue's priority boost. Neither scheduler reads a
 * cost or a checkpoint age, so Lifeline's own annotations carry it for whoever wants to read it: {@code
 * lifeline.io/preemption-cost: high} while the job's work at risk is at or above the thresholds, and {@code
 * lifeline.io/preemption-cost-since} (RFC 3339) since when. On Volcano, where a PodGroup's {@code
 * volcano.sh/preemptable} is a knob the scheduler reads, Lifeline can also set it to {@code "false"} for at most
 * {@code protectFor} from the start of the high cost, marked {@code lifeline.io/preemption-protected}; a
 * {@code volcano.sh/preemptable} it did not write (an annotation or a label) is left alone, and so is the job.
 */
final class PodGroupMarks {

    /** {@code high} while preempting the job would throw away work at or above the thresholds. */
    static final String COST = "lifeline.io/preemption-cost";
    /** When the cost became high (RFC 3339). */
    static final String SINCE = "lifeline.io/preemption-cost-since";
    /** Volcano's own: a PodGroup whose value is false is not a victim of the gang preempt and reclaim actions. */
    static final String VOLCANO_PREEMPTABLE = "volcano.sh/preemptable";
    /** Marks a {@code volcano.sh/preemptable: "false"} Lifeline wrote (and only then takes off). */
    static final String PROTECTED = "lifeline.io/preemption-protected";

    static final String HIGH = "high";

    private PodGroupMarks() {}

    /**
     * The annotations to change (null values are removed) so that a PodGroup carries what {@code d} says, or null when
     * it already does.
     *
     * @param annotations  the PodGroup's annotations (may be null)
     * @param labels       its labels (may be null): a {@code volcano.sh/preemptable} label is someone else's choice
     * @param protectFor   how long a high cost protects the job on Volcano; null or zero: never
     */
    static Map<String, String> patch(
            Map<String, String> annotations, Map<String, String> labels, Decision d, Duration protectFor) {
        Map<String, String> a = annotations == null ? Map.of() : annotations;
        Map<String, String> want = new LinkedHashMap<>();
        boolean ours = "true".equals(a.get(PROTECTED));
        if (d.boosted()) {
            Instant since = HIGH.equals(a.get(COST)) ? instant(a.get(SINCE)) : null;
            if (since == null) {
                since = d.at();
            }
            want.put(COST, HIGH);
            want.put(SINCE, since.toString());
            boolean foreign = !ours
                    && (a.containsKey(VOLCANO_PREEMPTABLE)
                            || labels != null && labels.containsKey(VOLCANO_PREEMPTABLE));
            boolean protect =
                    protectFor != null && !protectFor.isZero() && !foreign && d.at().isBefore(since.plus(protectFor));
            if (protect) {
                want.put(VOLCANO_PREEMPTABLE, "false");
                want.put(PROTECTED, "true");
            } else if (ours) {
                want.put(VOLCANO_PREEMPTABLE, null);
                want.put(PROTECTED, null);
            }
        } else {
            want.put(COST, null);
            want.put(SINCE, null);
            if (ours) {
                want.put(VOLCANO_PREEMPTABLE, null);
                want.put(PROTECTED, null);
            }
        }
        Map<String, String> out = new LinkedHashMap<>();
        want.forEach((k, v) -> {
            if (!Objects.equals(a.get(k), v)) {
                out.put(k, v);
            }
        });
        return out.isEmpty() ? null : out;
    }

    /** What a PodGroup carries of Lifeline's, in words (for the audit). */
    static String describe(String podGroup, Map<String, String> annotations) {
        Map<String, String> a = annotations == null ? Map.of() : annotations;
        StringBuilder b = new StringBuilder("podgroup ").append(podGroup).append(": ");
        if (!HIGH.equals(a.get(COST))) {
            b.append("preemption cost not high");
        } else {
            b.append(COST).append('=').append(HIGH).append(" since ").append(a.get(SINCE));
        }
        if ("true".equals(a.get(PROTECTED))) {
            b.append(", ").append(VOLCANO_PREEMPTABLE).append("=").append(a.get(VOLCANO_PREEMPTABLE));
        }
        return b.toString();
    }

    /** The annotations after {@code patch} is applied. */
    static Map<String, String> applied(Map<String, String> annotations, Map<String, String> patch) {
        Map<String, String> next = annotations == null ? new LinkedHashMap<>() : new LinkedHashMap<>(annotations);
        patch.forEach((k, v) -> {
            if (v == null) {
                next.remove(k);
            } else {
                next.put(k, v);
            }
        });
        return next;
    }

    private static Instant instant(String s) {
        if (s == null) {
            return null;
        }
        try {
            return Instant.parse(s.trim());
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
