package io.lifeline.codec.trace;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.domain.replay.Trace;
import io.lifeline.domain.replay.TraceFormat;
import io.lifeline.testing.FixtureFolder;
import io.lifeline.testing.Fixtures;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every trace sample of {@code fixtures/traces} read as the what-if reads it, in the format it is given as: Philly's
 * job log (the README's entry, and records with the gaps the README says the trace has: no attempt, an attempt without a
 * start, a last attempt without an end), the multi-attempt jobs CSV, another of Philly's files given as that CSV, the
 * OPT-175B dated events and a chronicle's markdown given in their place, and Lifeline's own events (lines, and a page
 * of {@code GET /api/v1/events}). Each is read into its jobs, or its records refused with a reason that says what to give
 * instead.
 */
class TraceVariantsTest {

    /**
     * @param jobs     the jobs the trace holds
     * @param events   how many events it is read into (-1: not checked)
     * @param refused  a part of each refusal's reason, in order of their lines
     */
    record Variant(String fixture, TraceFormat format, List<String> jobs, int events, List<String> refused) {
        @Override
        public String toString() {
            return fixture + " as " + format;
        }
    }

    static Stream<Variant> variants() {
        return Stream.of(
                new Variant(
                        "traces/philly_cluster_job_log_example_entry.json",
                        TraceFormat.PHILLY_JSON,
                        List.of("philly/application_1506638472019_14199"),
                        -1,
                        List.of()),
                new Variant(
                        "traces/philly_cluster_job_log_documented_gaps_derived.json",
                        TraceFormat.PHILLY_JSON,
                        List.of("philly/application_1506638472019_14202"),
                        -1,
                        List.of("no scheduling attempt is recorded", "start_time is missing")),
                new Variant(
                        "traces/philly_multi_attempt_jobs_restarts.csv", TraceFormat.PHILLY_CSV, null, -1, List.of()),
                new Variant(
                        "traces/philly_cluster_gpu_util_example_readme.csv",
                        TraceFormat.PHILLY_CSV,
                        List.of(),
                        0,
                        List.of("utilisation or machine files, which hold no jobs")),
                new Variant(
                        "traces/philly_cluster_job_log_example_entry.json",
                        TraceFormat.PHILLY_CSV,
                        List.of(),
                        0,
                        List.of("read as philly-json")),
                new Variant(
                        "traces/opt175b_chronicles_dated_events.csv",
                        TraceFormat.OPT175B,
                        List.of("metaseq/opt-175b-11", "metaseq/opt-175b-12"),
                        -1,
                        List.of()),
                new Variant(
                        "traces/opt175b_chronicles_56_percent_update_markdown_head.md",
                        TraceFormat.OPT175B,
                        List.of(),
                        0,
                        List.of("a chronicle's markdown")),
                new Variant(
                        "traces/lifeline_events_api_page_docs.json",
                        TraceFormat.LIFELINE,
                        List.of("ml-research/llama3-8b-ft"),
                        1,
                        List.of()),
                new Variant(
                        "traces/lifeline_events_docs_examples.ndjson", TraceFormat.LIFELINE, List.of(), 2, List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void everyTraceIsReadIntoItsJobsOrRefusedWithWhatToGiveInstead(Variant v) {
        Trace t = TraceReaders.read(v.format(), Fixtures.text(v.fixture()));

        assertThat(t.rejected()).hasSameSizeAs(v.refused());
        for (int i = 0; i < v.refused().size(); i++) {
            assertThat(t.rejected().get(i).reason()).contains(v.refused().get(i));
        }
        assertThat(t.rejected()).allSatisfy(r -> assertThat(r.line()).isPositive());
        if (v.jobs() != null) {
            assertThat(t.jobs()).containsExactlyElementsOf(v.jobs());
        } else {
            assertThat(t.jobs()).hasSize(12).allSatisfy(j -> assertThat(j).startsWith("philly/application_"));
        }
        if (v.events() >= 0) {
            assertThat(t.events()).hasSize(v.events());
        }
    }

    @Test
    void everyTraceOfTheFolderHasAnExpectedOutcome() {
        Set<String> named = variants().map(Variant::fixture).collect(Collectors.toSet());
        assertThat(FixtureFolder.unnamed("traces", named)).isEmpty();
    }
}
