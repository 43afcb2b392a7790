package io.lifeline.connector.inbound.nvsentinel;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lifeline.connector.Translation;
import io.lifeline.connector.inbound.dcgm.DcgmScrape;
import io.lifeline.connector.inbound.dcgm.DcgmScrapeTranslator;
import io.lifeline.connector.inbound.exposition.Format;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.GpuData;
import io.lifeline.domain.event.NodeData;
import io.lifeline.domain.event.NoticeKind;
import io.lifeline.testing.Fixtures;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * NVSentinel's own examples (fixtures nvsentinel/): the exporter's CloudEvent and a HealthEvent from its docs, their
 * variants (recoveries, STORE_ONLY, each recommended action) and hostile input.
 */
class NvSentinelTranslatorTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CLOUDEVENT = "nvsentinel/exporter_cloudevent_restart_vm_xid79.json";
    private static final String HEALTH_EVENT = "nvsentinel/health_event_xid48_data_flow_doc.json";
    private static final String NODE = "gpu-node-42";
    private static final Instant NOW = Instant.parse("2026-12-02T08:00:00Z");

    private final DcgmScrapeTranslator dcgm = new DcgmScrapeTranslator();
    private final NvSentinelTranslator translator = new NvSentinelTranslator(dcgm.pciBusIds());

    /** A dcgm-exporter scrape of the node naming its GPU 0 at the CloudEvent's PCI address, in dcgm-exporter's spelling. */
    private void scrapeNamesGpuAt17() {
        String body = "# TYPE DCGM_FI_DEV_GPU_TEMP gauge\n"
                + "DCGM_FI_DEV_GPU_TEMP{gpu=\"0\",UUID=\"GPU-17\",pci_bus_id=\"00000000:17:00.0\",Hostname=\"x\"} 40\n";
        Translation t = dcgm.translate(body, Format.PROMETHEUS_TEXT, new DcgmScrape("push/" + NODE, NODE, NOW));
        assertThat(t.rejections()).isEmpty();
    }

    private static ObjectNode fixture(String name) {
        try {
            return (ObjectNode) JSON.readTree(Fixtures.bytes(name));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static ObjectNode healthEventOf(ObjectNode cloudEvent) {
        return (ObjectNode) cloudEvent.path("data").path("healthEvent");
    }

    private Translation translate(JsonNode item) {
        return translator.translate(item, NOW);
    }

    private static List<Integer> xids(Translation t) {
        return t.events().stream()
                .filter(e -> e.type() == EventType.GPU_XID)
                .map(e -> ((GpuData.Xid) e.data()).xid())
                .toList();
    }

    private static List<Event> notices(Translation t) {
        return t.events().stream()
                .filter(e -> e.type() == EventType.NODE_INTERRUPTION_NOTICE)
                .toList();
    }

    private static List<String> reasons(Translation t) {
        return t.rejections().stream().map(Translation.Rejection::reason).toList();
    }

    @Test
    void theExportersCloudEventPutsBothXidsOnTheGpuTheScrapePlacedAtItsPciAddressAndHonoursTheDrainSkip() {
        scrapeNamesGpuAt17();
        Translation t = translate(fixture(CLOUDEVENT));
        assertThat(t.rejections()).isEmpty();
        assertThat(xids(t)).containsExactly(48, 79);
        for (Event e : t.events()) {
            assertThat(e.subject()).isEqualTo(NODE);
            assertThat(e.time()).isEqualTo(Instant.parse("2025-01-15T10:30:00Z"));
            assertThat(e.source()).isEqualTo("nvsentinel/gpu-health-monitor");
            assertThat(e.data())
                    .isEqualTo(new GpuData.Xid("GPU-17", 0, ((GpuData.Xid) e.data()).xid(), "GPU XID error detected"));
        }
        assertThat(t.events())
                .extracting(Event::id)
                .doesNotHaveDuplicates()
                .allSatisfy(id -> assertThat(id).startsWith("nvsentinel/"));
        // RESTART_VM, but the fixture's drainOverrides.skip is true: an operator told NVSentinel not to drain for it.
        assertThat(notices(t)).isEmpty();

        ObjectNode drain = fixture(CLOUDEVENT);
        healthEventOf(drain).remove("drainOverrides");
        Translation withNotice = translate(drain);
        assertThat(notices(withNotice)).singleElement().satisfies(n -> {
            assertThat(n.data()).isEqualTo(new NodeData.InterruptionNotice(NoticeKind.MAINTENANCE, "nvsentinel", null));
            assertThat(n.subject()).isEqualTo(NODE);
        });
    }

    @Test
    void idsComeFromTheContentSoARedeliveryWithAFreshCloudEventIdIsTheSameEvent() {
        scrapeNamesGpuAt17();
        List<String> first =
                translate(fixture(CLOUDEVENT)).events().stream().map(Event::id).toList();
        ObjectNode again = fixture(CLOUDEVENT);
        again.put("id", "0b9a3f6e-0000-4000-8000-000000000001"); // the exporter draws a new one for every export
        assertThat(translate(again).events()).extracting(Event::id).isEqualTo(first);

        ObjectNode later = fixture(CLOUDEVENT);
        healthEventOf(later).put("generatedTimestamp", "2025-01-15T10:31:00Z");
        assertThat(translate(later).events()).extracting(Event::id).doesNotContainAnyElementsOf(first);
    }

    @Test
    void withoutAScrapeTheCloudEventsXidsAreRefusedAsUnknownGpuAndANoticeIsStillKept() {
        ObjectNode ce = fixture(CLOUDEVENT);
        healthEventOf(ce).remove("drainOverrides");
        Translation t = translate(ce);
        assertThat(xids(t)).isEmpty();
        assertThat(reasons(t)).containsExactly(NvSentinelTranslator.UNKNOWN_GPU);
        assertThat(notices(t)).hasSize(1);
        assertThat(t.isRejected()).isFalse();
    }

    @Test
    void theDocsHealthEventNamesItsGpuByUuidAndIndexAndReplaceVmEmptiesTheNode() {
        Translation t = translate(fixture(HEALTH_EVENT));
        assertThat(t.rejections()).isEmpty();
        Event xid = t.events().get(0);
        assertThat(xid.type()).isEqualTo(EventType.GPU_XID);
        assertThat(xid.data())
                .isEqualTo(new GpuData.Xid(
                        "GPU-12345678-abcd-1234-abcd-123456789abc",
                        0,
                        48,
                        "GPU 0 reported XID 48 (Double Bit ECC Error)"));
        assertThat(xid.time()).isEqualTo(Instant.parse("2025-10-28T10:15:30Z"));
        assertThat(notices(t))
                .singleElement()
                .satisfies(n -> assertThat(((NodeData.InterruptionNotice) n.data()).kind())
                        .isEqualTo(NoticeKind.MAINTENANCE));
    }

    @Test
    void aUuidWithoutAnIndexIsNotEnoughAndAnIndexWithoutAUuidNeither() {
        ObjectNode he = fixture(HEALTH_EVENT);
        ((ObjectNode) he.path("metadata")).remove("gpu_index");
        assertThat(reasons(translate(he))).containsExactly(NvSentinelTranslator.UNKNOWN_GPU);

        ObjectNode indexOnly = fixture(CLOUDEVENT);
        assertThat(reasons(translate(indexOnly))).containsExactly(NvSentinelTranslator.UNKNOWN_GPU);
    }

    @Test
    void theSyslogMonitorsBareNumbersAreXidsOfItsXidCheckOnly() {
        ObjectNode he = fixture(HEALTH_EVENT);
        he.put("checkName", "SysLogsXIDError");
        he.set("errorCode", JSON.createArrayNode().add("79").add("79").add("13"));
        assertThat(xids(translate(he))).containsExactly(79, 13);

        he.put("checkName", "SysLogsSXIDError"); // NVSwitch errors: their numbers are not GPU XIDs
        assertThat(xids(translate(he))).isEmpty();
        he.put("checkName", "GpuPcieWatch");
        assertThat(xids(translate(he))).isEmpty();

        he.put("checkName", "SysLogsGPUFallenOff");
        he.set("errorCode", JSON.createArrayNode());
        assertThat(xids(translate(he))).containsExactly(79);
    }

    @Test
    void eachRecommendedActionByNameOrNumber() {
        for (String action :
                List.of("COMPONENT_RESET", "RUN_FIELDDIAG", "RESTART_VM", "RESTART_BM", "REPLACE_VM", "RUN_DCGMEUD")) {
            assertThat(notices(translate(with(he -> he.put("recommendedAction", action)))))
                    .as(action)
                    .hasSize(1);
        }
        for (int number : List.of(2, 6, 15, 24, 25, 26)) {
            assertThat(notices(translate(with(he -> he.put("recommendedAction", number)))))
                    .as("%d", number)
                    .hasSize(1);
        }
        for (String action : List.of("NONE", "UNKNOWN", "RESTART_APP", "SOMETHING_NEW")) {
            Translation t = translate(with(he -> he.put("recommendedAction", action)));
            assertThat(notices(t)).as(action).isEmpty();
            assertThat(xids(t)).as(action).containsExactly(48);
        }
        Translation restartApp = translate(with(he -> he.put("recommendedAction", 39)));
        assertThat(restartApp.events()).singleElement().extracting(Event::type).isEqualTo(EventType.GPU_XID);
        assertThat(notices(translate(with(he -> he.put("recommendedAction", "CONTACT_SUPPORT")))))
                .hasSize(1);
        assertThat(notices(translate(with(
                        he -> he.put("recommendedAction", "CONTACT_SUPPORT").put("isFatal", false)))))
                .isEmpty();
    }

    @Test
    void recoveriesAndStoreOnlyEventsGiveNothingAndNoRejection() {
        for (Translation t : List.of(
                translate(with(he -> he.put("isHealthy", true))),
                translate(with(he -> he.put("processingStrategy", "STORE_ONLY"))),
                translate(with(he -> he.put("processingStrategy", 2))))) {
            assertThat(t.events()).isEmpty();
            assertThat(t.rejections()).isEmpty();
        }
        assertThat(translate(with(he -> he.put("processingStrategy", "EXECUTE_REMEDIATION")))
                        .events())
                .hasSize(2);
    }

    @Test
    void hostileAndMalformedInputIsRejectedWithItsReason() {
        assertThat(reasons(translate(JSON.getNodeFactory().textNode("a health event"))))
                .containsExactly(NvSentinelTranslator.NOT_A_HEALTH_EVENT);
        assertThat(reasons(translate(JSON.createArrayNode()))).containsExactly(NvSentinelTranslator.NOT_A_HEALTH_EVENT);
        assertThat(reasons(translate(null))).containsExactly(NvSentinelTranslator.NOT_A_HEALTH_EVENT);
        assertThat(reasons(translate(JSON.createObjectNode().put("hello", "world"))))
                .containsExactly(NvSentinelTranslator.NOT_A_HEALTH_EVENT);
        ObjectNode otherType = fixture(CLOUDEVENT).put("type", "com.example.other");
        assertThat(reasons(translate(otherType))).containsExactly(NvSentinelTranslator.UNSUPPORTED_EVENT_TYPE);
        ObjectNode noData = fixture(CLOUDEVENT);
        noData.remove("data");
        noData.put("specversion", "1.0");
        assertThat(reasons(translate(noData))).containsExactly(NvSentinelTranslator.NOT_A_HEALTH_EVENT);

        assertThat(reasons(translate(with(he -> he.remove("nodeName")))))
                .containsExactly(NvSentinelTranslator.NO_NODE_NAME);
        assertThat(reasons(translate(with(he -> he.put("nodeName", " ")))))
                .containsExactly(NvSentinelTranslator.NO_NODE_NAME);
        for (String bad : List.of("bad node!", "../../etc/passwd", "-leading-dash", "x".repeat(300), "node\nname")) {
            assertThat(reasons(translate(with(he -> he.put("nodeName", bad)))))
                    .as(bad)
                    .containsExactly(NvSentinelTranslator.INVALID_NODE_NAME);
        }
        for (String bad : List.of("yesterday", "2025-13-45T10:15:30Z", "2025-10-28 10:15:30")) {
            Translation t = translate(with(he -> he.put("generatedTimestamp", bad)));
            assertThat(reasons(t)).as(bad).containsExactly(NvSentinelTranslator.INVALID_TIME);
            assertThat(t.rejections().get(0).detail()).contains("generatedTimestamp");
        }

        ArrayNode huge = JSON.createArrayNode();
        for (int i = 0; i < 10_000; i++) {
            huge.add("XID-" + (i % 200));
        }
        assertThat(reasons(translate(with(he -> he.set("errorCode", huge)))))
                .containsExactly(NvSentinelTranslator.TOO_MANY_ENTRIES);
        ArrayNode entities = JSON.createArrayNode();
        for (int i = 0; i < 65; i++) {
            entities.addObject().put("entityType", "GPU").put("entityValue", Integer.toString(i));
        }
        assertThat(reasons(translate(with(he -> he.set("entitiesImpacted", entities)))))
                .containsExactly(NvSentinelTranslator.TOO_MANY_ENTRIES);

        List<Consumer<ObjectNode>> wrongTypes = List.of(
                he -> he.put("nodeName", 42),
                he -> he.put("isHealthy", "true"),
                he -> he.put("isFatal", 1),
                he -> he.put("errorCode", "XID-48"),
                he -> he.set("errorCode", JSON.createArrayNode().add(48)),
                he -> he.set(
                        "entitiesImpacted",
                        JSON.createObjectNode()
                                .set(
                                        "a",
                                        JSON.createObjectNode()
                                                .put("entityType", "GPU_UUID")
                                                .put("entityValue", "GPU-x"))),
                he -> he.set("entitiesImpacted", JSON.createArrayNode().add("GPU-x")),
                he -> he.set(
                        "entitiesImpacted",
                        JSON.createArrayNode().add(JSON.createObjectNode().put("entityValue", 0))),
                he -> he.set("recommendedAction", JSON.createObjectNode()),
                he -> he.put("generatedTimestamp", 1_761_646_530L),
                he -> he.put("metadata", "gpu_uuid=GPU-x"),
                he -> he.set("message", JSON.createArrayNode()));
        for (Consumer<ObjectNode> change : wrongTypes) {
            ObjectNode he = with(change);
            Translation t = translate(he);
            assertThat(reasons(t)).as(he.toString()).containsExactly(NvSentinelTranslator.INVALID_FIELD);
            assertThat(t.rejections().get(0).detail()).startsWith("healthEvent.");
        }
        assertThat(reasons(translator.malformed("not JSON"))).containsExactly(NvSentinelTranslator.MALFORMED_JSON);
    }

    @Test
    void aHugeMessageIsShortenedAndOutOfRangeCodesAreNoXids() {
        Translation t = translate(with(he -> he.put("message", "é".repeat(100_000))
                .set(
                        "errorCode",
                        JSON.createArrayNode()
                                .add("XID-0")
                                .add("XID-999999")
                                .add("XID_48")
                                .add("XID-abc"))));
        assertThat(xids(t)).containsExactly(48);
        assertThat(((GpuData.Xid) t.events().get(0).data()).message())
                .hasSize(256)
                .endsWith("...");
    }

    @Test
    void countsEveryInputAndEachRejectionByReason() {
        translate(fixture(HEALTH_EVENT));
        translate(with(he -> he.put("isHealthy", true)));
        translate(with(he -> he.remove("nodeName")));
        var s = translator.stats().snapshot();
        assertThat(s.translator()).isEqualTo("nvsentinel");
        assertThat(s.received()).isEqualTo(3);
        assertThat(s.translated()).isEqualTo(2);
        assertThat(s.events()).isEqualTo(2);
        assertThat(s.rejectionsByReason()).containsExactly(java.util.Map.entry(NvSentinelTranslator.NO_NODE_NAME, 1L));
    }

    /** The docs' HealthEvent, changed. */
    private static ObjectNode with(Consumer<ObjectNode> change) {
        ObjectNode he = fixture(HEALTH_EVENT);
        change.accept(he);
        return he;
    }
}
