package io.lifeline.connector.outbound.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.job.checkpoint.PriorityBoostPolicy.Decision;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a PodGroup's annotations become for a preemption-cost decision: written on change only, Volcano's
 * {@code volcano.sh/preemptable} protection bounded in time and never over someone else's.
 */
class PodGroupMarksTest {

    private static final Instant AT = Instant.parse("2026-05-01T10:15:00Z");
    private static final Decision HIGH = new Decision(1000, AT, "at risk");
    private static final Decision LOW = new Decision(null, AT, "checkpointed");
    private static final Duration HOUR = Duration.ofHours(1);

    @Test
    void aHighCostIsMarkedOnceWithItsStartAndTakenOffWhenItDrops() {
        Map<String, String> p = PodGroupMarks.patch(null, null, HIGH, null);
        assertThat(p)
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of(PodGroupMarks.COST, "high", PodGroupMarks.SINCE, "2026-05-01T10:15:00Z"));
        Map<String, String> now = PodGroupMarks.applied(Map.of("kai.scheduler/queue", "q"), p);
        // The same decision later: nothing to write, and the start stays.
        assertThat(PodGroupMarks.patch(now, null, new Decision(1000, AT.plusSeconds(600), "at risk"), null))
                .isNull();
        Map<String, String> off = PodGroupMarks.patch(now, null, LOW, null);
        assertThat(off)
                .containsOnlyKeys(PodGroupMarks.COST, PodGroupMarks.SINCE)
                .containsValue(null);
        assertThat(PodGroupMarks.applied(now, off)).isEqualTo(Map.of("kai.scheduler/queue", "q"));
        // Nothing of ours, a low cost: nothing to write.
        assertThat(PodGroupMarks.patch(Map.of("a", "b"), null, LOW, HOUR)).isNull();
    }

    @Test
    void volcanoProtectionLastsAtMostItsBoundFromTheStartOfTheHighCost() {
        Map<String, String> p = PodGroupMarks.patch(Map.of(), Map.of(), HIGH, HOUR);
        assertThat(p)
                .containsEntry(PodGroupMarks.VOLCANO_PREEMPTABLE, "false")
                .containsEntry(PodGroupMarks.PROTECTED, "true");
        Map<String, String> now = PodGroupMarks.applied(Map.of(), p);
        assertThat(PodGroupMarks.patch(now, Map.of(), new Decision(1000, AT.plus(Duration.ofMinutes(59)), "x"), HOUR))
                .isNull();
        // The bound passed without a checkpoint: the job is preemptible again, its cost still marked high.
        Map<String, String> expired =
                PodGroupMarks.patch(now, Map.of(), new Decision(1000, AT.plus(HOUR), "still at risk"), HOUR);
        assertThat(expired).containsOnlyKeys(PodGroupMarks.VOLCANO_PREEMPTABLE, PodGroupMarks.PROTECTED);
        assertThat(expired.values()).containsOnlyNulls();
        Map<String, String> after = PodGroupMarks.applied(now, expired);
        assertThat(after).containsEntry(PodGroupMarks.COST, "high");
        // ...and stays so until the cost drops (a checkpoint) and rises again.
        assertThat(PodGroupMarks.patch(after, Map.of(), new Decision(1000, AT.plus(HOUR.multipliedBy(3)), "x"), HOUR))
                .isNull();
        // A checkpoint inside the bound takes the protection off with the cost.
        Map<String, String> saved = PodGroupMarks.patch(now, Map.of(), LOW, HOUR);
        assertThat(PodGroupMarks.applied(now, saved)).isEmpty();
    }

    @Test
    void aPreemptableSomeoneElseSetIsLeftAlone() {
        Map<String, String> theirs = Map.of(PodGroupMarks.VOLCANO_PREEMPTABLE, "true");
        assertThat(PodGroupMarks.patch(theirs, null, HIGH, HOUR))
                .doesNotContainKeys(PodGroupMarks.VOLCANO_PREEMPTABLE, PodGroupMarks.PROTECTED)
                .containsEntry(PodGroupMarks.COST, "high");
        assertThat(PodGroupMarks.patch(Map.of(), theirs, HIGH, HOUR))
                .doesNotContainKeys(PodGroupMarks.VOLCANO_PREEMPTABLE, PodGroupMarks.PROTECTED);
        Map<String, String> marked = Map.of(
                PodGroupMarks.VOLCANO_PREEMPTABLE,
                "false",
                PodGroupMarks.COST,
                "high",
                PodGroupMarks.SINCE,
                AT.toString());
        // Its false, not ours: a low cost takes only our marks off.
        assertThat(PodGroupMarks.applied(marked, PodGroupMarks.patch(marked, null, LOW, HOUR)))
                .isEqualTo(Map.of(PodGroupMarks.VOLCANO_PREEMPTABLE, "false"));
    }

    @Test
    void theAuditSaysWhatThePodGroupCarries() {
        assertThat(PodGroupMarks.describe("ml/pg", null)).isEqualTo("podgroup ml/pg: preemption cost not high");
        Map<String, String> now = PodGroupMarks.applied(null, PodGroupMarks.patch(null, null, HIGH, HOUR));
        assertThat(PodGroupMarks.describe("ml/pg", now))
                .isEqualTo("podgroup ml/pg: lifeline.io/preemption-cost=high since 2026-05-01T10:15:00Z,"
                        + " volcano.sh/preemptable=false");
    }
}
