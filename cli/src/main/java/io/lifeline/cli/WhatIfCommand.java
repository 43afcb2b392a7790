package io.lifeline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code whatif JOB}: a job's (or a trace's) interruptions replayed through the model at other checkpoint intervals,
 * with the notice policy off or on, through {@code POST /api/v1/whatif}; the rows side by side with what happened.
 */
@Command(
        name = "whatif",
        description = "Replay a job's interruptions (or a trace's, with --trace) at other checkpoint "
                + "intervals, with the notice policy off or on: ETTR, lost rework, recovery, GPU-hours lost and their cost, side "
                + "by side with what happened. Changes nothing.")
final class WhatIfCommand extends Base {

    /** The trace formats the server reads (docs/whatif.md). */
    static final List<String> FORMATS = List.of("philly-csv", "philly-json", "opt175b", "lifeline");

    @Parameters(
            arity = "0..1",
            paramLabel = "JOB",
            description = "The job (namespace/name, or name); with --trace, a job "
                    + "of the trace (default: the one with the most interruptions).")
    String name;

    @Option(
            names = {"-i", "--intervals"},
            split = ",",
            paramLabel = "DURATION",
            description = "Checkpoint intervals to try, e.g. 5m,15m,30m or 300,900 (seconds); default: the job's own.")
    List<String> intervals;

    @Option(
            names = "--notice",
            paramLabel = "off|on|both",
            defaultValue = "both",
            description = "The notice policy setting(s) to replay (default: ${DEFAULT-VALUE}).")
    String notice;

    @Option(names = "--no-advice", description = "Do not add the advised interval.")
    boolean noAdvice;

    @Option(
            names = "--checkpoint-cost",
            paramLabel = "DURATION",
            description = "C to assume (default: the job's measured one).")
    String checkpointCost;

    @Option(names = "--recovery", paramLabel = "DURATION", description = "Recovery per interruption to assume.")
    String recovery;

    @Option(names = "--notice-lead", paramLabel = "DURATION", description = "Lead of every notice to assume.")
    String noticeLead;

    @Option(
            names = "--capacity",
            split = ",",
            paramLabel = "TYPE",
            description = "Capacity types to try: spot, on-demand.")
    List<String> capacity;

    @Option(
            names = "--trace",
            paramLabel = "FILE",
            description = "Replay this trace file instead of a job of the server.")
    Path trace;

    @Option(
            names = "--format",
            paramLabel = "FORMAT",
            description = "The trace's format: philly-csv, philly-json, opt175b, "
                    + "lifeline (default: from the file's name).")
    String format;

    @Option(names = "--json", description = "The server's answer as JSON (same as -o json).")
    boolean json;

    @Override
    int run() {
        ObjectNode body = body();
        JsonNode r = api().compute(Api.path("whatif"), body);
        Out out = out();
        if (json && !out.structured()) {
            out.term().out().println(Json.pretty(r));
            out.term().out().flush();
            return Exit.OK;
        }
        if (out.structured()) {
            out.document(r);
            return Exit.OK;
        }
        print(out, r);
        return Exit.OK;
    }

