package io.lifeline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code timeline}, {@code goodput}, {@code freshness}, {@code advice}: what Lifeline knows of jobs, as text. */
final class JobCommands {

    private JobCommands() {}

    /** {@code timeline JOB}. */
    @Command(
            name = "timeline",
            description = "A job's interruption timeline as text: events, state changes, incidents "
                    + "and their phases, checkpoints, world size.")
    static final class Timeline extends Base {
        @Parameters(paramLabel = "JOB")
        String name;

        @Option(names = "--since", paramLabel = "DURATION", description = "Only the last DURATION (e.g. 2h).")
        String since;

        @Option(
                names = "--limit",
                defaultValue = "200",
                description = "Show at most the last N lines (default: ${DEFAULT-VALUE}).")
        int limit;

        @Option(names = "--full", description = "Every line: do not fold repeated lines (eight ranks failing at once).")
        boolean full;

        @Override
        int run() {
            String job = job(name);
            String from = since == null
                    ? null
                    : Instant.now().minus(Times.parseDuration(since)).toString();
            List<JsonNode> entries = new ArrayList<>();
            ArrayNode incidents = Json.array();
            List<String> seen = new ArrayList<>();
            String cursor = null;
            int pages = 0;
            do {
                JsonNode page = api().get(Api.query(
                        Jobs.path(job, "timeline"), Api.params("from", from, "cursor", cursor, "limit", 1000)));
                entries.addAll(Base.items(page, "entries"));
                for (JsonNode i : Base.items(page, "incidents")) {
                    if (!seen.contains(Json.text(i, "id"))) {
                        seen.add(Json.text(i, "id"));
                        incidents.add(i);
                    }
                }
                cursor = Json.text(page, "nextCursor");
            } while (cursor != null && ++pages < 20);
            JsonNode world = api().get(Jobs.path(job, "membership")).get("worldSizeSeries");
            boolean cut = entries.size() > limit;
            List<JsonNode> shown = cut ? entries.subList(entries.size() - limit, entries.size()) : entries;
            Out out = out();
            if (out.structured()) {
                ObjectNode doc = Json.object();
                doc.put("job", job);
                ArrayNode e = doc.putArray("entries");
                shown.forEach(e::add);
                doc.set("incidents", incidents);
                doc.set("worldSizeSeries", world == null ? Json.array() : world);
                out.document(doc);
                return Exit.OK;
            }
            print(out, job, shown, incidents, world, full);
            if (cut) {
                out.note("(the last " + limit + " of " + entries.size() + " lines: see more with --limit or --since)");
            }
            return Exit.OK;
        }

        static void print(
                Out out, String job, List<JsonNode> entries, JsonNode incidents, JsonNode world, boolean full) {
            out.line(out.term().bold("Timeline of " + job));
            Table t = new Table()
                    .column("time")
                    .number("world")
                    .column("incident")
                    .flexible("what");
            int i = 0;
            while (i < entries.size()) {
                JsonNode e = entries.get(i);
                int same = full ? 0 : repeats(entries, i);
                String incident = Json.text(e, "incidentId");
                String what =
                        marker(e) + Json.text(e, "summary") + (same > 0 ? "  (+" + same + " more like this)" : "");
                t.row(
                        out.preciseTime(Json.text(e, "time")),
                        worldAt(world, Json.text(e, "time")),
                        incident == null ? "" : incident.substring(incident.lastIndexOf('#')),
                        what);
                i += same + 1;
            }
            out.table(t);
            if (incidents == null || incidents.isEmpty()) {
                out.line("No incidents.");
                return;
            }
            out.line("");
            out.line(out.term().bold("Incidents"));
            for (JsonNode inc : incidents) {
                out.line(Json.text(inc, "id") + "  " + Formats.wire(Json.text(inc, "cause")) + ", "
                        + out.state(Formats.wire(Json.text(inc, "outcome"))) + "; opened "
                        + out.time(Json.text(inc, "openedAt"))
                        + ", downtime " + Formats.millis(inc, "downtimeMillis") + ", lost "
                        + Formats.hours(inc, "lostGpuHours")
                        + " GPU-h, world " + Formats.num(inc, "worldSizeBefore") + " -> "
                        + Formats.num(inc, "worldSizeAfter"));
                out.line("    " + Formats.or(Json.text(inc, "causeDetail")));
                if (Json.has(inc, "restoredCheckpoint")) {
                    out.line("    restored from " + Json.text(inc, "restoredCheckpoint") + " (step "
                            + Formats.num(inc, "restoredStep") + "), rework lost "
                            + Formats.millis(inc, "lostReworkMillis"));
                }
                Table p = new Table()
                        .column("    phase")
                        .column("time")
                        .column("node")
                        .flexible("detail");
                List<JsonNode> phases = Base.items(inc, "phases");
                int k = 0;
                while (k < phases.size()) {
                    JsonNode ph = phases.get(k);
                    int same = full ? 0 : samePhase(phases, k);
                    p.row(
                            "    " + Formats.wire(Json.text(ph, "phase")),
                            out.preciseTime(Json.text(ph, "time")),
                            Formats.or(Json.text(ph, "node")),
                            Formats.or(Json.text(ph, "detail")) + (same > 0 ? "  (+" + same + " more like this)" : ""));
                    k += same + 1;
                }
                out.table(p, "    no phases");
            }
        }

