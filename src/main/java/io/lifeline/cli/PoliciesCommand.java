package io.lifeline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code policies get|set}: the automation policies (off, dry-run, on; per-namespace and per-pool overrides). */
@Command(name = "policies", aliases = {"policy"}, description = "Read or change the automation policies.",
        subcommands = {PoliciesCommand.Get.class, PoliciesCommand.Set.class})
final class PoliciesCommand extends Base {

    @Override
    int run() {
        throw CliException.usage("policies what? get or set");
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
        GetCommand.print(out, items, "policy", "name", t -> t.column("name").column("mode", false, false, out::state)
                .flexible("overrides").flexible("description"),
            (t, p) -> t.row(Json.text(p, "name"), Json.text(p, "mode"), overrides(p.get("overrides")),
                    Formats.or(Json.text(p, "description"))));
    }

    /** {@code policies get}. */
    @Command(name = "get", aliases = {"list"}, description = "List the policies, or show one.")
    static final class Get extends Base {
        @Parameters(arity = "0..1", paramLabel = "POLICY", description = "notice-checkpoint-drain, fatal-xid-drain, "
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
        @Option(names = "--override", paramLabel = "SCOPE=MODE", description = "namespace:<ns>=MODE or pool:<pool>=MODE; "
                + "repeatable.")
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
                    throw CliException.usage("--override: expected SCOPE=MODE such as namespace:team-a=dry-run, got '" + a + "'");
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
