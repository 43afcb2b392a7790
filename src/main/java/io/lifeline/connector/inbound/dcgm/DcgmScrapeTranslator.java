package io.lifeline.connector.inbound.dcgm;

import io.lifeline.connector.Translation;
import io.lifeline.connector.TranslatorStats;
import io.lifeline.connector.inbound.exposition.Exposition;
import io.lifeline.connector.inbound.exposition.ExpositionParser;
import io.lifeline.connector.inbound.exposition.Format;
import io.lifeline.connector.inbound.exposition.Sample;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.GpuData;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Turns one dcgm-exporter scrape into catalogue events: one {@code gpu.sample} per GPU (or MIG instance) and a
 * {@code gpu.xid} when a GPU's last-XID gauge changes.
 *
 * <p><b>Samples.</b> Utilisation ({@code DCGM_FI_DEV_GPU_UTIL}, else {@code DCGM_FI_PROF_GR_ENGINE_ACTIVE} × 100),
 * frame buffer used/free (MiB), temperature, power, volatile ECC SBE/DBE counts, row-remap failure
 * ({@code DCGM_FI_DEV_ROW_REMAP_FAILURE}), NVLink errors (the sum of whichever of the four NVLink error counters
 * are present), the last XID, model ({@code modelName}), pod and namespace. Every value is nullable: a series
 * the scrape lacks (or NaN, or one of DCGM's blank markers such as {@code 9223372036854775794} that exporters before
 * 2.1 printed for a value the GPU does not have) is "no data", never zero; a value outside the catalogue's range is dropped with
 * reason {@code out_of_range_value}. A GPU appears for any {@code DCGM_*} series carrying its UUID, so a scrape
 * of clocks only still yields a sample with model, index, pod and nulls.
 *
 * <p><b>Labels.</b> {@code UUID} or {@code uuid}; {@code gpu} (the index); {@code Hostname} or, in newer
 * exporters, {@code hostname}; pod from {@code exported_pod},
 * {@code pod} or {@code pod_name}; namespace from {@code exported_namespace}, {@code namespace} or
 * {@code pod_namespace} ({@code exported_*} first: it is the exporter's own value once Prometheus has renamed
 * it); empty labels are absent. Metric names are read in all their spellings (see {@link DcgmField}).
 *
 * <p><b>MIG.</b> A {@code GPU_I_ID} label makes the key {@code uuid/GPU_I_ID}, which is the {@code uuid} of that
 * instance's sample; utilisation and frame buffer stay with the instance, while device values (temperature,
 * power, ECC, row remap, NVLink, XID) belong to the parent GPU, whose own sample carries them.
 *
 * <p><b>XID.</b> {@code DCGM_FI_DEV_XID_ERRORS} is the last XID seen, not a count. A {@code gpu.xid} event is
 * emitted when it differs from the previous scrape of the same GPU; the first non-zero value seen counts as a
 * change; zero is never an event; a missing series changes nothing. The memory of last values is bounded
 * ({@link #DEFAULT_MAX_TRACKED_GPUS} GPUs by default, least recently seen forgotten first). The same XID
 * occurring twice in a row cannot be seen in the gauge.
 *
 * <p><b>Node.</b> The caller's {@link DcgmScrape#nodeName()} (the scrape target's node), else the
 * {@code Hostname}/{@code hostname} label, which may be the exporter pod's name rather than the node's.
 *
 * <p><b>Events.</b> Subject = node; source = {@code dcgm-exporter/<endpoint>}; time = scrape time; id =
 * {@code <type>/<node>/<uuid key>/<scrape time in ms>}, so a retried scrape yields the same ids.
 *
 * <p><b>PCI addresses.</b> A GPU's {@code pci_bus_id} label is remembered per node ({@link #pciBusIds()}), for
 * the kernel-log XIDs that name a GPU by its address only.
 *
 * <p>Thread-safe; keep one instance for all scrapes so the XID memory spans them.
 */
public final class DcgmScrapeTranslator {

    public static final int DEFAULT_MAX_TRACKED_GPUS = 262_144;

    /** Rejection reasons. */
    public static final String NO_NODE_NAME = "no_node_name";

    public static final String INVALID_NODE_NAME = "invalid_node_name";
    public static final String NO_GPU_SERIES = "no_gpu_series";
    public static final String SERIES_WITHOUT_UUID = "series_without_uuid";
    public static final String SERIES_WITHOUT_GPU_INDEX = "series_without_gpu_index";
    public static final String OUT_OF_RANGE_VALUE = "out_of_range_value";
    public static final String UNPARSEABLE_LINES = "unparseable_lines";

    /** The same rule the CloudEvents codec applies to subjects. */
    private static final Pattern NODE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:/@-]{0,252}");

    private static final int MAX_ID = 256;
    private static final int MAX_GPU_INDEX = 1023;

    private final LastXidMemory lastXid;
    private final PciBusIds pciBusIds;
    private final TranslatorStats stats = new TranslatorStats("dcgm");

    public DcgmScrapeTranslator() {
        this(DEFAULT_MAX_TRACKED_GPUS);
    }

    public DcgmScrapeTranslator(int maxTrackedGpus) {
        this.lastXid = new LastXidMemory(maxTrackedGpus);
        this.pciBusIds = new PciBusIds(maxTrackedGpus);
    }

    /** Parses a scrape body (the format from its Content-Type, see {@link Format#fromContentType}) and translates it. */
    public Translation translate(byte[] body, Format format, DcgmScrape scrape) {
        return translate(ExpositionParser.parse(body, format), scrape);
    }

    /** Translates a scrape body given as text. */
    public Translation translate(String body, Format format, DcgmScrape scrape) {
        return translate(body.getBytes(StandardCharsets.UTF_8), format, scrape);
    }

    /** Translates an already parsed scrape. */
    public Translation translate(Exposition exposition, DcgmScrape scrape) {
        return stats.record(doTranslate(exposition, scrape));
    }

    public TranslatorStats stats() {
        return stats;
    }

    /** Which GPU sits at which PCI address of a node, as the scrapes' {@code pci_bus_id} labels said. */
    public PciBusIds pciBusIds() {
        return pciBusIds;
    }

    /** How many GPUs the XID memory holds now. */
    public int trackedGpus() {
        return lastXid.size();
    }

    private Translation doTranslate(Exposition exposition, DcgmScrape scrape) {
        Map<String, Problem> problems = new LinkedHashMap<>(4);
        if (!exposition.errors().isEmpty()) {
            problem(
                    problems,
                    UNPARSEABLE_LINES,
                    exposition.errors().size(),
                    "first: " + exposition.errors().get(0));
        }
        List<GpuAccumulator> gpus = new ArrayList<>(16);
        String hostname = collect(exposition.samples(), gpus, problems);
        if (gpus.isEmpty()) {
            problem(problems, NO_GPU_SERIES, 1, "the scrape has no DCGM series with a GPU UUID");
            return new Translation(List.of(), rejections(problems));
        }
        String node = scrape.nodeName() != null ? scrape.nodeName() : hostname;
        if (node == null) {
            return Translation.rejected(
                    NO_NODE_NAME, "no node name given by the caller and no Hostname/hostname label in the scrape");
        }
        if (!NODE_NAME.matcher(node).matches()) {
            return Translation.rejected(
                    INVALID_NODE_NAME, "node name '" + abbreviate(node) + "' is not a valid subject");
        }
        String source = "dcgm-exporter/" + scrape.endpoint();
        List<Event> events = new ArrayList<>(gpus.size() + 2);
        for (GpuAccumulator g : gpus) {
            if (!g.direct && !g.deviceData) {
                continue; // a parent implied by MIG instances that reported nothing about the device
            }
            if (g.pciBusId != null && g.instanceId == null) {
                pciBusIds.learn(node, g.pciBusId, g.uuid, g.index);
            }
            GpuData.Sample sample = sample(g, problems);
            events.add(new Event(
                    id(EventType.GPU_SAMPLE, node, g.key, scrape),
                    source,
                    EventType.GPU_SAMPLE,
                    node,
                    scrape.scrapeTime(),
                    sample));
            Integer xid = sample.lastXid();
            if (xid != null && lastXid.observe(node, g.uuid, xid)) {
                events.add(new Event(
                        id(EventType.GPU_XID, node, g.uuid, scrape),
                        source,
                        EventType.GPU_XID,
                        node,
                        scrape.scrapeTime(),
                        new GpuData.Xid(g.uuid, g.index, xid, g.xidMessage)));
            }
        }
        return new Translation(events, rejections(problems));
    }

    /** Groups the DCGM series by GPU key; returns the first Hostname label seen. */
    private static String collect(List<Sample> samples, List<GpuAccumulator> gpus, Map<String, Problem> problems) {
        String hostname = null;
        for (Sample s : samples) {
            String name = s.name();
            DcgmField field = DcgmField.of(name);
            if (field == null && !DcgmField.isDcgmSeries(name)) {
                continue;
            }
            String uuid = nonEmpty(s.label("UUID"));
            if (uuid == null) {
                uuid = nonEmpty(s.label("uuid"));
            }
            if (uuid == null) {
                problem(problems, SERIES_WITHOUT_UUID, 1, name);
                continue;
            }
            String instance = nonEmpty(s.label("GPU_I_ID"));
            GpuAccumulator g = find(gpus, uuid, instance);
            if (g == null) {
                g = create(s, uuid, instance, problems);
                if (g == null) {
                    continue;
                }
                gpus.add(g);
            }
            g.direct = true;
            if (hostname == null) {
                hostname = hostname(s);
            }
            if (field == null) {
                continue;
            }
            if (instance != null && field.device) {
                GpuAccumulator parent = find(gpus, uuid, null);
                if (parent == null) {
                    parent = new GpuAccumulator(uuid, null, g.index, g.model);
                    parent.pciBusId = g.pciBusId;
                    gpus.add(parent);
                }
                parent.apply(field, s);
            } else {
                g.apply(field, s);
            }
        }
        return hostname;
    }

    private static GpuAccumulator find(List<GpuAccumulator> gpus, String uuid, String instance) {
        for (int i = 0, n = gpus.size(); i < n; i++) {
            GpuAccumulator g = gpus.get(i);
            if (g.is(uuid, instance)) {
                return g;
            }
        }
        return null;
    }

    private static GpuAccumulator create(Sample s, String uuid, String instance, Map<String, Problem> problems) {
        int index = parseIndex(s.label("gpu"));
        if (index < 0) {
            problem(problems, SERIES_WITHOUT_GPU_INDEX, 1, s.name() + " of " + uuid + " has gpu=" + s.label("gpu"));
            return null;
        }
        GpuAccumulator g = new GpuAccumulator(uuid, instance, index, nonEmpty(s.label("modelName")));
        g.pod = firstNonEmpty(s.label("exported_pod"), s.label("pod"), s.label("pod_name"));
        g.namespace = firstNonEmpty(s.label("exported_namespace"), s.label("namespace"), s.label("pod_namespace"));
        g.pciBusId = nonEmpty(s.label("pci_bus_id"));
        return g;
    }

    private static String hostname(Sample s) {
        return firstNonEmpty(
                s.label("Hostname"), s.label("hostname"), s.label("exported_Hostname"), s.label("exported_hostname"));
    }

    private static GpuData.Sample sample(GpuAccumulator g, Map<String, Problem> problems) {
        boolean instance = g.instanceId != null;
        return new GpuData.Sample(
                g.key,
                g.index,
                g.model,
                ranged(g.utilizationPercent(), 0, 100, "utilization", g, problems),
                ranged(g.fbUsed, 0, 1e9, "memoryUsedMiB", g, problems),
                ranged(g.fbFree, 0, 1e9, "memoryFreeMiB", g, problems),
                instance ? null : ranged(g.temperature, -100, 300, "temperature", g, problems),
                instance ? null : ranged(g.power, 0, 1e5, "power", g, problems),
                instance ? null : count(g.eccSbe, "eccSbeVolatile", g, problems),
                instance ? null : count(g.eccDbe, "eccDbeVolatile", g, problems),
                instance ? null : count(g.rowRemapFailure, "rowRemapFailures", g, problems),
                instance ? null : count(g.nvlinkErrors, "nvlinkErrors", g, problems),
                instance ? null : xid(g, problems),
                g.pod,
                g.namespace);
    }

    private static Double ranged(
            double v, double min, double max, String what, GpuAccumulator g, Map<String, Problem> problems) {
        if (Double.isNaN(v)) {
            return null;
        }
        if (v < min || v > max) {
            problem(problems, OUT_OF_RANGE_VALUE, 1, what + "=" + v + " on " + g.key);
            return null;
        }
        return v;
    }

    private static Long count(double v, String what, GpuAccumulator g, Map<String, Problem> problems) {
        if (Double.isNaN(v)) {
            return null;
        }
        if (v < 0 || v >= 9.2e18) {
            problem(problems, OUT_OF_RANGE_VALUE, 1, what + "=" + v + " on " + g.key);
            return null;
        }
        return Math.round(v);
    }

    private static Integer xid(GpuAccumulator g, Map<String, Problem> problems) {
        if (Double.isNaN(g.xid)) {
            return null;
        }
        if (g.xid < 0 || g.xid > 100_000 || g.xid != Math.rint(g.xid)) {
            problem(problems, OUT_OF_RANGE_VALUE, 1, "lastXid=" + g.xid + " on " + g.key);
            return null;
        }
        return (int) g.xid;
    }

    private static String id(EventType type, String node, String gpuKey, DcgmScrape scrape) {
        String id = type.wireName() + "/" + node + "/" + gpuKey + "/"
                + scrape.scrapeTime().toEpochMilli();
        if (id.length() <= MAX_ID) {
            return id;
        }
        return type.wireName() + "/" + UUID.nameUUIDFromBytes(id.getBytes(StandardCharsets.UTF_8));
    }

    private static int parseIndex(String s) {
        if (s == null || s.isEmpty() || s.length() > 4) {
            return -1;
        }
        int v = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v <= MAX_GPU_INDEX ? v : -1;
    }

    private static String nonEmpty(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    private static String firstNonEmpty(String a, String b, String c) {
        return nonEmpty(a) != null ? a : nonEmpty(b) != null ? b : nonEmpty(c);
    }

    private static String firstNonEmpty(String a, String b, String c, String d) {
        String first = firstNonEmpty(a, b, c);
        return first != null ? first : nonEmpty(d);
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }

    // One rejection per reason per scrape (with a count), so a bad exporter cannot flood the result.

    private record Problem(int count, String firstDetail) {}

    private static void problem(Map<String, Problem> problems, String reason, int n, String detail) {
        problems.merge(reason, new Problem(n, detail), (a, b) -> new Problem(a.count + b.count, a.firstDetail));
    }

    private static List<Translation.Rejection> rejections(Map<String, Problem> problems) {
        if (problems.isEmpty()) {
            return List.of();
        }
        List<Translation.Rejection> out = new ArrayList<>(problems.size());
        problems.forEach((reason, p) -> out.add(new Translation.Rejection(
                reason, p.count == 1 ? p.firstDetail : p.count + " times, first: " + p.firstDetail)));
        return out;
    }
}