        /** How many lines after {@code i} repeat it (same type and incident, within a second): they are folded. */
        private static int repeats(List<JsonNode> entries, int i) {
            JsonNode e = entries.get(i);
            Instant t = Times.parse(Json.text(e, "time"));
            int n = 0;
            for (int j = i + 1; j < entries.size(); j++) {
                JsonNode o = entries.get(j);
                Instant ot = Times.parse(Json.text(o, "time"));
                if (!"event".equals(Formats.wire(Json.text(e, "kind")))
                        || !String.valueOf(Json.text(e, "type")).equals(Json.text(o, "type"))
                        || !String.valueOf(Json.text(e, "incidentId"))
                                .equals(String.valueOf(Json.text(o, "incidentId")))
                        || t == null
                        || ot == null
                        || Math.abs(ot.toEpochMilli() - t.toEpochMilli()) > 1000) {
                    break;
                }
                n++;
            }
            return n;
        }

        private static int samePhase(List<JsonNode> phases, int k) {
            int n = 0;
            for (int j = k + 1; j < phases.size(); j++) {
                if (!String.valueOf(Json.text(phases.get(k), "phase")).equals(Json.text(phases.get(j), "phase"))
                        || !String.valueOf(Json.text(phases.get(k), "time")).equals(Json.text(phases.get(j), "time"))) {
                    break;
                }
                n++;
            }
            return n;
        }

        private static String marker(JsonNode e) {
            // A server of an earlier release answers INCIDENT_OPENED, this one incident-opened.
            String kind = Formats.wire(Json.text(e, "kind"));
            String type = String.valueOf(Json.text(e, "type"));
            if (kind.equals("incident-opened")) {
                return "[!] ";
            }
            if (kind.equals("incident-closed")) {
                return "[ok] ";
            }
            if (type.startsWith("trainer.checkpoint.")) {
                return "[ckpt] ";
            }
            if (kind.equals("transition")) {
                return "[state] ";
            }
            return "";
        }

        /** The world size in force at {@code time}: the last point of the series at or before it. */
        static String worldAt(JsonNode series, String time) {
            Instant t = Times.parse(time);
            String w = "-";
            if (series == null || t == null) {
                return w;
            }
            for (JsonNode p : series) {
                Instant pt = Times.parse(Json.text(p, "time"));
                if (pt != null && !pt.isAfter(t)) {
                    w = Formats.num(p, "worldSize");
                }
            }
            return w;
        }
    }

    /** {@code goodput [JOB]}. */
    @Command(
            name = "goodput",
            description = "Goodput: a job's time buckets and ETTR, or the fleet's rolled up by pool, "
                    + "capacity type or namespace.")
    static final class Goodput extends Base {
        @Parameters(arity = "0..1", paramLabel = "JOB")
        String name;

        @Option(
                names = "--by",
                paramLabel = "DIMENSION",
                description = "fleet (default), pool, capacity-type or namespace.")
        String by;

