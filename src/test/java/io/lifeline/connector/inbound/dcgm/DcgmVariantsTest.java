package io.lifeline.connector.inbound.dcgm;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.connector.EventContract;
import io.lifeline.connector.Translation;
import io.lifeline.connector.inbound.exposition.Format;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.GpuData;
import io.lifeline.testing.FixtureFolder;
import io.lifeline.testing.Fixtures;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every dcgm-exporter scrape of {@code fixtures/dcgm} (exporter versions from the 2.0 README, with spaced labels and
 * DCGM's blank markers printed as values, to 4.x; the old lower-case names, MIG, empty pod labels, the exporter pod's
 * name as {@code Hostname}, the newer lower-case {@code hostname}; origins in SOURCES.md) is read into one sample per GPU
 * and MIG instance with the values it carries, or refused with the reason a user can act on: a scrape that names no node
 * when the caller gave none is {@code no_node_name} (give the scrape's node).
 */
class DcgmVariantsTest {

    private static final Instant T = Instant.parse("2026-03-01T10:00:00Z");

    record Variant(
            String fixture,
            String givenNode,
            String node,
            List<String> keys,
            List<String> reasons,
            Consumer<List<GpuData.Sample>> check) {
        @Override
        public String toString() {
            return fixture + (givenNode == null ? "" : " on " + givenNode);
        }
    }

    private static Variant read(
            String fixture, String givenNode, String node, List<String> keys, Consumer<List<GpuData.Sample>> check) {
        return new Variant(fixture, givenNode, node, keys, List.of(), check);
    }

    private static Variant refused(String fixture, String reason) {
        return new Variant(fixture, null, null, List.of(), List.of(reason), s -> {});
    }

    static Stream<Variant> variants() {
        String a30 = "GPU-9a63752e-af8d-fe52-7f0d-968bca6d52e3";
        String ada = "GPU-fc60126e-514d-3522-2828-c5daa8e99d85";
        String a30b = "GPU-63bc0b91-2265-1b94-831c-15c41fe92675";
        String readme = "GPU-604ac76c-d9cf-fef3-62e9-d92044ab6e52";
        return Stream.of(
                read(
                        "dcgm/metrics_lke_rtx4000ada_k8s_pod_labels.prom",
                        null,
                        "lke529760-766837-0a634ab30000",
                        List.of("GPU-a8394b51-c086-568a-9f1a-c1e1c934c44c"),
                        s -> {
                            assertThat(s.get(0).temperatureCelsius()).isEqualTo(48.0);
                            assertThat(s.get(0).pod()).isEqualTo("cuda-75454ffb9f-8ljq7");
                            assertThat(s.get(0).lastXid()).isZero();
                        }),
                read(
                        "dcgm/metrics_kops_aws_L4_no_xid_series.prom",
                        null,
                        "i-030791dc5a37cd257",
                        List.of("GPU-c2f76b33-7953-256e-8f33-1343419b1a1c"),
                        s -> assertThat(s.get(0).lastXid()).isNull()),
                read(
                        "dcgm/metrics_issue58_titanv_empty_k8s_labels.prom",
                        null,
                        "dcgm-exporter-lcxpl",
                        List.of(
                                "GPU-55274b56-9033-f166-7723-77088b0ff94d",
                                "GPU-dad58a68-8239-6bb7-1f07-539b85fabfee",
                                "GPU-a29d2dc7-d18a-858c-a87b-f81eb1384333",
                                "GPU-4b2cedc3-89f9-dde9-ce2f-3b8d40dbe531",
                                "GPU-58fae45b-e5a5-0c62-d478-8ff7c485e74e"),
                        s -> assertThat(s).allSatisfy(x -> assertThat(x.pod()).isNull())),
                refused("dcgm/metrics_issue272_mig_old_namespace_lowercase.prom", DcgmScrapeTranslator.NO_NODE_NAME),
                read(
                        "dcgm/metrics_issue272_mig_old_namespace_lowercase.prom",
                        "gpu-a100-1",
                        "gpu-a100-1",
                        List.of(
                                "GPU-ed1353d6-52ba-8793-7230-4d5d3eb68167/1",
                                "GPU-ed1353d6-52ba-8793-7230-4d5d3eb68167/2",
                                "GPU-6043e4b2-feaa-8010-34c7-61d1a01576bb/1"),
                        s -> assertThat(s)
                                .allSatisfy(
                                        x -> assertThat(x.utilizationPercent()).isZero())),
                refused(
                        "dcgm/metrics_readme_2.0.13_k8s_spaced_labels_blank_sentinel.prom",
                        DcgmScrapeTranslator.NO_NODE_NAME),
                read(
                        "dcgm/metrics_readme_2.0.13_k8s_spaced_labels_blank_sentinel.prom",
                        "gpu-node-1",
                        "gpu-node-1",
                        List.of(readme),
                        s -> {
                            assertThat(s.get(0).temperatureCelsius())
                                    .as("only clocks and memory temperature")
                                    .isNull();
                            assertThat(s.get(0).pod()).as("empty pod label").isNull();
                        }),
                read(
                        "dcgm/metrics_pr736_mixed_models_a30_instances_lowercase_hostname.prom",
                        null,
                        "dcgm-exporter-wwwjh",
                        List.of(a30 + "/6", ada, a30b + "/3", a30b, a30 + "/3", a30),
                        s -> {
                            assertThat(s.get(0).memoryUsedMiB()).isEqualTo(3744.0);
                            assertThat(s.get(0).pod()).isEqualTo("triton-server-f7cb5d77-2w5b2");
                            assertThat(s.get(1).temperatureCelsius()).isEqualTo(44.0);
                            assertThat(s.get(2).temperatureCelsius())
                                    .as("a MIG instance's temperature is its GPU's")
                                    .isNull();
                            assertThat(s.get(3).temperatureCelsius()).isEqualTo(45.0);
                            assertThat(s.get(5).temperatureCelsius()).isEqualTo(50.0);
                        }),
                read(
                        "dcgm/metrics_cncf_vks_vgpu_grid_a100_no_temperature.prom",
                        null,
                        "conformance-test-np1-qcqc8-bpdtl-wv2gs",
                        List.of("GPU-44d2411e-1604-478f-aa96-5a3c00000000"),
                        s -> {
                            assertThat(s.get(0).model()).isEqualTo("GRID A100-10C");
                            assertThat(s.get(0).memoryFreeMiB()).isEqualTo(9323.0);
                            assertThat(s.get(0).temperatureCelsius())
                                    .as("a vGPU reports no temperature")
                                    .isNull();
                        }),
                read(
                        "dcgm/metrics_blank_sentinels_on_read_fields_derived.prom",
                        "gpu-node-1",
                        "gpu-node-1",
                        List.of(readme),
                        s -> assertThat(s.get(0))
                                .isEqualTo(new GpuData.Sample(
                                        readme, 0, null, null, null, null, 41.0, null, null, null, null, null, null,
                                        null, null))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void everyScrapeIsReadOrRefusedWithItsReason(Variant v) {
        Translation t = new DcgmScrapeTranslator()
                .translate(
                        Fixtures.bytes(v.fixture()),
                        Format.PROMETHEUS_TEXT,
                        new DcgmScrape("10.0.0.7:9400", v.givenNode(), T));

        assertThat(t.rejections()).extracting(Translation.Rejection::reason).containsExactlyElementsOf(v.reasons());
        List<Event> samples = t.events().stream()
                .filter(e -> e.type() == EventType.GPU_SAMPLE)
                .toList();
        assertThat(samples).extracting(e -> ((GpuData.Sample) e.data()).uuid()).containsExactlyElementsOf(v.keys());
        assertThat(samples).allSatisfy(e -> assertThat(e.subject()).isEqualTo(v.node()));
        assertThat(t.events())
                .as("no XID where the gauge is 0, blank or missing")
                .noneMatch(e -> e.type() == EventType.GPU_XID);
        v.check().accept(samples.stream().map(e -> (GpuData.Sample) e.data()).toList());
        EventContract.assertRoundTrips(t.events());
    }

    @Test
    void everyScrapeOfTheFolderHasAnExpectedOutcome() {
        Set<String> named = variants().map(Variant::fixture).collect(Collectors.toSet());
        assertThat(FixtureFolder.unnamed("dcgm", named))
                .as("scrapes of fixtures/dcgm without a row")
                .filteredOn(f -> f.endsWith(".prom"))
                .isEmpty();
    }
}
