package io.lifeline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code hang JOB}: the server's verdict on whether a job is hung now, with what it is based on: how long it has made
 * no progress against its threshold, the ranks suspected and why, the ranks gone silent, the evidence.
 */
@Command(
        name = "hang",
        description = "Whether a job is hung: its state, how long it has made no progress against its threshold "
                + "and the threshold's basis, the suspected ranks (node, GPU, why), silent ranks, the evidence.")
final class HangCommand extends Base {

    @Parameters(paramLabel = "JOB", description = "namespace/name, or name")
    String name;

    @Override
    int run() {
        String job = job(name);
        JsonNode v = api().get(Jobs.path(job, "hang"));
        Out out = out();
        if (out.structured()) {
            out.document(v);
        } else {
            print(out, job, v);
        }
        return Exit.OK;
    }

    static void print(Out out, String job, JsonNode v) {
        Describer d = new Describer(out, 0);
        d.field("Job", job);
        d.field("State", state(out, Json.text(v, "state")));
        String kind = Json.text(v, "kind");
        String phase = Json.text(v, "phase");
        if (kind != null || phase != null) {
            d.field(
                    "Kind",
                    Formats.or(kind)
                            + (phase == null || phase.equals(kind) ? "" : " (phase " + Table.printable(phase) + ")"));
        }
        d.field(
                "Stalled",
                seconds(v, "stalledSeconds") + " (threshold " + seconds(v, "thresholdSeconds")
                        + (Json.has(v, "basis") ? ": " + Table.printable(Json.text(v, "basis")) : "") + ")");
        d.field("Last progress", out.time(Json.text(v, "since")));
        d.field("Silent ranks", StacksCommand.ranks(v.get("silentRanks")));
        Table t = new Table()
                .number("  rank")
                .column("node")
                .column("gpu")
                .number("last step")
                .flexible("why");
        for (JsonNode s : Base.items(v, "suspects")) {
            t.row(
                    "  " + Formats.num(s, "rank"),
                    Formats.or(Json.text(s, "node")),
                    Formats.or(Json.text(s, "gpu")),
                    Formats.num(s, "lastStep"),
                    Formats.or(Json.text(s, "why")));
        }
        out.line("Suspects:");
        out.table(t, "  none");
        JsonNode evidence = v.get("evidence");
        if (evidence != null && evidence.isArray() && !evidence.isEmpty()) {
            out.line("Evidence:");
            evidence.forEach(e -> out.line("  - " + Table.printable(e.asText())));
        }
        if ("suspected".equals(Formats.wire(Json.text(v, "state")))) {
            out.note("See where the ranks are: lifelinectl stacks " + job + " --capture");
        }
    }

    /** Red for a suspected hang, green for none, as it came otherwise. */
    private static String state(Out out, String s) {
        if (s == null) {
            return "-";
        }
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "suspected" -> out.term().red(s);
            case "ok" -> out.term().green(s);
            default -> s;
        };
    }

    private static String seconds(JsonNode v, String field) {
        return Times.seconds(v.hasNonNull(field) ? v.get(field).asDouble() : null);
    }
}
