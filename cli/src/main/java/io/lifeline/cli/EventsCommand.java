package io.lifeline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code events tail} (follow the event log) and {@code events list} (a page of it). */
@Command(
        name = "events",
        description = "Read the event log: follow it (tail) or list a page of it.",
        subcommands = {EventsCommand.Tail.class, EventsCommand.ListCmd.class})
final class EventsCommand extends Base {

    @Override
    int run() {
        throw CliException.usage("events what? tail or list");
    }

    /** Options of both. */
    abstract static class Filter extends Base {
        @Option(names = "--subject", paramLabel = "SUBJECT", description = "A node, or a job as namespace/name.")
        String subject;

        @Option(names = "--type", paramLabel = "TYPE", description = "An event type, e.g. node.interruption_notice.")
        String type;

        void print(Out out, JsonNode e) {
            switch (out.format()) {
                case JSON -> out.line(Json.compact(e));
                case YAML -> out.line("---\n" + Json.toYaml(e).stripTrailing());
                case NAME -> out.line("event/" + Json.text(e, "seq"));
                default -> out.line(line(out, e, out.wide()));
            }
        }

        static String line(Out out, JsonNode e, boolean wide) {
            JsonNode data = e.get("data");
            String d = data == null || data.isNull() ? "" : Json.compact(data);
            int room = out.term().columns() == 0 || wide
                    ? Integer.MAX_VALUE
                    : Math.max(20, out.term().columns() - 70);
            return pad(out.preciseTime(Json.text(e, "time")), 12) + "  " + pad(Json.text(e, "type"), 28) + "  "
                    + pad(Formats.or(Json.text(e, "subject")), 28) + "  " + (wide ? Json.text(e, "source") + "  " : "")
                    + Table.cut(d, room);
        }

        private static String pad(String s, int w) {
            String v = s == null ? "-" : s;
            return v.length() >= w ? v : v + " ".repeat(w - v.length());
        }
    }

    /** {@code events tail}. */
    @Command(
            name = "tail",
            description = "Print the newest events, then follow the log as events arrive (Ctrl-C stops). "
                    + "With -o json: one JSON object a line.")
    static final class Tail extends Filter {
        @Option(
                names = {"-l", "--lines"},
                paramLabel = "N",
                defaultValue = "10",
                description = "How many of the newest events to print first (default: ${DEFAULT-VALUE}).")
        int lines;

        @Option(names = "--no-follow", description = "Print the newest events and stop.")
        boolean noFollow;

        @Option(names = "--count", paramLabel = "N", description = "Stop after N new events.")
        Integer count;

        @Option(
                names = "--interval",
                paramLabel = "DURATION",
                defaultValue = "1s",
                description = "How often to ask for new events (default: ${DEFAULT-VALUE}).")
        String interval;

        /** Events may arrive a little out of time order: each poll looks back this far and skips what it showed. */
        private static final Duration LOOK_BACK = Duration.ofSeconds(10);

        @Override
        int run() {
            Out out = out();
            Set<Long> seen = Collections.newSetFromMap(new java.util.LinkedHashMap<>() {
                private static final long serialVersionUID = 1L;

                @Override
                protected boolean removeEldestEntry(java.util.Map.Entry<Long, Boolean> eldest) {
                    return size() > 50_000;
                }
            });
            Instant newest = Instant.now();
            if (lines > 0) {
                JsonNode page = api().get(Api.query(
                        Api.path("events"),
                        Api.params("subject", subject, "type", type, "order", "desc", "limit", Math.min(1000, lines))));
                List<JsonNode> backlog = new ArrayList<>(Base.items(page, "events"));
                Collections.reverse(backlog);
                for (JsonNode e : backlog) {
                    seen.add(e.path("seq").asLong());
                    print(out, e);
                    newest = max(newest, Times.parse(Json.text(e, "time")));
                }
            }
            if (noFollow) {
                return Exit.OK;
            }
            long every = Math.max(100, Times.parseDuration(interval).toMillis());
            int shown = 0;
            while (count == null || shown < count) {
                sleep(every);
                String cursor = null;
                Instant from = newest.minus(LOOK_BACK);
                do {
                    JsonNode page = api().get(Api.query(
                            Api.path("events"),
                            Api.params(
                                    "subject",
                                    subject,
                                    "type",
                                    type,
                                    "from",
                                    from.toString(),
                                    "order",
                                    "asc",
                                    "limit",
                                    1000,
                                    "cursor",
                                    cursor)));
                    for (JsonNode e : Base.items(page, "events")) {
                        if (seen.add(e.path("seq").asLong()) && (count == null || shown < count)) {
                            print(out, e);
                            shown++;
                        }
                        newest = max(newest, Times.parse(Json.text(e, "time")));
                    }
                    cursor = Json.text(page, "nextCursor");
                } while (cursor != null);
            }
            return Exit.OK;
        }

        private static Instant max(Instant a, Instant b) {
            return b != null && b.isAfter(a) ? b : a;
        }

        private static void sleep(long ms) {
            try {
                Thread.sleep(ms);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CliException(Exit.OK, "interrupted");
            }
        }
    }

    /** {@code events list}. */
    @Command(name = "list", description = "List stored events (oldest first, or newest first with --desc).")
    static final class ListCmd extends Filter {
        @Option(names = "--since", paramLabel = "DURATION", description = "Only the last DURATION (e.g. 30m).")
        String since;

        @Option(names = "--limit", defaultValue = "100", description = "At most N (default: ${DEFAULT-VALUE}).")
        int limit;

        @Option(names = "--desc", description = "Newest first.")
        boolean desc;

        @Override
        int run() {
            String from = since == null
                    ? null
                    : Instant.now().minus(Times.parseDuration(since)).toString();
            List<JsonNode> items = new ArrayList<>();
            String cursor = null;
            do {
                JsonNode page = api().get(Api.query(
                        Api.path("events"),
                        Api.params(
                                "subject",
                                subject,
                                "type",
                                type,
                                "from",
                                from,
                                "order",
                                desc ? "desc" : "asc",
                                "limit",
                                Math.min(1000, Math.max(1, limit - items.size())),
                                "cursor",
                                cursor)));
                items.addAll(Base.items(page, "events"));
                cursor = Json.text(page, "nextCursor");
            } while (cursor != null && items.size() < limit);
            Out out = out();
            if (out.structured()) {
                out.document(Out.list(items));
                return Exit.OK;
            }
            GetCommand.print(
                    out,
                    items,
                    "event",
                    "seq",
                    t -> t.number("seq")
                            .column("time")
                            .column("type")
                            .flexible("subject")
                            .flexible("data"),
                    (t, e) -> t.row(
                            Json.text(e, "seq"),
                            out.time(Json.text(e, "time")),
                            Json.text(e, "type"),
                            Formats.or(Json.text(e, "subject")),
                            e.get("data") == null ? "" : Json.compact(e.get("data"))));
            return Exit.OK;
        }
    }
}
