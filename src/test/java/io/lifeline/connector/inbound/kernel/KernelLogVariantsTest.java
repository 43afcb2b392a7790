package io.lifeline.connector.inbound.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.connector.EventContract;
import io.lifeline.connector.Translation;
import io.lifeline.connector.inbound.dcgm.DcgmScrape;
import io.lifeline.connector.inbound.dcgm.DcgmScrapeTranslator;
import io.lifeline.connector.inbound.exposition.Format;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.GpuData;
import io.lifeline.testing.FixtureFolder;
import io.lifeline.testing.Fixtures;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every kernel-log sample of {@code fixtures/xid} (dmesg with and without its stamps, {@code dmesg -T}, {@code dmesg
 * --time-format iso -x}, syslog and {@code journalctl} prefixes, drivers from 304 to 570 with and without {@code PCI:},
 * the three-line fallen-off-the-bus report, an XID without a message, and kernel noise; origins in SOURCES.md) is read line
 * by line: each driver XID line one {@code gpu.xid} on the GPU at its address, each other line refused with its reason.
 */
class KernelLogVariantsTest {

    private static final String NODE = "gpu-node-7";
    private static final Instant NOW = Instant.parse("2026-12-02T08:00:00Z");
    /** Every address the samples name, in dcgm-exporter's spelling; GPU-i is the i-th. */
    private static final List<String> ADDRESSES = List.of(
            "00000000:05:00.0",
            "00000000:01:00.0",
            "00000000:03:00.0",
            "00000000:29:00.0",
            "00000009:01:00.0",
            "00000000:CB:00.0",
            "00000000:B3:00.0",
            "00000000:18:00.0",
            "00000000:DC:00.0",
            "00000000:ED:00.0",
            "00000000:BA:00.0",
            "00000000:97:00.0",
            "00000000:04:00.0",
            "00000000:1A:00.0");

    /**
     * Per line: an XID and its GPU ({@code "79@GPU-0"}), {@code "-"} for a line that continues another, or a rejection
     * reason; {@code dated} the time of the first event when its line dates it (else it is the receipt time).
     */
    record Variant(String fixture, List<String> lines, String dated) {
        @Override
        public String toString() {
            return fixture;
        }
    }

    private static final String NOT = KernelLogTranslator.NOT_AN_XID_LINE;

    static Stream<Variant> variants() {
        return Stream.of(
                new Variant(
                        "xid/dmesg_ctime_xid_lines_gpud_readme.log",
                        List.of(
                                NOT,
                                "13@GPU-5",
                                "13@GPU-5",
                                "13@GPU-5",
                                "109@GPU-5",
                                "31@GPU-5",
                                NOT,
                                NOT,
                                "109@GPU-5",
                                NOT),
                        null),
                new Variant(
                        "xid/nvrm_xid_lines_gpud_kmsg_test.log",
                        List.of("79@GPU-0", "79@GPU-1", "14@GPU-2", "79@GPU-3", "149@GPU-4", "154@GPU-4", NOT),
                        null),
                new Variant(
                        "xid/dmesg_fallen_off_bus_multiline_nvsentinel_issue155.log",
                        List.of("79@GPU-6", "-", "-", NOT, NOT),
                        null),
                new Variant(
                        "xid/nvrm_fallen_off_bus_multiline_gpud_kmsg_test.log",
                        List.of("79@GPU-7", "-", "-", "79@GPU-7", NOT, NOT),
                        null),
                new Variant(
                        "xid/kernel_prefix_xid45_open_gpu_kernel_modules_issue1150.log",
                        List.of("45@GPU-8", "45@GPU-9", "45@GPU-10", "45@GPU-11"),
                        null),
                new Variant(
                        "xid/kern_log_driver_304_no_pci_prefix_bumblebee_issue329.log",
                        List.of(NOT, "16@GPU-1", "16@GPU-1", "8@GPU-1"),
                        null),
                new Variant(
                        "xid/dmesg_iso_facility_level_gpud_pr870.log",
                        List.of(NOT, "79@GPU-12"),
                        "2025-05-27T04:18:56.089671Z"),
                new Variant("xid/kernel_xid_without_message_k8s_test_infra_pr796.log", List.of("79@GPU-13"), null),
                new Variant(
                        "xid/journalctl_short_nvrm_not_xid_open_gpu_kernel_modules_issue1151.log",
                        List.of(NOT, NOT, NOT, NOT),
                        null));
    }

