package io.lifeline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tokens create|list|revoke} (admins). */
@Command(
        name = "tokens",
        aliases = {"token"},
        description = "Create, list and revoke API tokens (admins).",
        subcommands = {TokensCommand.Create.class, TokensCommand.ListCmd.class, TokensCommand.Revoke.class})
final class TokensCommand extends Base {

    @Override
    int run() {
        throw CliException.usage("tokens what? create, list or revoke");
    }

    /** {@code tokens create}. */
    @Command(
            name = "create",
            description = "Create a token. Prints the token itself (shown this once) on standard output, "
                    + "its description on standard error.")
    static final class Create extends Base {
        @Option(names = "--name", required = true, paramLabel = "NAME", description = "Who or what uses it.")
        String name;

        @Option(
                names = "--role",
                required = true,
                paramLabel = "ROLE",
                description = "viewer, operator, admin or ingest.")
        String role;

        @Option(
                names = "--namespaces",
                split = ",",
                paramLabel = "NS",
                description = "Limit it to these namespaces " + "(comma-separated); default fleet-wide.")
        List<String> namespaces;

        @Option(names = "--expires-in", paramLabel = "DURATION", description = "e.g. 90d, 12h, P30D (default: never).")
        String expiresIn;

        @Option(
                names = "--nodes",
                split = ",",
                paramLabel = "NODE",
                description = "An ingest token for a node agent: it "
                        + "sends node and GPU events of these nodes only (comma-separated).")
        List<String> nodes;

        @Option(
                names = "--sources",
                split = ",",
                paramLabel = "SOURCE",
                description = "An ingest token for a connector: "
                        + "it sends events of these CloudEvents sources only (comma-separated).")
        List<String> sources;

        @Override
        int run() {
            ObjectNode body = Json.object();
            body.put("name", name);
            body.put("role", role);
            if (namespaces != null) {
                body.putArray("namespaces")
                        .addAll(namespaces.stream()
                                .map(n -> Json.MAPPER.getNodeFactory().textNode(n))
                                .toList());
            }
            if (nodes != null) {
                body.putArray("nodes")
                        .addAll(nodes.stream()
                                .map(n -> Json.MAPPER.getNodeFactory().textNode(n))
                                .toList());
            }
            if (sources != null) {
                body.putArray("sources")
                        .addAll(sources.stream()
                                .map(n -> Json.MAPPER.getNodeFactory().textNode(n))
                                .toList());
            }
            if (expiresIn != null) {
                body.put("expiresIn", Times.parseDuration(expiresIn).toString());
            }
            JsonNode t = api().post(Api.path("tokens"), body, null).body();
            Out out = out();
            if (out.structured()) {
                out.document(t);
                return Exit.OK;
            }
            if (out.names()) {
                out.line("token/" + Json.text(t, "id"));
                return Exit.OK;
            }
            out.note("Created token " + Json.text(t, "id") + " (" + Json.text(t, "name") + ", " + Json.text(t, "role")
                    + (t.path("namespaces").isEmpty()
                            ? ", fleet-wide"
                            : ", namespaces " + Formats.list(t.get("namespaces")))
                    + (Json.has(t, "nodes") ? ", nodes " + Formats.list(t.get("nodes")) : "")
                    + (Json.has(t, "sources") ? ", sources " + Formats.list(t.get("sources")) : "")
                    + ", expires " + (Json.has(t, "expiresAt") ? out.time(Json.text(t, "expiresAt")) : "never")
                    + "). It is shown only now: keep it safe.");
            out.line(Json.text(t, "token"));
            return Exit.OK;
        }
    }

    /** {@code tokens list}. */
    @Command(
            name = "list",
            aliases = {"get"},
            description = "List tokens (never their secrets), newest first.")
    static final class ListCmd extends Base {
        @Override
        int run() {
            List<JsonNode> items = Base.items(api().get(Api.path("tokens")), "tokens");
            Out out = out();
            boolean wide = out.wide();
            GetCommand.print(
                    out,
                    items,
                    "token",
                    "id",
                    t -> {
                        t.column("id")
                                .flexible("name")
                                .column("role")
                                .flexible("namespaces")
                                .column("status", false, false, out::state)
                                .column("created")
                                .column("expires")
                                .column("last used");
                        if (wide) {
                            t.flexible("created by").column("revoked").flexible("revoked by");
                        }
                    },
                    (t, k) -> t.row(
                            Json.text(k, "id"),
                            Json.text(k, "name"),
                            Json.text(k, "role"),
                            scope(k),
                            Json.text(k, "status"),
                            out.time(Json.text(k, "createdAt")),
                            Json.has(k, "expiresAt") ? out.time(Json.text(k, "expiresAt")) : "never",
                            out.time(Json.text(k, "lastUsedAt")),
                            Formats.or(Json.text(k, "createdBy")),
                            out.time(Json.text(k, "revokedAt")),
                            Formats.or(Json.text(k, "revokedBy"))));
            return Exit.OK;
        }
    }

    /** What a token is limited to, in its list's namespaces column: namespaces, nodes or sources, or all. */
    static String scope(JsonNode k) {
        if (Json.has(k, "nodes") || Json.has(k, "sources")) {
            return (Json.has(k, "nodes") ? "nodes " + Formats.list(k.get("nodes")) : "")
                    + (Json.has(k, "nodes") && Json.has(k, "sources") ? "; " : "")
                    + (Json.has(k, "sources") ? "sources " + Formats.list(k.get("sources")) : "");
        }
        return k.path("namespaces").isEmpty() ? "(all)" : Formats.list(k.get("namespaces"));
    }

    /** {@code tokens revoke}. */
    @Command(
            name = "revoke",
            description =
                    "Revoke tokens: they stop working at once on this replica, within seconds " + "on the others.")
    static final class Revoke extends Base {
        @Parameters(arity = "1..*", paramLabel = "TOKEN", description = "Token ids (the 12 characters after llt_).")
        List<String> ids = new ArrayList<>();

        @Option(
                names = {"-y", "--yes"},
                description = "Do not ask for confirmation.")
        boolean yes;

        @Option(names = "--dry-run", description = "Only show the tokens that would be revoked.")
        boolean dryRun;

        @Override
        int run() {
            Out out = out();
            List<JsonNode> found = new ArrayList<>();
            for (String id : ids) {
                found.add(api().get(Api.path("tokens", id)));
            }
            if (dryRun || !yes) {
                Out o = dryRun ? out : out.toErr();
                o.line(dryRun ? "Dry run: would revoke (nothing was changed):" : "Revoke:");
                for (JsonNode k : found) {
                    o.line("  " + Json.text(k, "id") + "  " + Json.text(k, "name") + " (" + Json.text(k, "role") + ", "
                            + Json.text(k, "status") + ")");
                }
                if (dryRun) {
                    return Exit.OK;
                }
                if (!term().confirm(
                                ids.size() == 1 ? "Revoke this token?" : "Revoke these " + ids.size() + " tokens?")) {
                    out.toErr().line("Not confirmed: nothing was done.");
                    return Exit.FAILED;
                }
            }
            for (String id : ids) {
                api().delete(Api.path("tokens", id));
                if (out.names()) {
                    out.line("token/" + id);
                } else {
                    out.line("token " + id + " revoked");
                }
            }
            return Exit.OK;
        }
    }
}
