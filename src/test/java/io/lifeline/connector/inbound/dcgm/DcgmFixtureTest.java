package io.lifeline.connector.inbound.dcgm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.lifeline.connector.EventContract;
import io.lifeline.connector.Translation;
import io.lifeline.connector.inbound.exposition.Format;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.GpuData;
import io.lifeline.testing.Fixtures;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every real dcgm-exporter scrape in {@code fixtures/dcgm/}, with the numbers read from the files. */
class DcgmFixtureTest {

    private static final Instant T = Instant.parse("2026-03-01T10:00:00Z");

    private final DcgmScrapeTranslator translator = new DcgmScrapeTranslator();

    @Test
    void lkeRtx4000AdaScrapeWithPodLabels() {
        Translation t = translate("metrics_lke_rtx4000ada_k8s_pod_labels.prom", null);

        assertThat(t.rejections()).isEmpty();
        assertThat(t.events()).singleElement().satisfies(e -> {
            assertThat(e.type()).isEqualTo(EventType.GPU_SAMPLE);
            assertThat(e.subject()).isEqualTo("lke529760-766837-0a634ab30000");
            assertThat(e.source()).isEqualTo("dcgm-exporter/10.0.0.7:9400");
            assertThat(e.time()).isEqualTo(T);
            assertThat(e.id())
                    .isEqualTo("gpu.sample/lke529760-766837-0a634ab30000/GPU-a8394b51-c086-568a-9f1a-c1e1c934c44c/"
                            + T.toEpochMilli());
        });
        GpuData.Sample s = (GpuData.Sample) t.events().get(0).data();
        assertThat(s)
                .isEqualTo(new GpuData.Sample(
                        "GPU-a8394b51-c086-568a-9f1a-c1e1c934c44c",
                        0,
                        "NVIDIA RTX 4000 Ada Generation",
                        0.0,
                        1.0,
                        20015.0,
                        48.0,
                        40.979,
                        null,
                        null,
                        0L,
                        null,
                        0,
                        "cuda-75454ffb9f-8ljq7",
                        "default"));
        EventContract.assertRoundTrips(t.events());
    }

    @Test
    void kopsL4ScrapeWithoutXidSeriesHasNoXidData() {
        Translation t = translate("metrics_kops_aws_L4_no_xid_series.prom", null);

        assertThat(t.rejections()).isEmpty();
        Event e = t.events().get(0);
        assertThat(t.events()).hasSize(1);
        assertThat(e.subject()).isEqualTo("i-030791dc5a37cd257");
        GpuData.Sample s = (GpuData.Sample) e.data();
        assertThat(s)
                .isEqualTo(new GpuData.Sample(
                        "GPU-c2f76b33-7953-256e-8f33-1343419b1a1c",
                        0,
                        "NVIDIA L4",
                        0.0,
                        0.0,
                        22563.0,
                        31.0,
                        16.365,
                        null,
                        null,
                        0L,
                        null,
                        null,
                        null,
                        null));
        assertThat(s.lastXid()).as("a missing series is no data, never zero").isNull();
        EventContract.assertRoundTrips(t.events());
    }

    @Test
    void titanVScrapeFallsBackToTheHostnameLabelWhichIsTheExporterPod() {
        Translation t = translate("metrics_issue58_titanv_empty_k8s_labels.prom", null);

        assertThat(t.rejections()).isEmpty();
        assertThat(t.events()).hasSize(5).allSatisfy(e -> {
            assertThat(e.subject()).isEqualTo("dcgm-exporter-lcxpl");
            GpuData.Sample s = (GpuData.Sample) e.data();
            assertThat(s.model()).isEqualTo("NVIDIA TITAN V");
            assertThat(s.pod()).as("empty pod label is absent").isNull();
            assertThat(s.namespace()).isNull();
            assertThat(s.temperatureCelsius())
                    .as("only SM clocks in this scrape")
                    .isNull();
            assertThat(s.utilizationPercent()).isNull();
        });
        assertThat(t.events())
                .extracting(e -> ((GpuData.Sample) e.data()).index(), e -> ((GpuData.Sample) e.data()).uuid())
                .containsExactly(
                        tuple(0, "GPU-55274b56-9033-f166-7723-77088b0ff94d"),
                        tuple(1, "GPU-dad58a68-8239-6bb7-1f07-539b85fabfee"),
                        tuple(2, "GPU-a29d2dc7-d18a-858c-a87b-f81eb1384333"),
                        tuple(3, "GPU-4b2cedc3-89f9-dde9-ce2f-3b8d40dbe531"),
                        tuple(4, "GPU-58fae45b-e5a5-0c62-d478-8ff7c485e74e"));
        EventContract.assertRoundTrips(t.events());
    }

