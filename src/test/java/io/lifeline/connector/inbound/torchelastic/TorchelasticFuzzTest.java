package io.lifeline.connector.inbound.torchelastic;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.connector.Translation;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.testing.Fixtures;
import io.lifeline.testing.Hostile;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * The torchelastic translator over hostile variants of the real event lines in the fixtures (a c10d worker failure
 * and agent end; two agents' whole rendezvous, recorded from torchrun), fed as a run's sequence of lines so that
 * rendezvous rounds fill up: every line yields a translation (trainer events of the job, or rejections with the
 * documented reasons), never an exception.
 */
class TorchelasticFuzzTest {

    private static final Instant RECEIVED = Instant.parse("2026-03-01T10:00:00Z");
    private static final Set<String> REASONS = Set.of(
            TorchelasticTranslator.MALFORMED_JSON,
            TorchelasticTranslator.NOT_A_TORCHELASTIC_EVENT,
            TorchelasticTranslator.MISSING_FIELD,
            TorchelasticTranslator.UNKNOWN_JOB,
            TorchelasticTranslator.MISSING_RANK,
            TorchelasticTranslator.AGENT_RANKS_UNKNOWN,
            TorchelasticTranslator.RENDEZVOUS_NEEDS_PROCS_PER_NODE,
            TorchelasticTranslator.INVALID_RENDEZVOUS);

    @Property
    void everyLineOfARunTranslatesOrIsRejectedWithAReason(
            @ForAll("runs") List<Hostile.Case> lines, @ForAll("procsPerNode") Integer procsPerNode) {
        TorchelasticTranslator translator =
                new TorchelasticTranslator(JobResolver.runIdInNamespace("team", procsPerNode), h -> h, 4);
        boolean events = false;
        for (Hostile.Case line : lines) {
            Translation t = translator.translate(line.bytes(), RECEIVED);
            assertThat(t.rejections()).allSatisfy(r -> assertThat(r.reason()).isIn(REASONS));
            for (Event e : t.events()) {
                assertThat(e.type().family()).isEqualTo(EventType.Family.TRAINER);
                assertThat(e.subject()).startsWith("team/");
                assertThat(e.source()).isEqualTo("torchelastic/" + e.subject());
            }
            events |= !t.events().isEmpty();
        }
        Statistics.collect(events ? "events" : "no event");
        Statistics.coverage(c -> c.check("events").percentage(p -> p > 1));
    }

    @Provide
    Arbitrary<List<Hostile.Case>> runs() {
        List<Hostile.Seed> seeds = new ArrayList<>();
        for (String f : List.of(
                "torchelastic/events_issue64990_c10d_failed_worker_and_agent.jsonl",
                "torchelastic/events_torch213_two_agents_one_host_c10d.jsonl")) {
            List<String> lines =
                    Fixtures.text(f).lines().filter(l -> !l.isBlank()).toList();
            for (int i = 0; i < lines.size(); i++) {
                seeds.add(Hostile.Seed.of(f.substring(f.indexOf('/') + 1) + ":" + (i + 1), lines.get(i)));
            }
        }
        Arbitrary<Hostile.Case> unchanged = Arbitraries.of(seeds).map(s -> Hostile.mutate(s, List.of(), List.of()));
        Arbitrary<Hostile.Case> line = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(1, unchanged), net.jqwik.api.Tuple.of(2, Hostile.any(seeds)));
        return line.list().ofMinSize(1).ofMaxSize(16);
    }

    @Provide
    Arbitrary<Integer> procsPerNode() {
        return Arbitraries.of(null, 1, 8, 1024, Integer.MAX_VALUE);
    }
}
