package io.lifeline.objective;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lifeline.config.ObjectivesConfig;
import io.lifeline.domain.job.goodput.Bucket;
import io.lifeline.domain.objective.JobSample;
import io.lifeline.domain.objective.ObjectiveState;
import io.lifeline.objective.store.ObjectiveStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@link ObjectiveService#useByDefault}: a default set (the demo's) is put in force, with its history, only while no
 * objective is configured and none was stored through the API; it is never stored, and a later {@link
 * ObjectiveService#load()} (the start-up's, which may come after it) keeps it.
 */
class ObjectiveDefaultsTest {

    static final Instant NOW = Instant.parse("2026-03-02T12:00:00Z");
    static final List<ObjectiveStore.Stored> DEFAULTS =
            List.of(new ObjectiveStore.Stored("team-ettr", "namespace:team", 0.9, "7d", null, null));

    /** A store that holds {@code set} (empty: nothing was ever PUT) and refuses to save. */
    static ObjectiveStore store(Optional<List<ObjectiveStore.Stored>> set) {
        return new ObjectiveStore(null, null, null) {
            @Override
            public Optional<List<ObjectiveStore.Stored>> load() {
                return set;
            }

            @Override
            public void save(
                    List<ObjectiveStore.Stored> before, List<ObjectiveStore.Stored> after, String actor, Instant now) {
                throw new AssertionError("a default set is never stored");
            }
        };
    }

    static ObjectivesConfig config(Map<String, ObjectivesConfig.Entry> objectives) {
        return new ObjectivesConfig() {
            @Override
            public Duration sampleInterval() {
                return Duration.ofMinutes(1);
            }

            @Override
            public Duration saveInterval() {
                return Duration.ofMinutes(5);
            }

            @Override
            public double fastBurn() {
                return 14.4;
            }

            @Override
            public double slowBurn() {
                return 6;
            }

            @Override
            public Map<String, Entry> objective() {
                return objectives;
            }
        };
    }

    static ObjectivesConfig.Entry entry() {
        return new ObjectivesConfig.Entry() {
            @Override
            public String scope() {
                return "namespace:configured";
            }

            @Override
            public double ettrTarget() {
                return 0.95;
            }

            @Override
            public Duration window() {
                return Duration.ofDays(7);
            }

            @Override
            public OptionalDouble lostGpuHoursLimit() {
                return OptionalDouble.empty();
            }

            @Override
            public OptionalDouble moneyLimit() {
                return OptionalDouble.empty();
            }

            @Override
            public Optional<String> description() {
                return Optional.empty();
            }
        };
    }

    static ObjectiveService service(ObjectivesConfig config, ObjectiveStore store) {
        return new ObjectiveService(config, store, null, null, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    /** Two hourly samples of a job of namespace team: 10 GPU-hours held, 9.5 productive. */
    static SortedMap<Instant, List<JobSample>> history() {
        SortedMap<Instant, List<JobSample>> h = new TreeMap<>();
        h.put(NOW.minus(Duration.ofHours(2)), List.of(sample(0, 0)));
        h.put(NOW.minus(Duration.ofHours(1)), List.of(sample(10, 9.5)));
        return h;
    }

    static JobSample sample(double held, double productive) {
        long hour = 3_600_000L;
        return new JobSample(
                "team/earlier",
                "team",
                null,
                null,
                Map.of(
                        Bucket.PRODUCTIVE,
                        Math.round(productive * hour),
                        Bucket.CHECKPOINT,
                        Math.round((held - productive) * hour)),
                Map.of(),
                null);
    }

    @Test
    void aDefaultSetIsPutInForceWithItsHistoryWhileNothingIsConfiguredOrStored() {
        ObjectiveService s = service(config(Map.of()), store(Optional.empty()));
        s.load();
        assertThat(s.useByDefault(DEFAULTS, history())).isTrue();
        assertThat(s.source()).isEqualTo(ObjectiveService.Source.DEFAULT);
        assertThat(s.objectives()).isEqualTo(DEFAULTS);
        var status = s.status("team-ettr").orElseThrow();
        assertThat(status.heldGpuHours()).isEqualTo(10.0);
        assertThat(status.productiveGpuHours()).isEqualTo(9.5);
        assertThat(status.state()).isEqualTo(ObjectiveState.MET);
        // The start-up's load may come after: it keeps the default set, and its history.
        s.load();
        assertThat(s.source()).isEqualTo(ObjectiveService.Source.DEFAULT);
        assertThat(s.status("team-ettr").orElseThrow().heldGpuHours()).isEqualTo(10.0);
    }

    @Test
    void configuredOrStoredObjectivesWin() {
        ObjectiveService configured = service(config(Map.of("configured", entry())), store(Optional.empty()));
        configured.load();
        assertThat(configured.useByDefault(DEFAULTS, history())).isFalse();
        assertThat(configured.objectives())
                .extracting(ObjectiveStore.Stored::name)
                .containsExactly("configured");
        assertThat(configured.source()).isEqualTo(ObjectiveService.Source.CONFIGURATION);

        ObjectiveService emptiedByApi = service(config(Map.of()), store(Optional.of(List.of())));
        emptiedByApi.load();
        assertThat(emptiedByApi.useByDefault(DEFAULTS, history())).isFalse();
        assertThat(emptiedByApi.objectives()).isEmpty();
        assertThat(emptiedByApi.source()).isEqualTo(ObjectiveService.Source.API);
    }

    @Test
    void anInvalidDefaultSetIsRefusedWithItsReasons() {
        ObjectiveService s = service(config(Map.of()), store(Optional.empty()));
        assertThatThrownBy(() -> s.useByDefault(
                        List.of(new ObjectiveStore.Stored("x", "team", 0.9, "7d", null, null)), history()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("objectives[0] (x).scope");
    }
}
