package io.lifeline.connector.outbound.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.lifeline.domain.job.checkpoint.PriorityBoostPolicy.Decision;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What one Workload's annotations become for a boost decision: written on change only, someone else's left alone. */
class WorkloadBoostsTest {

    private static final Instant AT = Instant.parse("2026-05-01T10:15:00Z");
    private static final Decision BOOST = new Decision(1000, AT, "at risk");
    private static final Decision NONE = new Decision(null, AT, "checkpointed");

    private static GenericKubernetesResource wl(String... kv) {
        Map<String, String> a = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            a.put(kv[i], kv[i + 1]);
        }
        GenericKubernetesResource w = new GenericKubernetesResource();
        w.setMetadata(new ObjectMetaBuilder()
                .withName("wl")
                .withNamespace("ml")
                .withAnnotations(a)
                .build());
        return w;
    }

    @Test
    void aBoostIsWrittenWithLifelinesMarksAndOnlyWhenItChanges() {
        Map<String, String> p = WorkloadBoosts.patch(wl(), BOOST);
        assertThat(p)
                .containsEntry(WorkloadBoosts.BOOST, "1000")
                .containsEntry(WorkloadBoosts.OURS, "1000")
                .containsEntry(WorkloadBoosts.SINCE, "2026-05-01T10:15:00Z");
        assertThat(WorkloadBoosts.patch(wl(WorkloadBoosts.BOOST, "1000", WorkloadBoosts.OURS, "1000"), BOOST))
                .isNull();
        // a new value (the setting changed) is rewritten
        assertThat(WorkloadBoosts.patch(wl(WorkloadBoosts.BOOST, "500", WorkloadBoosts.OURS, "500"), BOOST))
                .containsEntry(WorkloadBoosts.BOOST, "1000");
        assertThat(WorkloadBoosts.patch(wl(), NONE)).isNull();
    }

    @Test
    void lifelinesBoostIsTakenOffWithItsMarks() {
        Map<String, String> p = WorkloadBoosts.patch(
                wl(WorkloadBoosts.BOOST, "1000", WorkloadBoosts.OURS, "1000", WorkloadBoosts.SINCE, "x"), NONE);
        assertThat(p)
                .containsOnlyKeys(WorkloadBoosts.BOOST, WorkloadBoosts.OURS, WorkloadBoosts.SINCE)
                .containsValues((String) null);
        // marks left behind after someone removed the boost itself are cleaned, the annotation not touched
        assertThat(WorkloadBoosts.patch(wl(WorkloadBoosts.OURS, "1000"), NONE))
                .containsOnlyKeys(WorkloadBoosts.OURS, WorkloadBoosts.SINCE);
    }

    @Test
    void aBoostSomeoneElseWroteIsLeftAlone() {
        assertThat(WorkloadBoosts.patch(wl(WorkloadBoosts.BOOST, "7"), BOOST)).isNull();
        assertThat(WorkloadBoosts.patch(wl(WorkloadBoosts.BOOST, "7"), NONE)).isNull();
        // changed by hand after Lifeline wrote it: no longer Lifeline's
        assertThat(WorkloadBoosts.patch(wl(WorkloadBoosts.BOOST, "20", WorkloadBoosts.OURS, "1000"), NONE))
                .isNull();
        assertThat(WorkloadBoosts.foreign(wl(WorkloadBoosts.BOOST, "20", WorkloadBoosts.OURS, "1000")))
                .isTrue();
        assertThat(WorkloadBoosts.ours(wl(WorkloadBoosts.BOOST, "1000", WorkloadBoosts.OURS, "1000")))
                .isEqualTo(1000);
        assertThat(WorkloadBoosts.ours(wl(WorkloadBoosts.BOOST, "abc", WorkloadBoosts.OURS, "abc")))
                .isNull();
    }
}
