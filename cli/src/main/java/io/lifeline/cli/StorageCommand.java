package io.lifeline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code storage [TARGET]}: the checkpoint storage targets the jobs write to, with the bytes kept, the write bandwidth
 * seen, the free space and the time until full; with a target, its jobs too.
 */
@Command(
        name = "storage",
        description = "Checkpoint storage targets: bytes kept, write bandwidth (median, slowest tenth), free space, "
                + "time until full at the current write rate; with TARGET, also the jobs writing there.")
final class StorageCommand extends Base {

    @Parameters(paramLabel = "TARGET", arity = "0..1", description = "a target as listed, e.g. /fsx or s3://bucket")
    String target;

    @Override
    int run() {
        Out out = out();
        if (target == null) {
            JsonNode all = api().get("/api/v1/storage");
            if (out.structured()) {
                out.document(all);
                return Exit.OK;
            }
            List<JsonNode> rows = new ArrayList<>();
            if (all != null && all.isArray()) {
                all.forEach(rows::add);
            }
            Table t = new Table()
                    .column("TARGET")
                    .number("JOBS")
                    .number("KEPT")
                    .number("WRITE MEDIAN")
                    .number("P10")
                    .number("FREE")
                    .number("GROWTH/H")
                    .column("FULL IN");
            for (JsonNode v : rows) {
                t.row(
                        Table.printable(Formats.or(Json.text(v, "target"))),
                        Formats.num(v, "jobs"),
                        bytes(v, "keptBytes"),
                        rate(v, "bandwidthMedian"),
                        rate(v, "bandwidthP10"),
                        bytes(v, "freeBytes"),
                        bytes(v, "netBytesPerHour"),
                        Times.seconds(
                                v.hasNonNull("secondsUntilFull")
                                        ? v.get("secondsUntilFull").asDouble()
                                        : null));
            }
            out.table(
                    t, "No storage target known yet: the trainers report none (uri on trainer.checkpoint.completed).");
            return Exit.OK;
        }
        JsonNode v = api().get("/api/v1/storage/" + URLEncoder.encode(target, StandardCharsets.UTF_8));
        if (out.structured()) {
            out.document(v);
            return Exit.OK;
        }
        Describer d = new Describer(out, 0);
        d.field("Target", Formats.or(Json.text(v, "target")));
        d.field("Kept", bytes(v, "keptBytes") + " in " + Formats.num(v, "keptCheckpoints") + " checkpoints");
        d.field(
                "Write bandwidth",
                rate(v, "bandwidthMedian") + " median, " + rate(v, "bandwidthP10") + " slowest tenth ("
                        + Formats.num(v, "bandwidthSamples") + " saves)");
        d.field(
                "Free",
                bytes(v, "freeBytes")
                        + (v.hasNonNull("capacityBytes") ? " of " + bytes(v, "capacityBytes") : "")
                        + (v.hasNonNull("freeReportedAt")
                                ? " (read " + out.time(Json.text(v, "freeReportedAt")) + ")"
                                : ""));
        d.field("Growth", bytes(v, "netBytesPerHour") + " per hour, net of retention");
        d.field(
                "Full in",
                Times.seconds(
                        v.hasNonNull("secondsUntilFull")
                                ? v.get("secondsUntilFull").asDouble()
                                : null));
        d.field("Largest recent", bytes(v, "largestRecentBytes"));
        Table t = new Table()
                .column("  JOB")
                .number("KEPT")
                .number("SIZE")
                .column("EVERY")
                .number("WRITE")
                .number("GROWTH/H")
                .column("WRITING");
        for (JsonNode w : Base.items(v, "writers")) {
            t.row(
                    "  " + Table.printable(Formats.or(Json.text(w, "job"))),
                    bytes(w, "keptBytes"),
                    bytes(w, "bytesPerCheckpoint"),
                    Times.seconds(
                            w.hasNonNull("intervalSeconds")
                                    ? w.get("intervalSeconds").asDouble()
                                    : null),
                    rate(w, "bandwidthMedian"),
                    bytes(w, "netBytesPerHour"),
                    w.path("writing").asBoolean() ? "yes" : "no");
        }
        out.line("Jobs:");
        out.table(t, "  none");
        return Exit.OK;
    }

    /** Bytes in binary units, "-" when absent. */
    static String bytes(JsonNode n, String field) {
        if (n == null || !n.hasNonNull(field)) {
            return "-";
        }
        double v = n.get(field).asDouble();
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
        int u = 0;
        while (Math.abs(v) >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
    }

    static String rate(JsonNode n, String field) {
        String b = bytes(n, field);
        return b.equals("-") ? b : b + "/s";
    }
}