        @Override
        int run() {
            Out out = out();
            if (name != null) {
                String job = job(name);
                JsonNode g = api().get(Jobs.path(job, "goodput"));
                if (out.structured()) {
                    out.document(g);
                } else {
                    out.line("Job: " + job);
                    DescribeCommand.JobCmd.goodput(out, g);
                }
                return Exit.OK;
            }
            JsonNode rows = api().get(Api.query(Api.path("goodput"), Api.params("by", by)));
            List<JsonNode> items = new ArrayList<>();
            String ns = "namespace".equalsIgnoreCase(by) ? cli().namespaceScope() : null;
            for (JsonNode r : rows) {
                if (ns == null || ns.equals(Json.text(r, "key"))) {
                    items.add(r);
                }
            }
            if (out.names()) {
                items.forEach(r -> out.line(Formats.wire(Json.text(r, "dimension")) + "/" + Json.text(r, "key")));
                return Exit.OK;
            }
            GetCommand.print(
                    out,
                    items,
                    "goodput",
                    "key",
                    t -> t.flexible(by == null ? "fleet" : by)
                            .number("jobs")
                            .number("ettr")
                            .number("productive")
                            .number("recovery")
                            .number("rework")
                            .number("checkpoint")
                            .number("startup")
                            .number("lost gpu-h")
                            .number("held gpu-h")
                            .number("interruptions")
                            .number("mtbi/node"),
                    (t, r) -> {
                        JsonNode g = r.get("goodput");
                        t.row(
                                Json.text(r, "key"),
                                Formats.num(r, "jobs"),
                                Formats.percent(g, "ettr"),
                                Formats.millis(g, "productiveMillis"),
                                Formats.millis(g, "recoveryMillis"),
                                Formats.millis(g, "lostReworkMillis"),
                                Formats.millis(g, "checkpointMillis"),
                                Formats.millis(g, "startupMillis"),
                                Formats.hours(g, "lostGpuHours"),
                                Formats.hours(g, "heldGpuHours"),
                                Formats.num(r, "interruptions"),
                                Times.seconds(
                                        r.hasNonNull("mtbiPerNodeSeconds")
                                                ? r.get("mtbiPerNodeSeconds").asDouble()
                                                : null));
                    });
            return Exit.OK;
        }
    }

    /** {@code freshness [JOB]}. */
    @Command(
            name = "freshness",
            description = "Checkpoint freshness: the newest good checkpoint's age against the "
                    + "objective, and the work at risk; of one job or of every job in scope.")
    static final class Freshness extends Base {
        @Parameters(arity = "0..1", paramLabel = "JOB")
        String name;

        @Option(names = "--breached", description = "Only jobs past their objective.")
        boolean breached;

        @Override
        int run() {
            Out out = out();
            if (name != null) {
                String job = job(name);
                JsonNode f = api().get(Jobs.path(job, "freshness"));
                if (out.structured()) {
                    out.document(f);
                } else {
                    out.line("Job: " + job);
                    DescribeCommand.JobCmd.freshness(out, f, null);
                }
                return Exit.OK;
            }
            List<JsonNode> items = new ArrayList<>();
            for (JsonNode j : Jobs.all(api(), cli().namespaceScope(), null, breached ? Boolean.TRUE : null)) {
                ObjectNode f = (ObjectNode)
                        api().get(Jobs.path(Json.text(j, "name"), "freshness")).deepCopy();
                f.put("job", Json.text(j, "name"));
                items.add(f);
            }
            GetCommand.print(
                    out,
                    items,
                    "job",
                    "job",
                    t -> t.flexible("job")
                            .flexible("newest checkpoint")
                            .number("step")
                            .number("age")
                            .number("objective")
                            .column("status", false, false, out::state)
                            .number("at risk gpu-h")
                            .number("steps since"),
                    (t, f) -> t.row(
                            Json.text(f, "job"),
                            Formats.or(Json.text(f, "checkpointId")),
                            Formats.num(f, "step"),
                            Formats.millis(f, "ageMillis"),
                            Formats.millis(f, "objectiveMillis"),
                            f.path("breached").asBoolean() ? "breached" : "ok",
                            Formats.hours(f, "workAtRiskGpuHours"),
                            Formats.num(f, "stepsSince")));
            return Exit.OK;
        }
    }

    /** {@code advice JOB}. */
    @Command(name = "advice", description = "Checkpoint-interval advice for a job (Young/Daly), with every input.")
    static final class Advice extends Base {
        @Parameters(paramLabel = "JOB")
        String name;

