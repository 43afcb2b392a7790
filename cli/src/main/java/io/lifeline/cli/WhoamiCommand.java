package io.lifeline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;

/** {@code whoami}: what the token in use is allowed. */
@Command(name = "whoami", description = "Show the token in use: its name, role and namespaces, and the server.")
final class WhoamiCommand extends Base {

    @Override
    int run() {
        JsonNode w = api().get(Api.path("whoami"));
        Out out = out();
        if (out.structured()) {
            out.document(w);
            return Exit.OK;
        }
        Describer d = new Describer(out, 0);
        d.field("Server", api().server());
        d.field(
                "Context",
                cli().settings().context() == null ? "(none)" : cli().settings().context().name);
        d.field("Name", Formats.or(Json.text(w, "name")));
        d.field("Token id", Formats.or(Json.text(w, "tokenId")));
        d.field("Role", Formats.or(Json.text(w, "role")));
        d.field("Namespaces", w.path("fleetWide").asBoolean() ? "all (fleet-wide)" : Formats.list(w.get("namespaces")));
        return Exit.OK;
    }
}
