package io.lifeline.connector.inbound.torchelastic;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.connector.EventContract;
import io.lifeline.connector.Translation;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.TrainerData;
import io.lifeline.testing.FixtureFolder;
import io.lifeline.testing.Fixtures;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every torchelastic record file of {@code fixtures/torchelastic} (torch 1.x status records printed by the console
 * handler, from pytorch issue #64990, the status and rendezvous records two torch 2.13 agents wrote, and a job
 * launched twice with the same rdzv id through the trainer agent's wrapper, both recorded by this project; origins in
 * SOURCES.md) read line by line: none refused, and the restarts, failed ranks and rendezvous
 * rounds they report, with their world sizes and placements.
 */
class TorchelasticVariantsTest {

    private static final Instant RECEIVED = Instant.parse("2026-12-02T08:00:00Z");

    /**
     * @param restarts       the highest agent restart count reported
     * @param failedRanks    the ranks reported failed
     * @param rounds         how many rendezvous rounds complete
     * @param worldSize      the world size of every complete round
     * @param placements     how many nodes each complete round places ranks on
     * @param dated          whether the records carry the time torchelastic recorded them (the trainer agent's wrapper
     *                       adds it), else they are dated when received
     */
    record Variant(
            String fixture,
            String runId,
            int procsPerNode,
            int restarts,
            List<Integer> failedRanks,
            int rounds,
            int worldSize,
            int placements,
            boolean dated) {
        @Override
        public String toString() {
            return fixture;
        }
    }

    static Stream<Variant> variants() {
        return Stream.of(
                new Variant(
                        "torchelastic/events_issue64990_c10d_failed_worker_and_agent.jsonl",
                        "1234",
                        1,
                        3,
                        List.of(1),
                        0,
                        0,
                        0,
                        false),
                new Variant(
                        "torchelastic/events_torch213_two_agents_one_host_c10d.jsonl",
                        "cap1",
                        1,
                        1,
                        List.of(),
                        2,
                        2,
                        2,
                        false),
                // Two launches with the same rdzv id: each its own round 0; the first one's agent killed by a signal.
                new Variant(
                        "torchelastic/events_torch213_relaunch_same_rdzv_id.jsonl",
                        "relaunch",
                        1,
                        0,
                        List.of(0),
                        2,
                        1,
                        1,
                        true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void everyRecordIsReadAndTheRunsStoryComesOut(Variant v) {
        TorchelasticTranslator translator = new TorchelasticTranslator(
                JobResolver.of(Map.of(v.runId(), new JobBinding("team-a/run-" + v.runId(), v.procsPerNode()))));
        List<Event> events = new ArrayList<>();
        for (String line :
                Fixtures.text(v.fixture()).lines().filter(l -> !l.isBlank()).toList()) {
            Translation t = translator.translate(line, RECEIVED);
            assertThat(t.rejections()).as(line).isEmpty();
            events.addAll(t.events());
        }

        assertThat(events.stream()
                        .filter(e -> e.type() == EventType.TRAINER_RESTARTED)
                        .mapToInt(e -> ((TrainerData.Restarted) e.data()).restartCount())
                        .max()
                        .orElse(0))
                .isEqualTo(v.restarts());
        assertThat(events.stream()
                        .filter(e -> e.type() == EventType.TRAINER_WORKER_FAILED)
                        .map(e -> ((TrainerData.WorkerFailed) e.data()).rank())
                        .distinct())
                .containsExactlyElementsOf(v.failedRanks());
        List<TrainerData.Rendezvous> rounds = events.stream()
                .filter(e -> e.type() == EventType.TRAINER_RENDEZVOUS)
                .map(e -> (TrainerData.Rendezvous) e.data())
                .toList();
        assertThat(rounds).hasSize(v.rounds()).allSatisfy(r -> {
            assertThat(r.worldSize()).isEqualTo(v.worldSize());
            assertThat(r.participants()).hasSize(v.placements());
        });
        if (v.dated()) {
            assertThat(events)
                    .allSatisfy(e -> assertThat(e.time())
                            .as("dated by torchelastic's own time")
                            .isNotEqualTo(RECEIVED));
        } else {
            assertThat(events)
                    .allSatisfy(e -> assertThat(e.time())
                            .as("timestamp 0 or none: the receipt time")
                            .isEqualTo(RECEIVED));
        }
        EventContract.assertRoundTrips(events);
    }

    @Test
    void everyRecordFileOfTheFolderHasAnExpectedOutcome() {
        Set<String> named = variants().map(Variant::fixture).collect(Collectors.toSet());
        assertThat(FixtureFolder.unnamed("torchelastic", named)).isEmpty();
    }
}
