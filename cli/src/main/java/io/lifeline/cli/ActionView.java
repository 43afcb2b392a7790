package io.lifeline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/** Actions and their dry-run impact, as text. */
final class ActionView {

    private ActionView() {}

    /** The impact of a dry run or of an action, indented two spaces. */
    static void impact(Out out, JsonNode impact) {
        if (impact == null || impact.isNull()) {
            out.line("  (no impact reported)");
            return;
        }
        Terminal t = out.term();
        Long age = impact.hasNonNull("newestCheckpointAgeSeconds")
                ? impact.get("newestCheckpointAgeSeconds").asLong()
                : null;
        Describer d = new Describer(out, 2);
        d.field("Jobs affected", Formats.list(impact.get("jobs")));
        d.field("Nodes", Formats.list(impact.get("nodes")));
        d.field("Ranks affected", Formats.num(impact, "ranksAffected"));
        d.field("GPU-hours at risk", Formats.fixed(impact.path("gpuHoursAtRisk").asDouble(), 3));
        d.field(
                "Newest checkpoint",
                age == null
                        ? (impact.path("jobs").isEmpty() ? "-" : "none complete for at least one job")
                        : Times.age(java.time.Duration.ofSeconds(age)) + " old");
        d.field("Time for a checkpoint", impact.path("deadlineAllowsCheckpoint").asBoolean() ? "yes" : t.red("no"));
        JsonNode w = impact.get("warnings");
        if (w != null && w.isArray() && !w.isEmpty()) {
            out.line("  Warnings:");
            for (JsonNode s : w) {
                out.line("    " + t.yellow("! " + s.asText()));
            }
        }
    }

    /** What a dry run says the automation brake would do with a policy's drain of the node; nothing for other kinds. */
    static void brake(Out out, JsonNode brake) {
        if (brake == null || brake.isNull()) {
            return;
        }
        Terminal t = out.term();
        String verdict = Json.text(brake, "verdict");
        String shown = "allowed".equals(verdict) || "already-counted".equals(verdict) ? verdict : t.red(verdict);
        new Describer(out, 2).field("Brake (policy drains)", shown + ": " + Formats.or(Json.text(brake, "reason")));
    }

    /** One action in full: what, who, why, its impact, its steps and outcome. */
    static void describe(Out out, JsonNode a) {
        Describer d = new Describer(out, 0);
        d.field("Action", Json.text(a, "id"));
        d.field("Kind", Json.text(a, "kind"));
        d.field("Target", Json.text(a, "target"));
        d.field("State", out.state(Json.text(a, "state")));
        d.field("Requested by", Formats.or(Json.text(a, "requestedBy")));
        d.field("Reason", Formats.or(Json.text(a, "reason")));
        d.field("Params", params(a.get("params")));
        d.field("Created", out.time(Json.text(a, "createdAt")));
        d.field("Updated", out.time(Json.text(a, "updatedAt")));
        d.field("Deadline", out.time(Json.text(a, "deadline")));
        out.line("Impact:");
        impact(out, a.get("impact"));
        out.line("Steps:");
        JsonNode steps = a.get("steps");
        if (steps == null || steps.isEmpty()) {
            out.line("  (none yet)");
        } else {
            for (JsonNode s : steps) {
                out.line("  " + step(out, s));
            }
        }
        d.field("Outcome", Formats.or(Json.text(a, "outcome")));
    }

    static String step(Out out, JsonNode s) {
        String detail = Json.text(s, "detail");
        String state = Formats.or(Json.text(s, "state"));
        String pad = " ".repeat(Math.max(1, 10 - state.length()));
        return Formats.num(s, "seq") + "  " + out.state(state) + pad + Json.text(s, "name")
                + (detail == null || detail.isBlank() ? "" : ": " + detail);
    }

    static String params(JsonNode p) {
        if (p == null || !p.isObject() || p.isEmpty()) {
            return "-";
        }
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, JsonNode> e : p.properties()) {
            if (b.length() > 0) {
                b.append(", ");
            }
            b.append(e.getKey()).append('=').append(e.getValue().asText());
        }
        return b.toString();
    }
}