    @Test
    void titanVScrapeUsesTheCallersNodeNameOverTheExporterPodName() {
        Translation t = translate("metrics_issue58_titanv_empty_k8s_labels.prom", "gpu-node-7");

        assertThat(t.events())
                .hasSize(5)
                .allSatisfy(e -> assertThat(e.subject()).isEqualTo("gpu-node-7"));
        assertThat(t.events().get(0).id())
                .startsWith("gpu.sample/gpu-node-7/GPU-55274b56-9033-f166-7723-77088b0ff94d/");
    }

    @Test
    void migScrapeWithLowerCaseLegacyNamesYieldsOneSamplePerInstance() {
        Translation t = translate("metrics_issue272_mig_old_namespace_lowercase.prom", "a100-node");

        assertThat(t.rejections()).isEmpty();
        List<GpuData.Sample> samples =
                t.events().stream().map(e -> (GpuData.Sample) e.data()).toList();
        assertThat(samples)
                .extracting(GpuData.Sample::uuid, GpuData.Sample::index, GpuData.Sample::utilizationPercent)
                .containsExactly(
                        tuple("GPU-ed1353d6-52ba-8793-7230-4d5d3eb68167/1", 0, 0.0),
                        tuple("GPU-ed1353d6-52ba-8793-7230-4d5d3eb68167/2", 0, 0.0),
                        tuple("GPU-6043e4b2-feaa-8010-34c7-61d1a01576bb/1", 1, 0.0));
        assertThat(samples).allSatisfy(s -> {
            assertThat(s.model()).isEqualTo("NVIDIA A100 80GB PCIe");
            assertThat(s.pod()).as("pod_name is empty").isNull();
            assertThat(s.namespace()).as("pod_namespace is empty").isNull();
            assertThat(s.lastXid()).isNull();
        });
        assertThat(t.events()).allSatisfy(e -> assertThat(e.subject()).isEqualTo("a100-node"));
        EventContract.assertRoundTrips(t.events());
    }

    @Test
    void migScrapeWithoutHostnameLabelNeedsTheCallersNodeName() {
        Translation t = translate("metrics_issue272_mig_old_namespace_lowercase.prom", null);

        assertThat(t.isRejected()).isTrue();
        assertThat(t.rejections())
                .extracting(Translation.Rejection::reason)
                .containsExactly(DcgmScrapeTranslator.NO_NODE_NAME);
    }

    @Test
    void aScrapeWithoutDcgmSeriesIsRejected() {
        Translation t = translator.translate(
                Fixtures.bytes("prometheus/text_format_0.0.4_docs_example_pre_utf8.prom"),
                Format.PROMETHEUS_TEXT,
                new DcgmScrape("10.0.0.7:9400", "n1", T));

        assertThat(t.isRejected()).isTrue();
        assertThat(t.rejections())
                .extracting(Translation.Rejection::reason)
                .containsExactly(DcgmScrapeTranslator.NO_GPU_SERIES);
    }

    @Test
    void statsCountScrapesEventsAndRejectionReasons() {
        translate("metrics_lke_rtx4000ada_k8s_pod_labels.prom", null);
        translate("metrics_issue58_titanv_empty_k8s_labels.prom", null);
        translate("metrics_issue272_mig_old_namespace_lowercase.prom", null);

        assertThat(translator.stats().received()).isEqualTo(3);
        assertThat(translator.stats().translated()).isEqualTo(2);
        assertThat(translator.stats().events()).isEqualTo(6);
        assertThat(translator.stats().rejected()).isEqualTo(1);
        assertThat(translator.stats().rejectionsByReason()).containsEntry(DcgmScrapeTranslator.NO_NODE_NAME, 1L);
    }

    private Translation translate(String fixture, String node) {
        return translator.translate(
                Fixtures.bytes("dcgm/" + fixture), Format.PROMETHEUS_TEXT, new DcgmScrape("10.0.0.7:9400", node, T));
    }
}
