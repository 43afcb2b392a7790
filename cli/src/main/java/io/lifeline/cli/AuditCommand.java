package io.lifeline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code audit}: who asked for what and why, every step and state change (newest first). */
@Command(
        name = "audit",
        description = "The audit log of actions, their steps and policy changes, newest first "
                + "(--security: token creation and revocation, admins only).")
final class AuditCommand extends Base {

    @Option(names = "--actor", paramLabel = "WHO")
    String actor;

    @Option(names = "--what", paramLabel = "WHAT", description = "e.g. action.requested, action.step, policy.updated.")
    String what;

    @Option(names = "--target", paramLabel = "TARGET")
    String target;

    @Option(names = "--action", paramLabel = "ACTION", description = "Only the records of one action.")
    String actionId;

    @Option(names = "--since", paramLabel = "DURATION")
    String since;

    @Option(names = "--limit", defaultValue = "100", description = "At most N (default: ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--security", description = "The security audit instead (tokens created and revoked).")
    boolean security;

    @Override
    int run() {
        Out out = out();
        if (security) {
            List<JsonNode> items = Base.items(
                    api().get(Api.query(Api.path("security", "audit"), Api.params("limit", limit))), "records");
            GetCommand.print(
                    out,
                    items,
                    "audit",
                    "seq",
                    t -> t.column("time")
                            .flexible("actor")
                            .column("action")
                            .column("token")
                            .flexible("detail"),
                    (t, r) -> t.row(
                            out.time(Json.text(r, "time")),
                            Json.text(r, "actor"),
                            Json.text(r, "action"),
                            Formats.or(Json.text(r, "tokenId")),
                            Formats.or(Json.text(r, "detail"))));
            return Exit.OK;
        }
        String from = since == null
                ? null
                : Instant.now().minus(Times.parseDuration(since)).toString();
        List<JsonNode> items = new ArrayList<>();
        String cursor = null;
        String before = null;
        do {
            JsonNode page = api().get(Api.query(
                    Api.path("audit"),
                    Api.params(
                            "actor",
                            actor,
                            "what",
                            what,
                            "target",
                            target,
                            "actionId",
                            actionId,
                            "from",
                            from,
                            "limit",
                            Math.min(1000, Math.max(1, limit - items.size())),
                            "cursor",
                            cursor,
                            "before",
                            before)));
            items.addAll(Base.items(page, "items"));
            // A server of an earlier release answers only nextBeforeSeq, for before=.
            cursor = Json.text(page, "nextCursor");
            before = cursor == null ? Json.text(page, "nextBeforeSeq") : null;
        } while ((cursor != null || before != null) && items.size() < limit);
        boolean wide = out.wide();
        GetCommand.print(
                out,
                items,
                "audit",
                "seq",
                t -> {
                    t.column("time")
                            .flexible("actor")
                            .column("what")
                            .flexible("target")
                            .column("action")
                            .flexible("change")
                            .flexible("reason");
                    if (wide) {
                        t.number("seq");
                    }
                },
                (t, r) -> {
                    String change = Json.text(r, "before") == null && Json.text(r, "after") == null
                            ? "-"
                            : Formats.or(Json.text(r, "before")) + " -> " + Formats.or(Json.text(r, "after"));
                    t.row(
                            out.time(Json.text(r, "time")),
                            Json.text(r, "actor"),
                            Json.text(r, "what"),
                            Formats.or(Json.text(r, "target")),
                            Formats.or(Json.text(r, "actionId")),
                            change,
                            Formats.or(Json.text(r, "reason")),
                            Json.text(r, "seq"));
                });
        return Exit.OK;
    }
}
