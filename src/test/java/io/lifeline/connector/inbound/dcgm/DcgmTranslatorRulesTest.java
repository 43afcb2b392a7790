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
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The translator's rules (XID change detection, label and name variants, MIG, ranges). Inputs are the real
 * scrapes of {@code fixtures/dcgm/} with one thing changed per test (a value, a label name or a metric name, as
 * a different exporter version or a Prometheus relabelling would write it); XID messages are dcgm-exporter's
 * own strings ({@code fixtures/xid/dcgm_exporter_xid_err_msg.csv}).
 */
class DcgmTranslatorRulesTest {

    private static final String LKE = Fixtures.text("dcgm/metrics_lke_rtx4000ada_k8s_pod_labels.prom");
    private static final String MIG = Fixtures.text("dcgm/metrics_issue272_mig_old_namespace_lowercase.prom");
    private static final String UUID = "GPU-a8394b51-c086-568a-9f1a-c1e1c934c44c";
    private static final String NODE = "lke529760-766837-0a634ab30000";
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    private final DcgmScrapeTranslator translator = new DcgmScrapeTranslator();

    @Test
    void firstNonZeroXidIsAnXidEvent() {
        Translation t = scrape(withXid(79, "GPU has fallen off the bus"), 0);

        assertThat(t.events()).extracting(Event::type).containsExactly(EventType.GPU_SAMPLE, EventType.GPU_XID);
        Event xid = t.events().get(1);
        assertThat(xid.data()).isEqualTo(new GpuData.Xid(UUID, 0, 79, "GPU has fallen off the bus"));
        assertThat(xid.id()).isEqualTo("gpu.xid/" + NODE + "/" + UUID + "/" + T0.toEpochMilli());
        assertThat(xid.subject()).isEqualTo(NODE);
        assertThat(((GpuData.Sample) t.events().get(0).data()).lastXid()).isEqualTo(79);
        EventContract.assertRoundTrips(t.events());
    }

    @Test
    void xidEventsOnlyWhenTheLastXidGaugeChanges() {
        assertThat(xidsOf(scrape(withXid(79, "GPU has fallen off the bus"), 0))).containsExactly(79);
        assertThat(xidsOf(scrape(withXid(79, "GPU has fallen off the bus"), 1)))
                .as("same value again")
                .isEmpty();
        assertThat(xidsOf(scrape(withXid(48, "Double Bit ECC Error"), 2)))
                .as("changed")
                .containsExactly(48);
        assertThat(xidsOf(scrape(LKE, 3))).as("back to 0 is not an XID").isEmpty();
        assertThat(xidsOf(scrape(withXid(48, "Double Bit ECC Error"), 4)))
                .as("48 after 0")
                .containsExactly(48);
    }

    @Test
    void aZeroXidSeenFirstIsNotAnEvent() {
        assertThat(xidsOf(scrape(LKE, 0))).isEmpty();
        assertThat(translator.trackedGpus()).isEqualTo(1);
    }

    @Test
    void aMissingXidSeriesIsNoDataAndLeavesTheMemoryAlone() {
        assertThat(xidsOf(scrape(withXid(79, "GPU has fallen off the bus"), 0))).containsExactly(79);

        Translation gap = scrape(withoutLinesContaining("DCGM_FI_DEV_XID_ERRORS"), 1);
        assertThat(xidsOf(gap)).isEmpty();
        assertThat(((GpuData.Sample) gap.events().get(0).data()).lastXid()).isNull();

        assertThat(xidsOf(scrape(withXid(79, "GPU has fallen off the bus"), 2)))
                .as("not a change")
                .isEmpty();
    }

    @Test
    void theXidMemoryIsPerNodeAndBounded() {
        DcgmScrapeTranslator small = new DcgmScrapeTranslator(1);
        String body = withXid(79, "GPU has fallen off the bus");

        assertThat(xidsOf(small.translate(body, Format.PROMETHEUS_TEXT, new DcgmScrape("a:9400", "node-a", T0))))
                .containsExactly(79);
        assertThat(xidsOf(small.translate(body, Format.PROMETHEUS_TEXT, new DcgmScrape("b:9400", "node-b", T0))))
                .as("same UUID on another node is another GPU")
                .containsExactly(79);
        assertThat(small.trackedGpus()).isEqualTo(1);
        assertThat(xidsOf(small.translate(body, Format.PROMETHEUS_TEXT, new DcgmScrape("a:9400", "node-a", T0))))
                .as("node-a was forgotten to stay within the bound")
                .containsExactly(79);
    }

