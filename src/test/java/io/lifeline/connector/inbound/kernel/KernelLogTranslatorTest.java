package io.lifeline.connector.inbound.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.connector.Translation;
import io.lifeline.connector.inbound.dcgm.DcgmScrape;
import io.lifeline.connector.inbound.dcgm.DcgmScrapeTranslator;
import io.lifeline.connector.inbound.exposition.Format;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.GpuData;
import io.lifeline.testing.Fixtures;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Real NVRM lines (fixtures xid/) put on GPUs whose PCI addresses a dcgm-exporter scrape named. */
class KernelLogTranslatorTest {

    private static final String NODE = "gpu-node-7";
    private static final Instant NOW = Instant.parse("2026-12-02T08:00:00Z");

    private final DcgmScrapeTranslator dcgm = new DcgmScrapeTranslator();
    private final KernelLogTranslator translator = new KernelLogTranslator(dcgm.pciBusIds());

    /** A scrape naming GPUs at the fixtures' addresses, in dcgm-exporter's spelling (8-digit domain, upper case). */
    private void scrapeNames(String... addresses) {
        StringBuilder body = new StringBuilder("# TYPE DCGM_FI_DEV_GPU_TEMP gauge\n");
        for (int i = 0; i < addresses.length; i++) {
            body.append("DCGM_FI_DEV_GPU_TEMP{gpu=\"")
                    .append(i)
                    .append("\",UUID=\"GPU-")
                    .append(i)
                    .append("\",pci_bus_id=\"")
                    .append(addresses[i])
                    .append("\",Hostname=\"x\"} 40\n");
        }
        Translation t =
                dcgm.translate(body.toString(), Format.PROMETHEUS_TEXT, new DcgmScrape("push/" + NODE, NODE, NOW));
        assertThat(t.rejections()).isEmpty();
    }

    private List<Translation> all(String fixture) {
        List<String> lines = KernelLogTranslator.lines(Fixtures.text(fixture));
        List<Translation> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            out.add(translator.line(NODE, lines.get(i), i, NOW));
        }
        return out;
    }

    @Test
    void everyOccurrenceIsAnEventRepeatsIncludedAndNoiseIsRejectedWithItsReason() {
        scrapeNames("00000000:CB:00.0");
        List<Translation> out = all("xid/dmesg_ctime_xid_lines_gpud_readme.log");
        assertThat(out).hasSize(10);
        List<Integer> xids = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (Translation t : out) {
            for (Event e : t.events()) {
                assertThat(e.type()).isEqualTo(EventType.GPU_XID);
                assertThat(e.subject()).isEqualTo(NODE);
                GpuData.Xid x = (GpuData.Xid) e.data();
                assertThat(x.uuid()).isEqualTo("GPU-0");
                xids.add(x.xid());
                ids.add(e.id());
            }
        }
        assertThat(xids).containsExactly(13, 13, 13, 109, 31, 109);
        assertThat(ids).as("the three XID 13 lines are three occurrences").hasSize(6);
        assertThat(out.get(0).rejections())
                .extracting(Translation.Rejection::reason)
                .containsExactly(KernelLogTranslator.NOT_AN_XID_LINE);
        assertThat(out.get(6).isRejected()).isTrue();
        assertThat(out.get(7).isRejected()).isTrue();
        GpuData.Xid first = (GpuData.Xid) out.get(4).events().get(0).data();
        assertThat(first.message()).isEqualTo("Ch 00000008, errorString CTX SWITCH TIMEOUT, Info 0x58005");
        // dmesg --ctime's local-time stamp has no zone: the event is dated when it was received
        assertThat(out.get(4).events().get(0).time()).isEqualTo(NOW);
    }

    @Test
    void theDriversSpellingsAllFindTheirGpuAndAnUnknownAddressIsRefused() {
        scrapeNames("00000000:05:00.0", "00000000:01:00.0", "00000000:03:00.0", "00000000:29:00.0", "00000009:01:00.0");
        List<Translation> out = all("xid/nvrm_xid_lines_gpud_kmsg_test.log");
        assertThat(out).hasSize(7);
        assertThat(xid(out.get(0))).isEqualTo(new GpuData.Xid("GPU-0", 0, 79, "GPU has fallen off the bus."));
        assertThat(xid(out.get(1))).isEqualTo(new GpuData.Xid("GPU-1", 1, 79, "GPU has fallen off the bus."));
        assertThat(xid(out.get(2))).isEqualTo(new GpuData.Xid("GPU-2", 2, 14, "Channel 00000001"));
        assertThat(xid(out.get(3))).isEqualTo(new GpuData.Xid("GPU-3", 3, 79, "GPU has fallen off the bus."));
        assertThat(xid(out.get(4)).xid()).isEqualTo(149);
        assertThat(xid(out.get(4)).uuid()).isEqualTo("GPU-4");
        assertThat(xid(out.get(5)).xid()).isEqualTo(154);
        assertThat(out.get(6).rejections())
                .extracting(Translation.Rejection::reason)
                .containsExactly(KernelLogTranslator.NOT_AN_XID_LINE);

        Translation unknown =
                translator.line("other-node", "NVRM: Xid (PCI:0000:05:00): 79, GPU has fallen off the bus.", 0, NOW);
        assertThat(unknown.rejections())
                .extracting(Translation.Rejection::reason)
                .containsExactly(KernelLogTranslator.UNKNOWN_PCI_BUS_ID);
    }

    @Test
    void aJournalTimeDatesTheEventAndKeepsItsIdWhenPostedAgainWhileCatLinesCountEachPost() {
        scrapeNames("00000000:3B:00.0");
        String iso = "2026-12-02T07:59:58.123456+00:00 gpu-node-7 kernel: NVRM: Xid (PCI:0000:3b:00): 79, pid=4242, "
                + "name=python3, GPU has fallen off the bus.";
        Event a = translator.line(NODE, iso, 0, NOW).events().get(0);
        Event b = translator.line(NODE, iso, 3, NOW.plusSeconds(30)).events().get(0);
        assertThat(a.time()).isEqualTo(Instant.parse("2026-12-02T07:59:58.123456Z"));
        assertThat(a.id()).isEqualTo(b.id());
        assertThat(((GpuData.Xid) a.data()).message()).isEqualTo("GPU has fallen off the bus.");

        String unix = "1795766398.5 gpu-node-7 kernel: NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.";
        assertThat(translator.line(NODE, unix, 0, NOW).events().get(0).time())
                .isEqualTo(Instant.ofEpochSecond(1795766398L, 500_000_000L));

        String cat = "NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.";
        Event c1 = translator.line(NODE, cat, 0, NOW).events().get(0);
        Event c2 = translator.line(NODE, cat, 1, NOW).events().get(0);
        assertThat(c1.id())
                .as("the same line twice in one post: two occurrences")
                .isNotEqualTo(c2.id());
        assertThat(translator.line("bad node!", cat, 0, NOW).rejections())
                .extracting(Translation.Rejection::reason)
                .containsExactly(KernelLogTranslator.INVALID_NODE_NAME);
    }

    private static GpuData.Xid xid(Translation t) {
        assertThat(t.rejections()).isEmpty();
        assertThat(t.events()).hasSize(1);
        return (GpuData.Xid) t.events().get(0).data();
    }
}
