package io.lifeline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code objectives [NAME]} and {@code objectives set FILE}: the goodput objectives with their error budgets (a table,
 * or one objective in detail with what spent its budget), and replacing the whole set (fleet-wide admins).
 */
@Command(
        name = "objectives",
        aliases = {"objective", "slo"},
        description = "The goodput objectives: state, ETTR against the target, error budget left in GPU-hours, burn "
                + "rates and time to exhaustion; NAME shows one with its budget spent by cause and phase.",
        subcommands = {ObjectivesCommand.Set.class})
final class ObjectivesCommand extends Base {

    @Parameters(arity = "0..1", paramLabel = "NAME", description = "an objective's name: show it in detail")
    String name;

    @Override
    int run() {
        Out out = out();
        if (name != null) {
            JsonNode o = api().get(Api.path("objectives", name));
            if (out.structured()) {
                out.document(o);
            } else {
                describe(out, o);
            }
            return Exit.OK;
        }
        JsonNode page = api().get(Api.path("objectives"));
        if (out.structured()) {
            out.document(page);
        } else {
            table(out, page);
        }
        return Exit.OK;
    }

    /** One row per objective, then the thresholds the burn-rate alerts use. */
    static void table(Out out, JsonNode page) {
        Table t = new Table()
                .column("name")
                .column("scope")
                .column("state", false, false, s -> state(out, s))
                .column("ettr/target")
                .number("budget left")
                .number("left")
                .number("burn 1h")
                .number("burn 6h")
                .column("exhaustion");
        for (JsonNode o : Base.items(page, "objectives")) {
            t.row(
                    Json.text(o, "name"),
                    Json.text(o, "scope"),
                    Formats.or(Json.text(o, "state")),
                    Formats.percent(o, "ettr") + "/" + Formats.percent(o, "ettrTarget"),
                    gpuHours(o, "remainingGpuHours"),
                    Formats.percent(o, "remainingShare"),
                    rate(o.path("burnRates"), "1h"),
                    rate(o.path("burnRates"), "6h"),
                    exhaustion(o));
        }
        out.table(t, "No objective is set (lifeline.objectives.* or lifelinectl objectives set FILE).");
        if (page.has("fastBurn") && !Base.items(page, "objectives").isEmpty()) {
            out.note("Burn alerts: fast at " + Formats.num(page, "fastBurn") + "x (1h and 5m), slow at "
                    + Formats.num(page, "slowBurn") + "x (6h and 30m); set by " + Formats.or(Json.text(page, "source"))
                    + ".");
        }
    }