    ObjectNode body() {
        ObjectNode body = Json.object();
        if (trace != null) {
            String f = format != null ? format.trim().toLowerCase(Locale.ROOT) : guess(trace);
            if (!FORMATS.contains(f)) {
                throw CliException.usage("--format: one of " + String.join(", ", FORMATS) + ", got '" + f + "'");
            }
            ObjectNode t = body.putObject("trace").put("format", f);
            try {
                t.put("content", Files.readString(trace, StandardCharsets.UTF_8));
            } catch (NoSuchFileException e) {
                throw CliException.usage("--trace: no file " + trace);
            } catch (IOException e) {
                throw CliException.usage("--trace: cannot read " + trace + ": " + e.getMessage());
            }
            if (name != null) {
                body.put("job", name);
            }
        } else {
            if (format != null) {
                throw CliException.usage("--format goes with --trace");
            }
            if (name == null) {
                throw CliException.usage("whatif what? a JOB (or --trace FILE)");
            }
            body.put("job", job(name));
        }
        if (intervals != null) {
            ArrayNode a = body.putArray("intervalsSeconds");
            intervals.stream().filter(s -> !s.isBlank()).forEach(s -> a.add(seconds("--intervals", s)));
        }
        ArrayNode n = body.putArray("noticePolicy");
        switch (notice.trim().toLowerCase(Locale.ROOT)) {
            case "off" -> n.add(false);
            case "on" -> n.add(true);
            case "both", "off,on", "on,off" -> n.add(false).add(true);
            default -> throw CliException.usage("--notice: off, on or both, got '" + notice + "'");
        }
        body.put("advice", !noAdvice);
        if (checkpointCost != null) {
            body.put("checkpointCostSeconds", seconds("--checkpoint-cost", checkpointCost));
        }
        if (recovery != null) {
            body.put("recoverySeconds", seconds("--recovery", recovery));
        }
        if (noticeLead != null) {
            body.put("noticeLeadSeconds", seconds("--notice-lead", noticeLead));
        }
        if (capacity != null) {
            ArrayNode c = body.putArray("capacity");
            capacity.forEach(s -> c.add(s.trim()));
        }
        return body;
    }

    /** The format a trace file's name suggests. */
    static String guess(Path file) {
        String n = file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (n.contains("opt") && n.endsWith(".csv")) {
            return "opt175b";
        }
        if (n.endsWith(".csv")) {
            return "philly-csv";
        }
        if (n.contains("philly") || n.contains("cluster_job_log")) {
            return "philly-json";
        }
        if (n.endsWith(".json") || n.endsWith(".jsonl") || n.endsWith(".ndjson")) {
            return "lifeline";
        }
        throw CliException.usage("--format: cannot tell the format of " + file.getFileName() + "; give one of "
                + String.join(", ", FORMATS));
    }

    private static double seconds(String option, String text) {
        double s;
        try {
            s = Times.parseDuration(text.trim()).toMillis() / 1000.0;
        } catch (RuntimeException e) {
            throw CliException.usage(option + ": a duration (300, 300s, 5m, 1h), got '" + text + "'");
        }
        if (s <= 0) {
            throw CliException.usage(option + ": must be above zero, got '" + text + "'");
        }
        return s;
    }

    /** The header lines, the table of rows, then the notes. */
    static void print(Out out, JsonNode r) {
        Describer d = new Describer(out, 0);
        d.field(
                "Job",
                Json.text(r, "job") + " (" + Formats.num(r, "gpus") + " GPUs on " + Formats.num(r, "nodes") + " nodes"
                        + (Json.text(r, "pool") == null ? "" : ", pool " + Json.text(r, "pool")) + ")");
        d.field("Window", out.time(Json.text(r, "start")) + " to " + out.time(Json.text(r, "end")));
        d.field("MTBI of the job", seconds(r, "mtbiSeconds"));
        d.field(
                "Interval",
                seconds(r, "currentIntervalSeconds") + " now, " + seconds(r, "advisedIntervalSeconds") + " advised");
        d.field("Replayed in", Formats.num(r, "elapsedMillis") + " ms");
        out.line("");
        Table t = new Table()
                .flexible("scenario")
                .number("ettr")
                .number("model")
                .number("of wall")
                .number("lost rework h")
                .number("recovery h")
                .number("GPU-h lost")
                .number("cost");
        for (JsonNode row : Base.items(r, "rows")) {
            t.row(
                    Json.text(row, "name"),
                    Formats.percent(row, "ettr"),
                    Formats.percent(row, "modelEttr"),
                    Formats.percent(row, "ettrOfWall"),
                    Formats.hours(row, "lostReworkHours"),
                    Formats.hours(row, "recoveryHours"),
                    Formats.hours(row, "lostGpuHours"),
                    Formats.hours(row, "lostCost"));
        }
        out.table(t);
        JsonNode notes = r.get("notes");
        if (notes != null && !notes.isEmpty()) {
            out.line("Notes:");
            notes.forEach(x -> out.line("  - " + x.asText()));
        }
    }

    private static String seconds(JsonNode a, String field) {
        return Times.seconds(a.hasNonNull(field) ? a.get(field).asDouble() : null);
    }
}
