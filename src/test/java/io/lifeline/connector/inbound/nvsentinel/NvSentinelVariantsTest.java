package io.lifeline.connector.inbound.nvsentinel;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lifeline.connector.EventContract;
import io.lifeline.connector.Translation;
import io.lifeline.connector.inbound.dcgm.DcgmScrape;
import io.lifeline.connector.inbound.dcgm.DcgmScrapeTranslator;
import io.lifeline.connector.inbound.dcgm.PciBusIds;
import io.lifeline.connector.inbound.exposition.Format;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.GpuData;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.NoticeKind;
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
 * Every NVSentinel health event of {@code fixtures/nvsentinel} (the data-flow document's HealthEvent, the exporter's
 * CloudEvent, NVSentinel's own demo and test events that name a GPU by its index alone, one with an action number the
 * enum does not define and a lower-case entity type; origins in SOURCES.md) becomes its XIDs on the GPU it names and,
 * when its action empties the node, a maintenance notice; an XID whose GPU cannot be told is refused
 * ({@code unknown_gpu}: let Lifeline read the node's dcgm-exporter) and the rest kept.
 */
class NvSentinelVariantsTest {

    private static final Instant NOW = Instant.parse("2026-12-02T08:00:00Z");
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * @param scraped  whether a dcgm-exporter scrape of the node named its GPU 0 (GPU-0, at 0000:17:00) first
     * @param xids     the XIDs, each as {@code xid@uuid}
     * @param notice   whether a maintenance notice comes of it
     * @param time     the events' time (null: when received)
     */
    record Variant(
            String fixture, boolean scraped, List<String> xids, boolean notice, List<String> reasons, String time) {
        @Override
        public String toString() {
            return fixture + (scraped ? " (GPU known from dcgm-exporter)" : "");
        }
    }

    static Stream<Variant> variants() {
        String docUuid = "GPU-12345678-abcd-1234-abcd-123456789abc";
        return Stream.of(
                new Variant(
                        "nvsentinel/health_event_xid48_data_flow_doc.json",
                        false,
                        List.of("48@" + docUuid),
                        true,
                        List.of(),
                        "2025-10-28T10:15:30Z"),
                new Variant(
                        "nvsentinel/exporter_cloudevent_restart_vm_xid79.json",
                        true,
                        List.of("48@GPU-0", "79@GPU-0"),
                        false,
                        List.of(),
                        "2025-01-15T10:30:00Z"),
                new Variant(
                        "nvsentinel/exporter_cloudevent_restart_vm_xid79.json",
                        false,
                        List.of(),
                        false,
                        List.of(NvSentinelTranslator.UNKNOWN_GPU),
                        "2025-01-15T10:30:00Z"),
                new Variant(
                        "nvsentinel/health_event_xid79_gpu_index_only_local_xid_demo.json",
                        true,
                        List.of("79@GPU-0"),
                        true,
                        List.of(),
                        null),
                new Variant(
                        "nvsentinel/health_event_xid79_gpu_index_only_local_xid_demo.json",
                        false,
                        List.of(),
                        true,
                        List.of(NvSentinelTranslator.UNKNOWN_GPU),
                        null),
                new Variant(
                        "nvsentinel/health_event_fatal_undefined_action_lowercase_entity_tests_data.json",
                        true,
                        List.of("79@GPU-0"),
                        false,
                        List.of(),
                        null));
    }

    private static PciBusIds gpus(boolean scraped) {
        DcgmScrapeTranslator dcgm = new DcgmScrapeTranslator();
        if (scraped) {
            for (String node : List.of("gpu-node-42", "NODE_NAME")) {
                Translation t = dcgm.translate(
                        "DCGM_FI_DEV_GPU_TEMP{gpu=\"0\",UUID=\"GPU-0\",pci_bus_id=\"00000000:17:00.0\"} 40\n",
                        Format.PROMETHEUS_TEXT,
                        new DcgmScrape("push", node, NOW));
                assertThat(t.rejections()).isEmpty();
            }
        }
        return dcgm.pciBusIds();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void everyHealthEventBecomesItsXidsAndNoticeOrIsRefusedWithItsReason(Variant v) throws IOException {
        Translation t =
                new NvSentinelTranslator(gpus(v.scraped())).translate(JSON.readTree(Fixtures.bytes(v.fixture())), NOW);

        assertThat(t.rejections()).extracting(Translation.Rejection::reason).containsExactlyElementsOf(v.reasons());
        assertThat(t.events().stream()
                        .filter(e -> e.type() == EventType.GPU_XID)
                        .map(e -> ((GpuData.Xid) e.data()).xid() + "@" + ((GpuData.Xid) e.data()).uuid()))
                .containsExactlyElementsOf(v.xids());
        List<Event> notices = t.events().stream()
                .filter(e -> e.type() == EventType.NODE_INTERRUPTION_NOTICE)
                .toList();
        assertThat(notices)
                .hasSize(v.notice() ? 1 : 0)
                .allSatisfy(e -> assertThat(e.data())
                        .isEqualTo(new NodeData.InterruptionNotice(NoticeKind.MAINTENANCE, "nvsentinel", null)));
        assertThat(t.events())
                .allSatisfy(e -> assertThat(e.time()).isEqualTo(v.time() == null ? NOW : Instant.parse(v.time())));
        EventContract.assertRoundTrips(t.events());
    }

    @Test
    void everyHealthEventOfTheFolderHasAnExpectedOutcome() {
        Set<String> named = variants().map(Variant::fixture).collect(Collectors.toSet());
        assertThat(FixtureFolder.unnamed("nvsentinel", named)).isEmpty();
    }
}