    /** One objective with its budget, burn rates, and the GPU-hours spent by cause and by phase. */
    static void describe(Out out, JsonNode o) {
        Describer d = new Describer(out, 0);
        d.field("Name", Json.text(o, "name"));
        d.field("Scope", Json.text(o, "scope"));
        d.field(
                "Objective",
                "ETTR >= " + Formats.percent(o, "ettrTarget") + " over " + Formats.or(Json.text(o, "window")));
        if (Json.has(o, "lostGpuHoursLimit")) {
            d.field("Loss limit", gpuHours(o, "lostGpuHoursLimit") + " GPU-h per window");
        }
        if (Json.has(o, "moneyLimit")) {
            d.field("Money limit", Formats.hours(o, "moneyLimit") + " per window");
        }
        d.field("State", state(out, Json.text(o, "state")));
        d.field("Sampled", out.time(Json.text(o, "sampledAt")));
        d.field("Jobs", Formats.num(o, "jobs"));
        d.field("ETTR", Formats.percent(o, "ettr"));
        d.field(
                "GPU-hours held",
                gpuHours(o, "heldGpuHours") + " (productive " + gpuHours(o, "productiveGpuHours") + ")");
        d.field(
                "Budget",
                gpuHours(o, "budgetGpuHours") + " GPU-h, spent " + gpuHours(o, "spentGpuHours") + ", left "
                        + gpuHours(o, "remainingGpuHours") + " (" + Formats.percent(o, "remainingShare") + ")");
        if (Json.has(o, "budgetMoney")) {
            d.field(
                    "Budget priced",
                    Formats.hours(o, "budgetMoney") + ", spent " + Formats.hours(o, "spentMoney") + ", left "
                            + Formats.hours(o, "remainingMoney") + " (" + Formats.percent(o, "pricedShare")
                            + " of the time priced)");
        }
        d.field(
                "Lost to interruptions",
                gpuHours(o, "lostGpuHours") + " GPU-h"
                        + (Json.has(o, "lostMoney") ? " (" + Formats.hours(o, "lostMoney") + ")" : ""));
        if (Json.has(o, "lostLimitRemainingGpuHours")) {
            d.field("Loss limit left", gpuHours(o, "lostLimitRemainingGpuHours") + " GPU-h");
        }
        if (Json.has(o, "moneyLimitRemaining")) {
            d.field("Money limit left", Formats.hours(o, "moneyLimitRemaining"));
        }
        JsonNode burn = o.path("burnRates");
        d.field(
                "Burn rates",
                "5m " + rate(burn, "5m") + ", 30m " + rate(burn, "30m") + ", 1h " + rate(burn, "1h") + ", 6h "
                        + rate(burn, "6h"));
        d.field(
                "Burning",
                o.path("fastBurn").asBoolean()
                        ? out.term().red("fast (1h and 5m)")
                        : o.path("slowBurn").asBoolean() ? out.term().yellow("slow (6h and 30m)") : "no");
        d.field("Exhaustion", exhaustion(o));
        breakdown(out, "Spent by cause", o.get("spentByCause"));
        breakdown(out, "Spent by phase", o.get("spentByPhase"));
        List<JsonNode> jobs = Base.items(o, "jobNames");
        if (!jobs.isEmpty()) {
            out.line("Jobs in scope:");
            jobs.forEach(j -> out.line("  " + Table.printable(j.asText())));
        }
    }

    private static void breakdown(Out out, String title, JsonNode map) {
        out.line(title + ":");
        List<Map.Entry<String, JsonNode>> entries = new ArrayList<>();
        if (map != null && map.isObject()) {
            map.properties().forEach(e -> {
                if (e.getValue().asDouble() > 0) {
                    entries.add(e);
                }
            });
        }
        if (entries.isEmpty()) {
            out.line("  nothing");
            return;
        }
        entries.sort(Comparator.comparingDouble(
                        (Map.Entry<String, JsonNode> e) -> -e.getValue().asDouble())
                .thenComparing(Map.Entry::getKey));
        Describer d = new Describer(out, 2);
        for (Map.Entry<String, JsonNode> e : entries) {
            d.field(Formats.wire(e.getKey()), Formats.fixed(e.getValue().asDouble(), 2) + " GPU-h");
        }
    }

    static String gpuHours(JsonNode o, String field) {
        JsonNode v = o == null ? null : o.get(field);
        if (v == null || v.isNull() || !v.isNumber()) {
            return "-";
        }
        double h = v.asDouble();
        return Formats.fixed(h, Math.abs(h) < 100 ? 2 : 0);
    }

    static String rate(JsonNode burn, String window) {
        JsonNode v = burn == null ? null : burn.get(window);
        return v == null || v.isNull() || !v.isNumber() ? "-" : Formats.fixed(v.asDouble(), 1) + "x";
    }

    /** "spent", "in 3.2h", "in 2.5d", "-" when the budget is not being spent. */
    static String exhaustion(JsonNode o) {
        JsonNode v = o.get("hoursToExhaustion");
        if (v == null || v.isNull()) {
            return "-";
        }
        double h = v.asDouble();
        if (h <= 0) {
            return "spent";
        }
        return h < 48 ? "in " + Formats.fixed(h, 1) + "h" : "in " + Formats.fixed(h / 24, 1) + "d";
    }

