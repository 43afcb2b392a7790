package io.lifeline.connector.inbound.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lifeline.connector.EventContract;
import io.lifeline.connector.Translation;
import io.lifeline.connector.inbound.dcgm.DcgmScrapeTranslator;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.GpuData;
import io.lifeline.testing.FixtureFolder;
import io.lifeline.testing.Fixtures;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every instant-query answer of {@code fixtures/prometheus} (Prometheus' own documentation, a Prometheus and a
 * VictoriaMetrics answer with dcgm-exporter series from the CNCF AI conformance submissions; origins in SOURCES.md) is
 * read as the Prometheus source reads it, with the default node and target labels: one sample per GPU of each node, or
 * the reason nothing came of it (an answer of other series: {@code no_gpu_series}; a range query: refused as not an
 * instant vector).
 */
class PrometheusAnswerVariantsTest {

    private static final Instant AT = Instant.parse("2026-03-01T10:00:00Z");
    private static final List<String> NODE_LABELS =
            List.of("node", "kubernetes_node", "Hostname", "exported_Hostname", "instance");
    private static final Set<String> TARGET_LABELS = Set.of("pod", "namespace", "container");

    /** The nodes and GPU keys an answer yields, the reasons it is refused, or (refusal) why it is no vector at all. */
    record Variant(String fixture, List<String> nodes, List<String> gpus, List<String> reasons, String refusal) {
        @Override
        public String toString() {
            return fixture;
        }
    }

    static Stream<Variant> variants() {
        return Stream.of(
                new Variant(
                        "prometheus/api_query_dcgm_prometheus_cncf.json",
                        List.of("ip-10-200-3-41"),
                        List.of("GPU-f4b6eae2-9160-3e9b-d87b-ffb86f9c8eef"),
                        List.of(),
                        null),
                new Variant(
                        "prometheus/api_query_dcgm_victoriametrics_ispartial_stats_cncf.json",
                        List.of("cp-bm14r7"),
                        List.of("GPU-6d5c0ac5-74d7-3130-46f1-e93ed57f469a"),
                        List.of(),
                        null),
                new Variant(
                        "prometheus/api_query_vector_up_docs.json",
                        List.of("localhost"),
                        List.of(),
                        List.of(DcgmScrapeTranslator.NO_GPU_SERIES),
                        null),
                new Variant(
                        "prometheus/api_query_range_matrix_up_docs.json",
                        List.of(),
                        List.of(),
                        List.of(),
                        "not an instant vector"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void everyAnswerIsReadOrRefusedWithItsReason(Variant v) throws IOException {
        byte[] body = Fixtures.bytes(v.fixture());
        if (v.refusal() != null) {
            assertThatThrownBy(() -> QueryVector.parse(body))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining(v.refusal());
            return;
        }
        PrometheusGpuSource.Answer answer = PrometheusGpuSource.translate(
                QueryVector.parse(body), AT, NODE_LABELS, TARGET_LABELS, new DcgmScrapeTranslator());

        assertThat(answer.withoutNode()).isNull();
        List<Event> events =
                answer.perNode().stream().flatMap(t -> t.events().stream()).toList();
        assertThat(answer.perNode().stream()
                        .flatMap(t -> t.rejections().stream())
                        .map(Translation.Rejection::reason))
                .containsExactlyElementsOf(v.reasons());
        assertThat(events)
                .extracting(Event::subject)
                .containsExactlyElementsOf(v.nodes().subList(0, events.size()));
        assertThat(events).extracting(e -> ((GpuData.Sample) e.data()).uuid()).containsExactlyElementsOf(v.gpus());
        assertThat(events).allSatisfy(e -> {
            assertThat(e.time()).isEqualTo(AT);
            assertThat(((GpuData.Sample) e.data()).model()).isEqualTo("Tesla T4");
            assertThat(e.source()).startsWith("dcgm-exporter/prometheus/");
        });
        EventContract.assertRoundTrips(events);
    }

    @Test
    void everyAnswerOfTheFolderHasAnExpectedOutcome() {
        Set<String> named = variants().map(Variant::fixture).collect(Collectors.toSet());
        assertThat(FixtureFolder.unnamed("prometheus", named))
                .filteredOn(f -> f.endsWith(".json"))
                .isEmpty();
    }
}
