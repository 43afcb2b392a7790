package io.lifeline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code attempts JOB}: each (re)start of a job and how it ended, one row each: what ended it, the steps it made,
 * whether its checkpoint advanced, and its first failed worker. Read together these tell a workload error (the same
 * failure at the same step, attempt after attempt) from bad luck.
 */
@Command(
        name = "attempts",
        description = "A job's attempts, oldest first: started, ended (or running), what ended it (cause and "
                + "incident), nodes, steps made, whether the checkpoint advanced, the first failed worker.")
final class AttemptsCommand extends Base {

    /** The longest error line shown in a table cell; -o wide shows it whole. */
    static final int SHORT_ERROR = 60;

    /** More nodes than this are counted rather than named; -o wide names them all. */
    private static final int NODES_NAMED = 2;

    @Parameters(paramLabel = "JOB", description = "namespace/name, or name")
    String name;

    @Override
    int run() {
        String job = job(name);
        List<JsonNode> attempts = new ArrayList<>();
        api().get(Jobs.path(job, "attempts")).forEach(attempts::add);
        Out out = out();
        GetCommand.print(out, attempts, "attempt", "number", t -> columns(out, t), (t, a) -> row(out, t, a));
        return Exit.OK;
    }

    private static void columns(Out out, Table t) {
        t.number("attempt")
                .column("started")
                .column(
                        "ended",
                        false,
                        false,
                        e -> "running".equals(e) ? out.term().green(e) : e)
                .column("ended by")
                .column("nodes")
                .column("steps")
                .column("ckpt advanced")
                .flexible("first failure");
        if (out.wide()) {
            t.flexible("detail");
        }
    }

    private static void row(Out out, Table t, JsonNode a) {
        boolean wide = out.wide();
        String ended = Json.has(a, "endedAt") ? out.time(Json.text(a, "endedAt")) : "running";
        List<String> cells = new ArrayList<>(List.of(
                Formats.num(a, "number"),
                out.time(Json.text(a, "startedAt")),
                ended,
                cause(Json.text(a, "endCause"), Json.text(a, "endedBy")),
                nodes(a.get("nodes"), wide),
                steps(a),
                advanced(a, wide),
                firstFailure(a, wide)));
        if (wide) {
            cells.add(Formats.or(Json.text(a, "endDetail")));
        }
        t.row(cells.toArray(String[]::new));
    }

    /** {@code software-error #4}: a cause and its incident, the incident by its number (the job is known). */
    static String cause(String cause, String incident) {
        if (cause == null && incident == null) {
            return "-";
        }
        String c = cause == null ? "" : Formats.wire(cause);
        return incident == null ? c : (c + " " + incident(incident)).trim();
    }

    /** An incident id ({@code vision/vit#4}) as {@code #4}; as it came when it has no number. */
    static String incident(String id) {
        if (id == null) {
            return "-";
        }
        int hash = id.lastIndexOf('#');
        return hash < 0 ? id : id.substring(hash);
    }

    static String nodes(JsonNode nodes, boolean all) {
        if (nodes == null || !nodes.isArray() || nodes.isEmpty()) {
            return "-";
        }
        if (!all && nodes.size() > NODES_NAMED) {
            return nodes.size() + " nodes";
        }
        return Formats.list(nodes).replace(", ", ",");
    }

    /** {@code 1000→1450 (+450)}: from the step it started at to the one it reached. */
    static String steps(JsonNode a) {
        if (!Json.has(a, "startStep") && !Json.has(a, "endStep")) {
            return "-";
        }
        String s = Formats.num(a, "startStep") + "→" + Formats.num(a, "endStep");
        if (Json.has(a, "stepsMade")) {
            long made = a.get("stepsMade").asLong();
            s += " (" + (made >= 0 ? "+" : "") + made + ")";
        }
        return s;
    }

    private static String advanced(JsonNode a, boolean wide) {
        String yes = Formats.yesNo(a, "checkpointAdvanced");
        if (!wide || (!Json.has(a, "checkpointStepAtStart") && !Json.has(a, "checkpointStepAtEnd"))) {
            return yes;
        }
        return yes + " (" + Formats.num(a, "checkpointStepAtStart") + "→" + Formats.num(a, "checkpointStepAtEnd") + ")";
    }

    /** The first failed worker, and how many more failed. */
    private static String firstFailure(JsonNode a, boolean wide) {
        List<JsonNode> failures = Base.items(a, "failures");
        if (failures.isEmpty()) {
            return "-";
        }
        String first = failure(failures.get(0), wide ? Integer.MAX_VALUE : SHORT_ERROR);
        return failures.size() == 1 ? first : first + " (+" + (failures.size() - 1) + " more)";
    }

    /**
     * {@code rank 3 on node-b, exit 1: RuntimeError: CUDA error: an illegal memory…}; a signal instead of the exit
     * code when one ended the worker, as that is what people recognise.
     */
    static String failure(JsonNode f, int longest) {
        StringBuilder b = new StringBuilder("rank ").append(Formats.num(f, "rank"));
        if (Json.has(f, "node")) {
            b.append(" on ").append(Json.text(f, "node"));
        }
        if (Json.has(f, "signal")) {
            b.append(", ").append(Json.text(f, "signal"));
        } else if (Json.has(f, "exitCode")) {
            b.append(", exit ").append(Formats.num(f, "exitCode"));
        }
        String type = Json.text(f, "errorType");
        String line = Json.text(f, "errorLine");
        if (type != null || line != null) {
            String error = type == null ? line : line == null ? type : type + ": " + line;
            b.append(": ").append(Table.cut(Table.printable(error), longest));
        }
        return b.toString();
    }
}