    private static KernelLogTranslator translator() {
        DcgmScrapeTranslator dcgm = new DcgmScrapeTranslator();
        StringBuilder body = new StringBuilder("# TYPE DCGM_FI_DEV_GPU_TEMP gauge\n");
        for (int i = 0; i < ADDRESSES.size(); i++) {
            body.append("DCGM_FI_DEV_GPU_TEMP{gpu=\"")
                    .append(i)
                    .append("\",UUID=\"GPU-")
                    .append(i)
                    .append("\",pci_bus_id=\"")
                    .append(ADDRESSES.get(i))
                    .append("\"} 40\n");
        }
        assertThat(dcgm.translate(body.toString(), Format.PROMETHEUS_TEXT, new DcgmScrape("push", NODE, NOW))
                        .rejections())
                .isEmpty();
        return new KernelLogTranslator(dcgm.pciBusIds());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void everyLineIsAnXidOfItsGpuOrRefusedWithItsReason(Variant v) {
        List<String> lines = KernelLogTranslator.lines(Fixtures.text(v.fixture()));
        List<Translation> out = translator().lines(NODE, lines, NOW);

        List<String> got = new ArrayList<>();
        List<Event> events = new ArrayList<>();
        for (Translation t : out) {
            if (!t.events().isEmpty()) {
                GpuData.Xid x = (GpuData.Xid) t.events().get(0).data();
                got.add(x.xid() + "@" + x.uuid());
                events.addAll(t.events());
            } else {
                got.add(t.rejections().isEmpty() ? "-" : t.rejections().get(0).reason());
            }
        }
        assertThat(got).containsExactlyElementsOf(v.lines());
        assertThat(events)
                .allSatisfy(e -> assertThat(e.time()).isIn(NOW, v.dated() == null ? NOW : Instant.parse(v.dated())));
        if (v.dated() != null) {
            assertThat(events).extracting(Event::time).contains(Instant.parse(v.dated()));
        }
        EventContract.assertRoundTrips(events);
    }

    @Test
    void aBatchPostedAgainIsTheSameEventsAndRepeatedLinesOfOneBatchStaySeparate() {
        List<String> lines = KernelLogTranslator.lines(
                Fixtures.text("xid/kern_log_driver_304_no_pci_prefix_bumblebee_issue329.log"));
        List<String> stamped = lines.stream()
                .map(l -> "May 27 16:50:10 gpu-node-7 kernel: " + l)
                .toList();
        List<String> twice = new ArrayList<>(stamped);
        twice.add(stamped.get(3));
        List<String> first = ids(translator().lines(NODE, twice, NOW));
        List<String> again = ids(translator().lines(NODE, twice, NOW.plusSeconds(60)));

        assertThat(again).isEqualTo(first);
        assertThat(Set.copyOf(first))
                .as("the repeated XID 8 of the same second is an event of its own")
                .hasSize(4);
    }

    @Test
    void theDocumentedAgentsJournalLinesAreDatedByTheirOwnStampsInEitherOffsetSpelling() {
        List<Translation> out = translator()
                .lines(
                        NODE,
                        List.of(
                                "2026-12-02T07:37:45.123456+00:00 gpu-node-7 kernel: NVRM: Xid (PCI:0000:05:00): 79, pid='<unknown>', "
                                        + "name=<unknown>, GPU has fallen off the bus.",
                                "2026-12-02T07:37:46.623456+0000 gpu-node-7 kernel: NVRM: GPU 0000:05:00.0: GPU has fallen off the bus."),
                        NOW);
        assertThat(out).allSatisfy(t -> assertThat(t.rejections()).isEmpty());
        assertThat(out.stream().flatMap(t -> t.events().stream()).map(Event::time))
                .containsExactly(
                        Instant.parse("2026-12-02T07:37:45.123456Z"), Instant.parse("2026-12-02T07:37:46.623456Z"));
    }

    @Test
    void theContinuationOfAReportThatNeverEndsIsRefusedLineByLine() {
        List<Translation> out = translator()
                .lines(
                        NODE,
                        List.of(
                                "NVRM: The NVIDIA GPU 0000:b3:00.0",
                                "NVRM: (PCI ID: 10de:26b5) installed in this system has"),
                        NOW);
        assertThat(out)
                .allSatisfy(t -> assertThat(t.rejections())
                        .extracting(Translation.Rejection::reason)
                        .containsExactly(NOT));
    }

    @Test
    void everyLogOfTheFolderHasAnExpectedOutcome() {
        Set<String> named = variants().map(Variant::fixture).collect(Collectors.toSet());
        assertThat(FixtureFolder.unnamed("xid", named))
                .filteredOn(f -> f.endsWith(".log"))
                .isEmpty();
    }

    private static List<String> ids(List<Translation> out) {
        return out.stream().flatMap(t -> t.events().stream()).map(Event::id).toList();
    }
}