    @Test
    void relabelledScrapePrefersExportedPodLabelsAndReadsLowerCaseHostname() {
        String relabelled = LKE.replace("Hostname=", "hostname=")
                .replace(
                        ",namespace=\"default\",pod=\"cuda-75454ffb9f-8ljq7\"",
                        ",exported_namespace=\"default\",exported_pod=\"cuda-75454ffb9f-8ljq7\""
                                + ",namespace=\"gpu-operator\",pod=\"nvidia-dcgm-exporter-x2v8k\"");

        GpuData.Sample s = onlySample(
                translator.translate(relabelled, Format.PROMETHEUS_TEXT, new DcgmScrape("10.0.0.7:9400", null, T0)));

        assertThat(s.pod()).isEqualTo("cuda-75454ffb9f-8ljq7");
        assertThat(s.namespace()).isEqualTo("default");
        assertThat(s.temperatureCelsius()).isEqualTo(48.0);
    }

    @Test
    void legacyExporterNamesAndLabelsGiveTheSameSample() {
        String legacy = LKE.replace("DCGM_FI_DEV_GPU_TEMP", "dcgm_gpu_temp")
                .replace("DCGM_FI_DEV_FB_USED", "dcgm_fb_used")
                .replace("DCGM_FI_DEV_FB_FREE", "dcgm_fb_free")
                .replace("DCGM_FI_DEV_POWER_USAGE", "dcgm_power_usage")
                .replace("DCGM_FI_DEV_GPU_UTIL", "dcgm_gpu_utilization")
                .replace("DCGM_FI_DEV_XID_ERRORS", "dcgm_xid_errors")
                .replace("UUID=", "uuid=")
                .replace("pod=", "pod_name=")
                .replace("namespace=", "pod_namespace=")
                .replace("container=", "container_name=");

        GpuData.Sample s = onlySample(
                translator.translate(legacy, Format.PROMETHEUS_TEXT, new DcgmScrape("10.0.0.7:9400", null, T0)));

        assertThat(s)
                .isEqualTo(new GpuData.Sample(
                        UUID,
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
    }

    @Test
    void migDeviceValuesAndXidBelongToTheParentGpu() {
        String firstLine = MIG.lines().findFirst().orElseThrow();
        String device =
                firstLine
                                .replace("dcgm_fi_prof_gr_engine_active", "dcgm_fi_dev_gpu_temp")
                                .replace("0.000000", "35") + "\n"
                        + firstLine
                                .replace("dcgm_fi_prof_gr_engine_active", "dcgm_fi_dev_xid_errors")
                                .replace("0.000000", "48");
        Translation t = translator.translate(
                MIG + "\n" + device + "\n", Format.PROMETHEUS_TEXT, new DcgmScrape("10.0.0.9:9400", "a100-node", T0));

        assertThat(t.events())
                .extracting(Event::type, e -> ((GpuData) e.data()).uuid())
                .containsExactly(
                        tuple(EventType.GPU_SAMPLE, "GPU-ed1353d6-52ba-8793-7230-4d5d3eb68167/1"),
                        tuple(EventType.GPU_SAMPLE, "GPU-ed1353d6-52ba-8793-7230-4d5d3eb68167/2"),
                        tuple(EventType.GPU_SAMPLE, "GPU-6043e4b2-feaa-8010-34c7-61d1a01576bb/1"),
                        tuple(EventType.GPU_SAMPLE, "GPU-ed1353d6-52ba-8793-7230-4d5d3eb68167"),
                        tuple(EventType.GPU_XID, "GPU-ed1353d6-52ba-8793-7230-4d5d3eb68167"));
        GpuData.Sample parent = (GpuData.Sample) t.events().get(3).data();
        assertThat(parent.temperatureCelsius()).isEqualTo(35.0);
        assertThat(parent.lastXid()).isEqualTo(48);
        assertThat(parent.utilizationPercent())
                .as("utilisation stays with the instances")
                .isNull();
        GpuData.Sample instance = (GpuData.Sample) t.events().get(0).data();
        assertThat(instance.temperatureCelsius()).isNull();
        assertThat(instance.lastXid()).isNull();
        assertThat(((GpuData.Xid) t.events().get(4).data()).xid()).isEqualTo(48);
        EventContract.assertRoundTrips(t.events());
    }

    @Test
    void eccCountsAndTheSumOfNvlinkErrorCountersAreReported() {
        String nvlinkLine = lineOf("DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL{");
        String remapLine = lineOf("DCGM_FI_DEV_ROW_REMAP_FAILURE{");
        String extra = String.join(
                "\n",
                nvlinkLine
                        .replace("NVLINK_BANDWIDTH_TOTAL", "NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL")
                        .replaceAll(" 0$", " 3"),
                nvlinkLine
                        .replace("NVLINK_BANDWIDTH_TOTAL", "NVLINK_REPLAY_ERROR_COUNT_TOTAL")
                        .replaceAll(" 0$", " 4"),
                remapLine.replace("ROW_REMAP_FAILURE", "ECC_SBE_VOL_TOTAL").replaceAll(" 0$", " 5"),
                remapLine.replace("ROW_REMAP_FAILURE", "ECC_DBE_VOL_TOTAL").replaceAll(" 0$", " 1"),
                remapLine.replaceAll(" 0$", " 1"));

        GpuData.Sample s =
                onlySample(scrape(withoutLinesContaining("DCGM_FI_DEV_ROW_REMAP_FAILURE{") + extra + "\n", 0));

        assertThat(s.nvlinkErrors()).isEqualTo(7L);
        assertThat(s.eccSbeVolatile()).isEqualTo(5L);
        assertThat(s.eccDbeVolatile()).isEqualTo(1L);
        assertThat(s.rowRemapFailures()).isEqualTo(1L);
    }

    @Test
    void outOfRangeAndNanValuesAreNoDataAndOutOfRangeIsReported() {
        String body = LKE.replaceAll("(?m)^(DCGM_FI_DEV_GPU_TEMP\\{.*\\}) 48$", "$1 1000000")
                .replaceAll("(?m)^(DCGM_FI_DEV_POWER_USAGE\\{.*\\}) 40.979000$", "$1 NaN");

        Translation t = scrape(body, 0);
        GpuData.Sample s = onlySample(t);

        assertThat(s.temperatureCelsius()).isNull();
        assertThat(s.powerWatts()).isNull();
        assertThat(s.memoryFreeMiB()).isEqualTo(20015.0);
        assertThat(t.rejections())
                .extracting(Translation.Rejection::reason)
                .containsExactly(DcgmScrapeTranslator.OUT_OF_RANGE_VALUE);
        assertThat(t.isRejected()).isFalse();
    }

    @Test
    void anUnreadableLineIsReportedAndTheRestOfTheScrapeIsTranslated() {
        Translation t = scrape(LKE + "DCGM_FI_DEV_GPU_TEMP{gpu=\"0\" 12\n", 0);

        assertThat(t.events()).hasSize(1);
        assertThat(t.rejections())
                .extracting(Translation.Rejection::reason)
                .containsExactly(DcgmScrapeTranslator.UNPARSEABLE_LINES);
    }

    @Test
    void seriesWithoutUuidAreSkippedWithAReason() {
        Translation t =
                scrape(LKE.replace("DCGM_FI_DEV_SM_CLOCK{gpu=\"0\",UUID=", "DCGM_FI_DEV_SM_CLOCK{gpu=\"0\",X="), 0);

        assertThat(t.events()).hasSize(1);
        assertThat(t.rejections())
                .extracting(Translation.Rejection::reason, Translation.Rejection::detail)
                .containsExactly(tuple(DcgmScrapeTranslator.SERIES_WITHOUT_UUID, "DCGM_FI_DEV_SM_CLOCK"));
    }

    @Test
    void aRetriedScrapeYieldsTheSameEventIds() {
        List<String> first = scrape(withXid(31, "GPU memory page fault"), 0).events().stream()
                .map(Event::id)
                .toList();
        List<String> again = new DcgmScrapeTranslator()
                        .translate(
                                withXid(31, "GPU memory page fault"),
                                Format.PROMETHEUS_TEXT,
                                new DcgmScrape("10.0.0.7:9400", null, T0))
                        .events()
                        .stream()
                        .map(Event::id)
                        .toList();

        assertThat(again).isEqualTo(first).hasSize(2);
    }

    private Translation scrape(String body, int minute) {
        return translator.translate(
                body, Format.PROMETHEUS_TEXT, new DcgmScrape("10.0.0.7:9400", null, T0.plusSeconds(60L * minute)));
    }

    private static GpuData.Sample onlySample(Translation t) {
        assertThat(t.events()).hasSize(1);
        return (GpuData.Sample) t.events().get(0).data();
    }

    private static List<Integer> xidsOf(Translation t) {
        return t.events().stream()
                .filter(e -> e.type() == EventType.GPU_XID)
                .map(e -> ((GpuData.Xid) e.data()).xid())
                .toList();
    }

    private static String withXid(int xid, String message) {
        String line = lineOf("DCGM_FI_DEV_XID_ERRORS{");
        String changed = line.replace(
                        "err_code=\"0\",err_msg=\"No Error\"", "err_code=\"" + xid + "\",err_msg=\"" + message + "\"")
                .replaceAll(" 0$", " " + xid);
        assertThat(changed).isNotEqualTo(line);
        return LKE.replace(line, changed);
    }

    private static String withoutLinesContaining(String needle) {
        return Arrays.stream(LKE.split("\n"))
                .filter(l -> !l.contains(needle))
                .collect(Collectors.joining("\n", "", "\n"));
    }

    private static String lineOf(String prefix) {
        return LKE.lines().filter(l -> l.startsWith(prefix)).findFirst().orElseThrow();
    }
}
