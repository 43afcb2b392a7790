package io.lifeline.domain.alert;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.alert.AlertSnapshot.JobFacts;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

class AlertEngineProperties {

    private static final Instant T0 = Instant.parse("2026-11-29T12:00:00Z");

    @Provide
    Arbitrary<List<Boolean>> conditions() {
        return Arbitraries.of(true, false).list().ofMinSize(1).ofMaxSize(60);
    }

    /**
     * Whatever the sequence of evaluations: every change is a legal transition, an alert fires only after its
     * condition held for the whole {@code for} duration, and at most one alert exists for the job.
     */
    @Property(tries = 300)
    void changesAreLegalAndFiringWaitsForTheForDuration(
            @ForAll("conditions") List<Boolean> holds, @ForAll @IntRange(min = 0, max = 5) int forMinutes) {
        AlertEngine e = new AlertEngine(
                AlertRules.defaults()
                        .with(
                                AlertRule.CHECKPOINT_STALE,
                                new RuleSettings.Override(null, null, Duration.ofMinutes(forMinutes), null, null)),
                10,
                10);
        Map<String, AlertState> last = new HashMap<>();
        int heldFor = 0;
        for (int m = 0; m < holds.size(); m++) {
            JobFacts j = new JobFacts("ml/a", "ml", true, holds.get(m) ? 7_200_000L : 0L, 3_600_000L, List.of());
            Evaluation ev = e.evaluate(
                    new AlertSnapshot(List.of(j), List.of(), List.of(), List.of(), List.of(), null),
                    List.of(),
                    T0.plus(Duration.ofMinutes(m)));
            heldFor = holds.get(m) ? heldFor + 1 : 0;
            for (AlertChange c : ev.changes()) {
                AlertState before = last.getOrDefault(c.alert().fingerprint(), AlertState.INACTIVE);
                assertThat(c.from()).isEqualTo(before);
                assertThat(c.to().canFollow(c.from()))
                        .as(c.from() + "->" + c.to())
                        .isTrue();
                if (c.to() == AlertState.FIRING) {
                    assertThat(heldFor - 1).isGreaterThanOrEqualTo(forMinutes);
                }
                last.put(c.alert().fingerprint(), c.to());
            }
            assertThat(ev.alerts().stream().filter(a -> a.state().active()).count())
                    .isLessThanOrEqualTo(1);
        }
    }

    /** The fingerprint depends on the labels, not on the order they were put in. */
    @Property(tries = 200)
    void fingerprintIgnoresLabelOrder(
            @ForAll @Size(min = 1, max = 8)
                    List<
                                    @net.jqwik.api.constraints.AlphaChars
                                    @net.jqwik.api.constraints.StringLength(min = 1, max = 6) String>
                            names) {
        Map<String, String> forward = new LinkedHashMap<>();
        for (String n : names) {
            forward.put(n, n + "-v");
        }
        List<String> keys = new ArrayList<>(forward.keySet());
        java.util.Collections.reverse(keys);
        Map<String, String> backward = new LinkedHashMap<>();
        for (String k : keys) {
            backward.put(k, forward.get(k));
        }
        assertThat(Fingerprint.of(backward)).isEqualTo(Fingerprint.of(forward)).hasSize(16);
        Map<String, String> other = new LinkedHashMap<>(forward);
        other.put(keys.get(0), "different");
        assertThat(Fingerprint.of(other)).isNotEqualTo(Fingerprint.of(forward));
    }
}
