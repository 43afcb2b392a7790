package io.lifeline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code policies get|set|brake}: the automation policies (off, dry-run, on; per-namespace and per-pool overrides) and
 * the automation brake that bounds the nodes they take.
 */
@Command(
        name = "policies",
        aliases = {"policy"},
        description = "Read or change the automation policies.",
        subcommands = {PoliciesCommand.Get.class, PoliciesCommand.Set.class, PoliciesCommand.Brake.class})
final class PoliciesCommand extends Base {

    @Override
    int run() {
        throw CliException.usage("policies what? get, set or brake");
    }

    /** The brake as people read it. */
    static void brake(Out out, JsonNode b) {
        Terminal t = out.term();
        Describer d = new Describer(out, 0);
        JsonNode trip = b.get("trip");
        String state = !b.path("enabled").asBoolean(true)
                ? "off"
                : b.path("engaged").asBoolean() ? t.red("engaged") : "released";
        d.field("Automation brake", state);
        if (trip != null && !trip.isNull()) {
            d.field(
                    "Engaged",
                    out.time(Json.text(trip, "at")) + " by " + Json.text(trip, "policy") + "'s drain of "
                            + Json.text(trip, "node")
                            + (trip.hasNonNull("pool") ? " (pool " + Json.text(trip, "pool") + ")" : ""));
            d.field("Why", Json.text(trip, "reason"));
            d.field("Decisions held", Formats.num(b, "held"));
        }
        JsonNode s = b.path("settings");
        d.field(
                "Bounds",
                "at most " + Formats.num(s, "fleetNodes") + " nodes fleet-wide and "
                        + Math.round(s.path("poolShare").asDouble() * 100) + " % of a pool (at least "
                        + Formats.num(s, "poolMinNodes") + ") within "
                        + Times.age(java.time.Duration.ofSeconds(
                                s.path("windowSeconds").asLong())));
        d.field(
                "Taken in the window",
                Formats.num(b.path("fleet"), "taken") + " of " + Formats.num(b.path("fleet"), "bound") + " fleet-wide");
        for (JsonNode p : b.path("pools")) {
            d.field(
                    "  pool " + Json.text(p, "pool"),
                    Formats.num(p, "taken") + " of " + Formats.num(p, "bound") + " (" + Formats.num(p, "liveNodes")
                            + " live nodes)");
        }
        JsonNode r = b.get("lastReset");
        if (r != null && !r.isNull()) {
            d.field(
                    "Last reset",
                    out.time(Json.text(r, "at")) + " by " + Json.text(r, "by")
                            + (r.hasNonNull("reason") ? ": " + Json.text(r, "reason") : ""));
        }
    }

    /** {@code policies brake}. */
    @Command(
            name = "brake",
            description = "Show the automation brake: how many nodes the policies took within its "
                    + "window, and whether it holds their drains.",
            subcommands = {PoliciesCommand.BrakeReset.class})
    static final class Brake extends Base {
        @Override
        int run() {
            JsonNode b = api().get(Api.path("policies", "brake"));
            Out out = out();
            if (out.structured()) {
                out.document(b);
            } else {
                brake(out, b);
            }
            return Exit.OK;
        }
    }

    /** {@code policies brake reset}. */
    @Command(
            name = "reset",
            description = "Release the automation brake (fleet-wide operators): the policies may "
                    + "drain again, counted afresh. Audited.")
    static final class BrakeReset extends Base {
        @Option(
                names = "--reason",
                paramLabel = "TEXT",
                description = "Why it is safe to let the policies drain again " + "(kept in the audit).")
        String reason;

        @Override
        int run() {
            ObjectNode body = Json.object();
            if (reason != null) {
                body.put("reason", reason);
            }
            JsonNode b = api().post(Api.path("policies", "brake", "reset"), body, null)
                    .body();
            Out out = out();
            if (out.structured()) {
                out.document(b);
            } else {
                brake(out, b);
            }
            return Exit.OK;
        }
    }