    /** Met in green, burning in yellow, exhausted in red. */
    static String state(Out out, String s) {
        if (s == null) {
            return "-";
        }
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "met" -> out.term().green(s);
            case "burning" -> out.term().yellow(s);
            case "exhausted" -> out.term().red(s);
            default -> s;
        };
    }

    /** {@code objectives set FILE}. */
    @Command(
            name = "set",
            description = "Replace the whole set of objectives with those of FILE (fleet-wide admins): "
                    + "{\"objectives\":[{\"name\",\"scope\",\"ettrTarget\",\"window\",\"lostGpuHoursLimit\","
                    + "\"moneyLimit\"}]}; an empty list removes them all. Audited.")
    static final class Set extends Base {
        @Parameters(paramLabel = "FILE", description = "a JSON file, or - for standard input")
        String file;

        @Override
        int run() {
            ObjectNode body = read(file, term());
            JsonNode page;
            try {
                page = api().put(Api.path("objectives"), body).body();
            } catch (ApiException e) {
                if (e.status() == 400) {
                    Out err = out().toErr();
                    err.line("The server refused the objectives; nothing changed:");
                    reasons(e).forEach(r -> err.line("  - " + Table.printable(r)));
                }
                throw e;
            }
            Out out = out();
            if (out.structured()) {
                out.document(page);
            } else {
                table(out, page);
            }
            return Exit.OK;
        }

        /** Each reason of a 400: the problem's errors, their reasons split at "; " (one per objective and field). */
        static List<String> reasons(ApiException e) {
            List<String> out = new ArrayList<>();
            JsonNode p = e.problem();
            for (JsonNode err : Base.items(p, "errors")) {
                String field = Json.text(err, "field");
                for (String r : Formats.or(Json.text(err, "reason")).split("; ")) {
                    out.add(r.startsWith("objectives[") || field == null ? r : field + ": " + r);
                }
            }
            if (out.isEmpty() && e.detail() != null) {
                out.addAll(List.of(e.detail().split("; ")));
            }
            return out;
        }

        /** Reads the set and checks its shape (the server checks the values): an object with an array. */
        static ObjectNode read(String file, Terminal term) {
            String text;
            try {
                text = "-".equals(file)
                        ? new String(term.in().readAllBytes(), StandardCharsets.UTF_8)
                        : Files.readString(Path.of(file), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw CliException.usage("cannot read " + file + ": " + e.getMessage());
            }
            JsonNode doc;
            try {
                doc = Json.MAPPER.readTree(text);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw CliException.usage(file + " is not JSON: " + e.getOriginalMessage());
            }
            if (doc != null && doc.isArray()) {
                ObjectNode wrapped = Json.object();
                wrapped.set("objectives", doc);
                doc = wrapped;
            }
            if (doc == null || !doc.isObject() || !doc.path("objectives").isArray()) {
                throw CliException.usage(file + ": expected {\"objectives\": [...]} (an empty list removes them all)");
            }
            List<String> problems = new ArrayList<>();
            ArrayNode list = (ArrayNode) doc.get("objectives");
            for (int i = 0; i < list.size(); i++) {
                JsonNode o = list.get(i);
                String at = "objectives[" + i + "]";
                if (!o.isObject()) {
                    problems.add(at + ": an object");
                    continue;
                }
                if (!o.path("name").isTextual()) {
                    problems.add(at + ".name: required, a text");
                }
                if (!o.path("scope").isTextual() || !o.path("scope").asText().contains(":")) {
                    problems.add(at + ".scope: required, kind:value (namespace:research, job:ns/name, owner:x, "
                            + "pool:y)");
                }
                JsonNode target = o.get("ettrTarget");
                if (target == null || !target.isNumber() || !(target.asDouble() > 0 && target.asDouble() < 1)) {
                    problems.add(at + ".ettrTarget: required, a ratio between 0 and 1 (0.95 for 95 %)");
                }
            }
            if (!problems.isEmpty()) {
                throw CliException.usage(file + ": " + String.join("; ", problems));
            }
            return (ObjectNode) doc;
        }
    }
}
