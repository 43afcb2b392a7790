package io.lifeline.connector.inbound.kernel;

import io.lifeline.codec.Rfc3339;
import io.lifeline.connector.Translation;
import io.lifeline.connector.TranslatorStats;
import io.lifeline.connector.inbound.dcgm.PciBusIds;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.GpuData;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kernel-log lines of the NVIDIA driver into {@code gpu.xid} events, one per line: every occurrence counts, the same
 * XID repeated included (which dcgm-exporter's last-XID gauge cannot show).
 *
 * <p><b>Lines.</b> {@code NVRM: Xid (PCI:0000:3b:00): 79, pid=..., name=..., GPU has fallen off the bus.}, also
 * without {@code PCI:} (older drivers), and the driver's own fallen-off-the-bus line without an XID
 * ({@code NVRM: GPU 0000:29:00.0: GPU has fallen off the bus.}, XID 79). Before {@code NVRM:} may stand what
 * {@code journalctl} or {@code dmesg} put there: an RFC 3339 time ({@code -o short-iso}, {@code short-iso-precise})
 * or seconds since the epoch ({@code -o short-unix}) followed by host and {@code kernel:}, which then date the event;
 * {@code dmesg}'s bracketed stamps; or nothing ({@code -o cat}). Any other line is rejected with a reason, and the
 * other lines of the batch are kept.
 *
 * <p><b>GPU.</b> The PCI address is mapped to the GPU through the {@code pci_bus_id} labels dcgm-exporter scrapes
 * reported for the node ({@link PciBusIds}); an address no scrape has named yet is rejected
 * ({@code unknown_pci_bus_id}), since an XID event needs the GPU's UUID.
 *
 * <p><b>Ids.</b> A line with a stamp of its own (an absolute time, dmesg's {@code [seconds.micros]}, or a stamp without
 * year or zone) gets an id made of node and line (and, for the second and later of identical lines in one batch, how
 * many came before), so a batch posted again is stored once; a line without (as {@code -o cat} writes them) gets
 * one made of node, receipt time, position and line: each occurrence counts, a retried post counts again.
 */
public final class KernelLogTranslator {

    /** Rejection reasons. */
    public static final String NOT_AN_XID_LINE = "not_an_xid_line";

    public static final String INVALID_XID = "invalid_xid";
    public static final String UNKNOWN_PCI_BUS_ID = "unknown_pci_bus_id";
    public static final String INVALID_NODE_NAME = "invalid_node_name";

    private static final Pattern NODE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:/@-]{0,252}");
    private static final Pattern XID = Pattern.compile(
            "NVRM: Xid \\((?:PCI:)?([0-9A-Fa-f]{1,8}:[0-9A-Fa-f]{1,2}:[0-9A-Fa-f]{1,2}(?:\\.[0-7])?)\\): (\\d{1,6})(?:,\\s*(.*))?\\s*$");
    /** The first line of the driver's three-line report of a GPU gone from the bus (R570 on), without an XID. */
    private static final Pattern FALLEN_OFF_FIRST = Pattern.compile(
            "NVRM: The NVIDIA GPU ((?:[0-9A-Fa-f]{1,8}:)?[0-9A-Fa-f]{1,2}:[0-9A-Fa-f]{1,2}(?:\\.[0-7])?)\\s*$");

    private static final String FALLEN_OFF_LAST = "fallen off the bus and is not responding to commands";
    /** How many lines after the first the three-line report may end. */
    private static final int FALLEN_OFF_SPAN = 3;

    private static final Pattern FALLEN_OFF = Pattern.compile(
            "NVRM: GPU ((?:[0-9A-Fa-f]{1,8}:)?[0-9A-Fa-f]{1,2}:[0-9A-Fa-f]{1,2}(?:\\.[0-7])?): (GPU has fallen off the bus\\.?)\\s*$");
    /** {@code 2026-12-02T07:37:45.123456+00:00 host kernel: } or {@code 1759600000.5 host kernel: }. */
    private static final Pattern JOURNAL_PREFIX = Pattern.compile(
            "^(\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(?:[.,]\\d{1,9})?(?:Z|[+-]\\d\\d:?\\d\\d))\\s+\\S+\\s+kernel:\\s"
                    + "|^(\\d{9,11}(?:\\.\\d{1,9})?)\\s+\\S+\\s+kernel:\\s");

    private static final Pattern DMESG_STAMP = Pattern.compile("^\\[\\s*(\\d+\\.\\d+)\\]\\s");
    /**
     * Stamps that keep a line the same when it is posted again but do not date it (no year or no zone): syslog's and
     * {@code journalctl}'s default {@code May 27 16:50:10 host kernel: } (in any locale's month abbreviation) and
     * {@code dmesg -T}'s {@code [Fri Aug 30 11:43:09 2024]} (local time).
     */
    private static final Pattern UNDATED_STAMP =
            Pattern.compile("^\\p{L}{3,4}\\.? {1,2}\\d{1,2} \\d\\d:\\d\\d:\\d\\d(?:\\.\\d{1,9})?\\s+\\S+\\s+kernel:\\s"
                    + "|^\\[\\p{L}{3} \\p{L}{3} {1,2}\\d{1,2} \\d\\d:\\d\\d:\\d\\d \\d{4}\\]\\s");
    /**
     * {@code dmesg --time-format iso}, with {@code -x}'s facility and level before it:
     * {@code syslog:err   : 2025-05-27T04:18:56,089671+00:00 }.
     */
    private static final Pattern DMESG_ISO = Pattern.compile(
            "^(?:[a-z]+\\s*:\\s*[a-z]+\\s*:\\s*)?(\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(?:[.,]\\d{1,9})?(?:Z|[+-]\\d\\d:?\\d\\d))\\s");

    private static final Pattern PID_NAME = Pattern.compile("^(?:pid=[^,]*,\\s*)?(?:name=[^,]*,\\s*)?");
    private static final int MAX_MESSAGE = 256;
    private static final int MAX_XID = 100_000;

    private final PciBusIds gpus;
    private final TranslatorStats stats = new TranslatorStats("kernel-log");

    public KernelLogTranslator(PciBusIds gpus) {
        this.gpus = Objects.requireNonNull(gpus, "gpus");
    }

    public TranslatorStats stats() {
        return stats;
    }

    /** Whether {@code node} can be an event subject. */
    public static boolean validNode(String node) {
        return node != null && NODE_NAME.matcher(node).matches();
    }

    /**
     * Translates line {@code position} of a batch received at {@code receivedAt} from {@code node}.
     */
    public Translation line(String node, String line, int position, Instant receivedAt) {
        return stats.record(translate(node, line, position, 0, receivedAt));
    }

    /**
     * @param occurrence  how many lines of the same batch before this one read exactly the same (0 for the first): a
     *                    stamp of whole seconds can repeat with the line, and each repeat is its own event
     */
    private Translation translate(String node, String line, int position, int occurrence, Instant receivedAt) {
        if (!validNode(node)) {
            return Translation.rejected(INVALID_NODE_NAME, "node name is not a valid subject");
        }
        String text = line.strip();
        Instant time = receivedAt;
        boolean stamped = false;
        Matcher prefix = JOURNAL_PREFIX.matcher(text);
        Matcher dmesgIso = DMESG_ISO.matcher(text);
        if (prefix.find()) {
            Instant t = prefix.group(1) != null ? iso(prefix.group(1)) : unix(prefix.group(2));
            if (t != null) {
                time = t;
                stamped = true;
            }
        } else if (dmesgIso.find()) {
            Instant t = iso(dmesgIso.group(1));
            if (t != null) {
                time = t;
                stamped = true;
            }
        } else if (DMESG_STAMP.matcher(text).find()
                || UNDATED_STAMP.matcher(text).find()) {
            stamped = true; // seconds since boot, or a time without year or zone: stable across a repost, but no date
        }
        String address;
        int xid;
        String message;
        Matcher m = XID.matcher(text);
        if (m.find()) {
            address = m.group(1);
            try {
                xid = Integer.parseInt(m.group(2));
            } catch (NumberFormatException e) {
                xid = -1;
            }
            message = m.group(3) == null
                    ? ""
                    : PID_NAME.matcher(m.group(3).strip()).replaceFirst("");
        } else {
            Matcher f = FALLEN_OFF.matcher(text);
            if (!f.find()) {
                return Translation.rejected(NOT_AN_XID_LINE, "not an NVRM Xid line: " + abbreviate(text, 120));
            }
            address = f.group(1);
            xid = 79;
            message = f.group(2);
        }
        if (xid < 1 || xid > MAX_XID) {
            return Translation.rejected(INVALID_XID, "XID " + xid + " is outside 1.." + MAX_XID);
        }
        PciBusIds.Gpu gpu = gpus.find(node, address);
        if (gpu == null) {
            return Translation.rejected(
                    UNKNOWN_PCI_BUS_ID,
                    "no dcgm-exporter series of node " + node + " has named PCI address " + address
                            + " yet, so its GPU is not known");
        }
        String key = !stamped
                ? node + '\n' + receivedAt.toEpochMilli() + '\n' + position + '\n' + text
                : occurrence == 0 ? node + '\n' + text : node + '\n' + text + "\n#" + occurrence;
        String id = "kernel-log/" + UUID.nameUUIDFromBytes(key.getBytes(StandardCharsets.UTF_8));
        GpuData.Xid data = new GpuData.Xid(
                gpu.uuid(), gpu.index(), xid, message.isEmpty() ? null : abbreviate(message, MAX_MESSAGE));
        return Translation.of(List.of(new Event(id, "kernel-log/" + node, EventType.GPU_XID, node, time, data)));
    }

    private static Instant iso(String s) {
        String t = s.replace(',', '.');
        if (t.matches(".*[+-]\\d{4}$")) {
            t = t.substring(0, t.length() - 2) + ":" + t.substring(t.length() - 2);
        }
        return Rfc3339.parseOrNull(t);
    }

    private static Instant unix(String s) {
        try {
            int dot = s.indexOf('.');
            long seconds = Long.parseLong(dot < 0 ? s : s.substring(0, dot));
            long nanos = 0;
            if (dot >= 0) {
                String frac = (s.substring(dot + 1) + "000000000").substring(0, 9);
                nanos = Long.parseLong(frac);
            }
            return Instant.ofEpochSecond(seconds, nanos);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String abbreviate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 3) + "...";
    }

    /**
     * Translates the lines of one batch, one translation per line in the same order (blank lines: nothing). The driver's
     * three-line report of a GPU gone from the bus ({@code NVRM: The NVIDIA GPU 0000:b3:00.0}, then {@code ... installed
     * in this system has}, then {@code NVRM: fallen off the bus and is not responding to commands.}) is one XID 79,
     * made at its first line; the lines that continue it are nothing. A first line whose report does not end within
     * {@value #FALLEN_OFF_SPAN} lines is refused like any other line.
     */
    public List<Translation> lines(String node, List<String> lines, Instant receivedAt) {
        List<Translation> out = new ArrayList<>(lines.size());
        Map<String, Integer> seen = new HashMap<>();
        int continued = -1;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank() || i <= continued) {
                out.add(Translation.empty());
                continue;
            }
            int occurrence = seen.merge(line.strip(), 1, Integer::sum) - 1;
            int end = fallenOffEnd(lines, i);
            if (end > i) {
                out.add(stats.record(fallenOff(node, lines.get(i), i, occurrence, receivedAt)));
                continued = end;
            } else {
                out.add(stats.record(translate(node, line, i, occurrence, receivedAt)));
            }
        }
        return out;
    }

    /** The index of the line that ends a three-line report starting at {@code first}, or -1. */
    private static int fallenOffEnd(List<String> lines, int first) {
        if (!FALLEN_OFF_FIRST.matcher(lines.get(first)).find()) {
            return -1;
        }
        for (int j = first + 1; j < lines.size() && j <= first + FALLEN_OFF_SPAN; j++) {
            String l = lines.get(j);
            if (!l.contains("NVRM:")) {
                return -1;
            }
            if (l.contains(FALLEN_OFF_LAST)) {
                return j;
            }
        }
        return -1;
    }

    /** The three-line report as the single fallen-off-the-bus line it stands for, stamped by its first line. */
    private Translation fallenOff(String node, String firstLine, int position, int occurrence, Instant receivedAt) {
        String first = firstLine.strip();
        Matcher m = FALLEN_OFF_FIRST.matcher(first);
        m.find();
        String stamp = first.substring(0, m.start());
        return translate(
                node,
                stamp + "NVRM: GPU " + m.group(1) + ": GPU has fallen off the bus.",
                position,
                occurrence,
                receivedAt);
    }

    /** All lines of a body, in order (a trailing empty line is not a line). */
    public static List<String> lines(String body) {
        List<String> out = new ArrayList<>();
        for (String l : body.split("\r?\n", -1)) {
            out.add(l);
        }
        while (!out.isEmpty() && out.get(out.size() - 1).isBlank()) {
            out.remove(out.size() - 1);
        }
        return out;
    }
}