    static String overrides(JsonNode o) {
        if (o == null || !o.isObject() || o.isEmpty()) {
            return "-";
        }
        List<String> l = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : o.properties()) {
            l.add(e.getKey() + "=" + e.getValue().asText());
        }
        return String.join(", ", l);
    }

    static void table(Out out, List<JsonNode> items) {
        GetCommand.print(
                out,
                items,
                "policy",
                "name",
                t -> t.column("name")
                        .column("mode", false, false, out::state)
                        .flexible("overrides")
                        .flexible("description"),
                (t, p) -> t.row(
                        Json.text(p, "name"),
                        Json.text(p, "mode"),
                        overrides(p.get("overrides")),
                        Formats.or(Json.text(p, "description"))));
    }

    /** {@code policies get}. */
    @Command(
            name = "get",
            aliases = {"list"},
            description = "List the policies, or show one.")
    static final class Get extends Base {
        @Parameters(
                arity = "0..1",
                paramLabel = "POLICY",
                description = "notice-checkpoint-drain, fatal-xid-drain, "
                        + "capacity-grow, stale-checkpoint, restart-loop-suspend, colocation")
        String name;

        @Override
        int run() {
            Out out = out();
            if (name != null) {
                JsonNode p = api().get(Api.path("policies", name));
                if (out.structured()) {
                    out.document(p);
                } else {
                    table(out, List.of(p));
                }
                return Exit.OK;
            }
            List<JsonNode> items = new ArrayList<>();
            api().get(Api.path("policies")).forEach(items::add);
            table(out, items);
            return Exit.OK;
        }
    }

    /** {@code policies set}. */
    @Command(name = "set", description = "Change a policy's mode and overrides (admins). Overrides not named are kept.")
    static final class Set extends Base {
        @Parameters(paramLabel = "POLICY")
        String name;

        @Option(names = "--mode", paramLabel = "MODE", description = "off, dry-run or on (default: unchanged).")
        String mode;

        @Option(
                names = "--override",
                paramLabel = "SCOPE=MODE",
                description = "namespace:<ns>=MODE or pool:<pool>=MODE; " + "repeatable.")
        List<String> add = new ArrayList<>();

        @Option(names = "--remove-override", paramLabel = "SCOPE", description = "Drop an override; repeatable.")
        List<String> remove = new ArrayList<>();

        @Option(names = "--clear-overrides", description = "Drop every override first.")
        boolean clear;

        @Option(names = "--dry-run", description = "Show the policy as it would be; change nothing.")
        boolean dryRun;

        @Override
        int run() {
            JsonNode current = api().get(Api.path("policies", name));
            ObjectNode body = Json.object();
            body.put("mode", mode != null ? mode : Json.text(current, "mode"));
            ObjectNode o = body.putObject("overrides");
            if (!clear && current.get("overrides") != null) {
                current.get("overrides").properties().forEach(e -> o.set(e.getKey(), e.getValue()));
            }
            for (String r : remove) {
                o.remove(r);
            }
            for (String a : add) {
                int eq = a.lastIndexOf('=');
                if (eq <= 0 || eq == a.length() - 1) {
                    throw CliException.usage(
                            "--override: expected SCOPE=MODE such as namespace:team-a=dry-run, got '" + a + "'");
                }
                o.put(a.substring(0, eq), a.substring(eq + 1));
            }
            Out out = out();
            if (dryRun) {
                ObjectNode would = current.deepCopy();
                would.set("mode", body.get("mode"));
                would.set("overrides", o);
                if (out.structured()) {
                    out.document(would);
                } else {
                    out.line("Dry run (nothing was changed): " + name + " would be:");
                    table(out, List.of(would));
                }
                return Exit.OK;
            }
            JsonNode updated = api().put(Api.path("policies", name), body).body();
            if (out.structured()) {
                out.document(updated);
            } else {
                table(out, List.of(updated));
            }
            return Exit.OK;
        }
    }
}
