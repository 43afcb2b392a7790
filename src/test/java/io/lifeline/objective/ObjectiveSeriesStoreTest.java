package io.lifeline.objective;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.job.goodput.Bucket;
import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.objective.JobSample;
import io.lifeline.domain.objective.Objective;
import io.lifeline.domain.objective.ObjectiveBook;
import io.lifeline.domain.objective.ObjectiveScope;
import io.lifeline.domain.objective.ObjectiveStatus;
import io.lifeline.domain.objective.SavedBook;
import io.lifeline.objective.store.ObjectiveStore;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The objectives' windows survive a restart: saved to PostgreSQL as JSON and taken back by a new book. */
@QuarkusTest
class ObjectiveSeriesStoreTest {

    @Inject
    ObjectiveStore store;

    @Test
    void aNewBookTakesBackTheWindowsOfTheSameObjectivesOnly() {
        Instant t0 = Instant.parse("2026-11-01T00:00:00Z");
        List<Objective> set = List.of(
                new Objective("kept", ObjectiveScope.parse("namespace:kept"), 0.9, Duration.ofDays(7), 50.0, null),
                new Objective("moved", ObjectiveScope.parse("namespace:moved"), 0.9, Duration.ofDays(7), null, null));
        ObjectiveBook before = new ObjectiveBook();
        before.configure(set);
        long productive = 0;
        long lost = 0;
        for (int m = 0; m <= 600; m++) {
            Instant at = t0.plus(Duration.ofMinutes(m));
            before.sample(
                    at,
                    List.of(job("kept/llm", "kept", productive, lost), job("moved/llm", "moved", productive, lost)));
            productive += m % 10 == 0 ? 0 : 4 * 60_000L;
            lost += m % 10 == 0 ? 4 * 60_000L : 0;
        }
        Instant now = t0.plus(Duration.ofMinutes(600));
        store.saveSeries(before.save(), now);
        SavedBook loaded = store.loadSeries().orElseThrow();

        ObjectiveBook after = new ObjectiveBook();
        after.configure(List.of(
                set.get(0),
                new Objective(
                        "moved", ObjectiveScope.parse("namespace:elsewhere"), 0.9, Duration.ofDays(7), null, null)));
        assertThat(after.restore(loaded)).isEqualTo(1);
        ObjectiveStatus a = after.status("kept", now).orElseThrow();
        ObjectiveStatus b = before.status("kept", now).orElseThrow();
        assertThat(a.heldGpuHours()).isEqualTo(b.heldGpuHours()).isEqualTo(40.0);
        assertThat(a.productiveGpuHours()).isEqualTo(b.productiveGpuHours());
        assertThat(a.burnRates()).isEqualTo(b.burnRates());
        assertThat(a.spentByCause()).isEqualTo(b.spentByCause());
        assertThat(a.lostLimitRemainingGpuHours()).isEqualTo(b.lostLimitRemainingGpuHours());
        assertThat(a.heldGpuSecondsTotal()).isEqualTo(b.heldGpuSecondsTotal());
        assertThat(after.status("moved", now).orElseThrow().heldGpuHours())
                .as("another scope: its history is not this one's")
                .isZero();
    }

    private static JobSample job(String name, String ns, long productive, long lost) {
        return new JobSample(
                name,
                ns,
                null,
                null,
                Map.of(Bucket.PRODUCTIVE, productive, Bucket.RECOVERY_LOAD, lost),
                Map.of(IncidentCause.SOFTWARE_ERROR, lost / 3_600_000.0),
                3.5);
    }
}