        @Override
        int run() {
            String job = job(name);
            JsonNode a = api().get(Jobs.path(job, "advice"));
            Out out = out();
            if (out.structured()) {
                out.document(a);
                return Exit.OK;
            }
            Describer d = new Describer(out, 0);
            d.field("Job", job);
            d.field(
                    "Current interval",
                    seconds(a, "currentIntervalSeconds") + " (" + Formats.or(Json.text(a, "intervalSource")) + ")");
            d.field(
                    "Recommended interval",
                    out.term().bold(seconds(a, "recommendedSeconds")) + " (" + Formats.or(Json.text(a, "formula"))
                            + (a.path("dalyValid").asBoolean()
                                    ? ""
                                    : "; C is not small against M: first-order formulas are rough")
                            + ")");
            d.field(
                    "Expected ETTR",
                    Formats.percent(a, "expectedEttrCurrent") + " now, " + Formats.percent(a, "expectedEttrRecommended")
                            + " at the recommended interval");
            JsonNode o = a.get("objective");
            if (o != null && o.isObject()) {
                d.field("Objective", objective(o));
            }
            out.line("Inputs:");
            Describer in = new Describer(out, 2);
            in.field(
                    "Checkpoint cost C",
                    seconds(a, "checkpointCostSeconds") + " (" + Formats.num(a, "costSamples") + " saves)");
            in.field(
                    "MTBI per node",
                    seconds(a, "perNodeMtbiSeconds") + " (" + Formats.num(a, "interruptionsObserved")
                            + " interruptions in " + Formats.hours(a, "exposureNodeHours") + " node-hours, pools "
                            + Formats.list(a.get("pools")) + ")");
            in.field("MTBI of the job M", seconds(a, "mtbiSeconds") + " (" + Formats.num(a, "nodes") + " nodes)");
            in.field("Recovery R", seconds(a, "recoverySeconds"));
            in.field("Young sqrt(2CM)", seconds(a, "youngSeconds"));
            in.field("Daly sqrt(2CM) - C", seconds(a, "dalySeconds"));
            in.field("Model", Formats.or(Json.text(a, "model")));
            for (JsonNode f : Base.items(a, "storage")) {
                out.line("Storage " + Table.printable(Formats.or(Json.text(f, "target"))) + ":");
                Describer sd = new Describer(out, 2);
                sd.field(
                        "Bandwidth shown",
                        StorageCommand.rate(f, "bandwidthBytesPerSecond") + " (median of its recent saves)");
                sd.field(
                        "Needed",
                        StorageCommand.rate(f, "requiredBytesPerSecond") + " at every "
                                + seconds(f, "intervalSeconds") + ", with " + Formats.num(f, "otherJobs")
                                + " other job(s) writing " + StorageCommand.rate(f, "othersBytesPerSecond"));
                sd.field(
                        "Sustains",
                        (f.path("feasible").asBoolean() ? "yes" : out.term().red("no"))
                                + "; shortest interval it sustains "
                                + (f.hasNonNull("sustainableSeconds")
                                        ? seconds(f, "sustainableSeconds")
                                        : "none while the other jobs write"));
            }
            JsonNode notes = a.get("notes");
            if (notes != null && !notes.isEmpty()) {
                out.line("Notes:");
                notes.forEach(n -> out.line("  - " + n.asText()));
            }
            return Exit.OK;
        }

        private static String seconds(JsonNode a, String field) {
            return Times.seconds(a.hasNonNull(field) ? a.get(field).asDouble() : null);
        }

        /** Which intervals keep the job inside its ETTR objective, and whether the current and advised ones do. */
        private static String objective(JsonNode o) {
            String head = "ETTR >= " + Formats.percent(o, "ettrTarget") + ": ";
            JsonNode reachable = o.get("reachable");
            if (reachable == null || !reachable.isBoolean()) {
                return head + "unknown until C and M are measured";
            }
            String meets = "current " + meets(o, "currentMeets") + ", recommended " + meets(o, "recommendedMeets");
            return reachable.asBoolean()
                    ? head + "intervals " + seconds(o, "lowestSeconds") + " to " + seconds(o, "highestSeconds")
                            + " keep the job inside it (" + meets + ")"
                    : head + "no interval keeps the job inside it; best " + Formats.percent(o, "bestEttr") + " at "
                            + seconds(o, "bestSeconds") + " (" + meets + ")";
        }

        private static String meets(JsonNode o, String field) {
            JsonNode v = o.get(field);
            return v == null || !v.isBoolean() ? "unknown" : v.asBoolean() ? "meets it" : "short of it";
        }
    }
}
