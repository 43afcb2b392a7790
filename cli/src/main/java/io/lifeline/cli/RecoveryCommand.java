package io.lifeline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code recovery JOB}: where a job's recovery ladder stands: its mode and rules, the two restart budgets, the newest
 * advice with its evidence and verdict, then every piece of advice, so an operator sees what recovery decided, on
 * what grounds, and whether it worked.
 */
@Command(
        name = "recovery",
        description = "A job's recovery: the ladder's mode and rules version, failures and planned interruptions "
                + "against their budgets, the current advice (remedy, node, rule, verdict, expected state, deadline, "
                + "outcome, evidence), then the advice history.")
final class RecoveryCommand extends Base {

    @Parameters(paramLabel = "JOB", description = "namespace/name, or name")
    String name;

    @Override
    int run() {
        String job = job(name);
        JsonNode v = api().get(Jobs.path(job, "recovery"));
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
        d.field("Mode", out.state(Json.text(v, "mode")));
        List<JsonNode> rules = Base.items(v, "rules");
        d.field("Rules", "version " + Formats.or(Json.text(v, "rulesVersion")) + " (" + rules.size() + " rules)");
        if (out.wide()) {
            for (JsonNode r : rules) {
                out.line("  - " + Table.printable(Formats.or(Json.text(r, "id"))) + ": "
                        + Formats.wire(Json.text(r, "remedy")) + " when "
                        + Table.printable(Formats.or(Json.text(r, "when"))));
            }
        }
        JsonNode b = v.get("budgets");
        d.field("Failures", budget(out, b, "failures", "failureBudget"));
        d.field("With notice or by plan", budget(out, b, "planned", "plannedBudget"));
        List<JsonNode> attempts = Base.items(v, "attempts");
        d.field("Attempts", attempts.size() + (attempts.isEmpty() ? "" : " (lifelinectl attempts " + job + ")"));
        JsonNode current = Json.node(v, "current");
        if (current == null) {
            d.field("Current advice", "none");
        } else {
            out.line("Current advice:");
            current(out, current);
        }
        out.line("Advice history:");
        Table t = new Table()
                .column("  decided")
                .column("incident")
                .number("rung")
                .column("remedy")
                .column("node")
                .column("rule")
                .column("mode")
                .column("verdict", false, false, s -> verdict(out, s))
                .flexible("outcome");
        for (JsonNode a : Base.items(v, "advice")) {
            t.row(
                    "  " + out.time(Json.text(a, "decidedAt")),
                    AttemptsCommand.incident(Json.text(a, "incident")),
                    Formats.num(a, "rung"),
                    Formats.wire(Json.text(a, "remedy")),
                    Formats.or(Json.text(a, "node")),
                    Formats.or(Json.text(a, "rule")),
                    Formats.or(Json.text(a, "mode")),
                    Formats.wire(Json.text(a, "verdict")),
                    Formats.or(Json.text(a, "outcome")));
        }
        out.table(t, "  none");
    }

    private static void current(Out out, JsonNode a) {
        Describer d = new Describer(out, 2);
        d.field("Incident", Table.printable(Formats.or(Json.text(a, "incident"))) + ", rung " + Formats.num(a, "rung"));
        String node = Json.text(a, "node");
        d.field(
                "Remedy",
                out.term().bold(Formats.wire(Json.text(a, "remedy")))
                        + (node == null ? "" : " (node " + Table.printable(node) + ")")
                        + ("dry-run".equals(Json.text(a, "mode")) ? "; dry run: recorded, nothing done" : ""));
        d.field(
                "Rule",
                Table.printable(Formats.or(Json.text(a, "rule"))) + " (rules version "
                        + Formats.or(Json.text(a, "rulesVersion")) + ")");
        d.field("Verdict", verdict(out, Formats.wire(Json.text(a, "verdict"))));
        d.field("Expected", Table.printable(Formats.or(Json.text(a, "expected"))));
        d.field("Decided", out.time(Json.text(a, "decidedAt")));
        d.field("Deadline", out.time(Json.text(a, "deadline")));
        d.field(
                "Outcome",
                Json.has(a, "outcome")
                        ? Table.printable(Json.text(a, "outcome")) + " (checked " + out.time(Json.text(a, "checkedAt"))
                                + ")"
                        : "-");
        List<JsonNode> evidence = Base.items(a, "evidence");
        if (!evidence.isEmpty()) {
            out.line("  Evidence:");
            evidence.forEach(e -> out.line("    - " + Table.printable(e.asText())));
        }
    }

    /** {@code 2 / 3}, {@code 5 / no limit}; past its budget, in red and said so. */
    static String budget(Out out, JsonNode b, String used, String allowed) {
        if (b == null || !Json.has(b, used)) {
            return "-";
        }
        String text = Formats.num(b, used) + " / " + (Json.has(b, allowed) ? Formats.num(b, allowed) : "no limit");
        // A budget counts restarts allowed (as torchrun's --max-restarts): it is spent only once it is passed.
        boolean spent =
                Json.has(b, allowed) && b.get(used).asLong() > b.get(allowed).asLong();
        return spent ? out.term().red(text + " (spent)") : text;
    }

    /** Pending in yellow, verified in green, failed in red. */
    private static String verdict(Out out, String s) {
        if (s == null) {
            return "-";
        }
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "verified" -> out.term().green(s);
            case "failed" -> out.term().red(s);
            case "pending" -> out.term().yellow(s);
            default -> s;
        };
    }
}
