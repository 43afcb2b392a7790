package io.lifeline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code get jobs|nodes|gpus|actions|incidents|alerts}: lists as tables, or one by name. */
@Command(
        name = "get",
        description = "List jobs, nodes, GPUs, actions, incidents or alerts.",
        subcommands = {
            GetCommand.JobsCmd.class,
            GetCommand.NodesCmd.class,
            GetCommand.GpusCmd.class,
            GetCommand.ActionsCmd.class,
            GetCommand.IncidentsCmd.class,
            GetCommand.AlertsCmd.class
        })
final class GetCommand extends Base {

    @Override
    int run() {
        throw CliException.usage("get what? one of jobs, nodes, gpus, actions, incidents, alerts");
    }

    /** Prints items as the chosen format: a document, names, or the table {@code table} fills. */
    static void print(
            Out out,
            List<JsonNode> items,
            String kind,
            String nameField,
            java.util.function.Consumer<Table> table,
            java.util.function.BiConsumer<Table, JsonNode> row) {
        if (out.structured()) {
            out.document(Out.list(items));
            return;
        }
        if (out.names()) {
            items.forEach(i -> out.line(kind + "/" + Json.text(i, nameField)));
            return;
        }
        Table t = new Table();
        table.accept(t);
        items.forEach(i -> row.accept(t, i));
        out.table(t);
    }

    /** {@code get jobs}. */
    @Command(
            name = "jobs",
            aliases = {"job"},
            description =
                    "List jobs (or show one): state, world size, checkpoint age, " + "ETTR, restarts, open incident.")
    static final class JobsCmd extends Base {
        @Parameters(arity = "0..1", paramLabel = "JOB", description = "One job (namespace/name, or name).")
        String name;

        @Option(names = "--state", description = "pending, running, recovering, suspended, succeeded, failed...")
        String state;

        @Option(names = "--breached", description = "Only jobs past their checkpoint-freshness objective.")
        boolean breached;

        @Override
        int run() {
            List<JsonNode> items;
            if (name != null) {
                JsonNode detail = api().get(Jobs.path(job(name)));
                items = List.of(detail.get("summary"));
            } else {
                items = Jobs.all(api(), cli().namespaceScope(), state, breached ? Boolean.TRUE : null);
            }
            Out out = out();
            if (name != null && out.structured()) {
                out.document(items.get(0));
                return Exit.OK;
            }
            boolean wide = out.wide();
            print(
                    out,
                    items,
                    "job",
                    "name",
                    t -> {
                        t.flexible("name")
                                .column("state", false, false, out::state)
                                .number("world")
                                .number("gpus")
                                .number("ckpt age")
                                .number("ettr")
                                .number("restarts")
                                .flexible("incident")
                                .column("submitted");
                        if (wide) {
                            t.column("pool")
                                    .column("capacity")
                                    .number("nodes")
                                    .number("step")
                                    .column("last progress")
                                    .number("interruptions")
                                    .column("state since");
                        }
                    },
                    (t, j) -> {
                        String age = Formats.millis(j, "freshnessAgeMillis")
                                + (j.path("freshnessBreached").asBoolean() ? "!" : "");
                        List<String> v = new ArrayList<>(List.of(
                                Json.text(j, "name"),
                                Formats.wire(Json.text(j, "state")),
                                Formats.num(j, "worldSize"),
                                Formats.num(j, "gpusHeld"),
                                age,
                                Formats.percent(j, "ettr"),
                                restarts(j),
                                Formats.or(Json.text(j, "openIncident")),
                                out.time(Json.text(j, "submittedAt"))));
                        if (wide) {
                            v.addAll(List.of(
                                    Formats.or(Json.text(j, "pool")),
                                    Formats.wire(Json.text(j, "capacityType")),
                                    Formats.num(j, "nodes"),
                                    Formats.num(j, "lastStep"),
                                    out.time(Json.text(j, "lastProgressAt")),
                                    Formats.num(j, "interruptions"),
                                    out.time(Json.text(j, "stateSince"))));
                        }
                        t.row(v.toArray(String[]::new));
                    });
            return Exit.OK;
        }

        private static String restarts(JsonNode j) {
            String max = Json.text(j, "maxRestarts");
            return Formats.num(j, "restarts") + (max == null ? "" : "/" + max);
        }
    }

    /** {@code get nodes}. */
    @Command(
            name = "nodes",
            aliases = {"node", "no"},
            description = "List nodes (or show one): pool, capacity type, "
                    + "state, cordon, interruption notice, GPU health.")
    static final class NodesCmd extends Base {
        @Parameters(arity = "0..1", paramLabel = "NODE")
        String name;

        @Option(names = "--pool")
        String pool;

        @Option(names = "--capacity-type", description = "spot, on-demand or reserved.")
        String capacityType;

        @Option(names = "--state", description = "ready, notice-received, draining, terminated...")
        String state;

        @Option(names = "--health", description = "healthy, degraded, unhealthy...")
        String health;

        @Override
        int run() {
            List<JsonNode> items;
            if (name != null) {
                items = List.of(api().get(Api.path("nodes", name)));
            } else {
                items = Base.items(
                        api().get(Api.query(
                                Api.path("nodes"),
                                Api.params(
                                        "pool",
                                        pool,
                                        "capacityType",
                                        capacityType,
                                        "state",
                                        state,
                                        "health",
                                        health,
                                        "limit",
                                        5000))),
                        "items");
            }
            Out out = out();
            if (name != null && out.structured()) {
                out.document(items.get(0));
                return Exit.OK;
            }
            boolean wide = out.wide();
            print(
                    out,
                    items,
                    "node",
                    "name",
                    t -> {
                        t.flexible("name")
                                .column("pool")
                                .column("capacity")
                                .column("state", false, false, out::state)
                                .column("cordoned")
                                .column("notice")
                                .column("health", false, false, out::state)
                                .number("gpus")
                                .column("since");
                        if (wide) {
                            t.column("zone").column("instance type").number("lemon");
                        }
                    },
                    (t, n) -> {
                        JsonNode facts = n.has("facts") ? n.get("facts") : n;
                        List<String> v = new ArrayList<>(List.of(
                                Json.text(n, "name"),
                                Formats.or(Json.text(facts, "pool")),
                                Formats.wire(Json.text(facts, "capacityType")),
                                Formats.wire(Json.text(n, "state")),
                                Formats.yesNo(n, "cordoned"),
                                noticeColumn(n),
                                Formats.wire(Json.text(n, "health")),
                                Formats.num(n.has("gpuCount") ? n : facts, "gpuCount"),
                                out.time(Json.text(n, "stateSince"))));
                        if (wide) {
                            v.addAll(List.of(
                                    Formats.or(Json.text(facts, "zone")),
                                    Formats.or(Json.text(facts, "instanceType")),
                                    n.has("lemonScore")
                                            ? Formats.num(n, "lemonScore")
                                            : Formats.num(n.get("lemon"), "interruptions")));
                        }
                        t.row(v.toArray(String[]::new));
                    });
            return Exit.OK;
        }

        /** yes while a notice puts the node at risk, expired once its deadline passed without the node going, else no. */
        private static String noticeColumn(JsonNode n) {
            return n.path("noticeExpired").asBoolean() ? "expired" : Formats.yesNo(n, "noticeActive");
        }
    }

    /** {@code get gpus}. */
    @Command(
            name = "gpus",
            aliases = {"gpu"},
            description = "List GPUs: health, utilisation, memory, temperature, " + "last XID, the pod on it.")
    static final class GpusCmd extends Base {
        @Option(names = "--node", paramLabel = "NODE")
        String node;

        @Option(names = "--health")
        String health;

        @Override
        int run() {
            List<JsonNode> items = Base.items(
                    api().get(Api.query(Api.path("gpus"), Api.params("node", node, "health", health, "limit", 20_000))),
                    "items");
            Out out = out();
            if (out.names()) {
                items.forEach(g -> out.line("gpu/" + Json.text(g, "node") + "/" + Json.text(g, "index")));
                return Exit.OK;
            }
            boolean wide = out.wide();
            print(
                    out,
                    items,
                    "gpu",
                    "uuid",
                    t -> {
                        t.flexible("node")
                                .number("gpu")
                                .flexible("model")
                                .column("health", false, false, out::state)
                                .number("util%")
                                .number("mem used")
                                .number("temp")
                                .number("power")
                                .number("xid")
                                .flexible("pod");
                        if (wide) {
                            t.column("uuid")
                                    .number("ecc sbe")
                                    .number("ecc dbe")
                                    .number("remap fail")
                                    .number("nvlink err")
                                    .column("sampled")
                                    .flexible("reason");
                        }
                    },
                    (t, g) -> {
                        String pod = Json.text(g, "pod") == null
                                ? "-"
                                : Formats.or(Json.text(g, "namespace")) + "/" + Json.text(g, "pod");
                        List<String> v = new ArrayList<>(List.of(
                                Json.text(g, "node"),
                                Formats.num(g, "index"),
                                Formats.or(Json.text(g, "model")),
                                Formats.wire(Json.text(g, "health")),
                                Formats.num(g, "utilizationPercent"),
                                mib(g.get("memoryUsedMiB")),
                                Formats.num(g, "temperatureCelsius"),
                                Formats.num(g, "powerWatts"),
                                Formats.num(g, "lastXid"),
                                pod));
                        if (wide) {
                            v.addAll(List.of(
                                    Formats.or(Json.text(g, "uuid")),
                                    Formats.num(g, "eccSbeVolatile"),
                                    Formats.num(g, "eccDbeVolatile"),
                                    Formats.num(g, "rowRemapFailures"),
                                    Formats.num(g, "nvlinkErrors"),
                                    out.time(Json.text(g, "sampledAt")),
                                    Formats.or(Json.text(g, "reason"))));
                        }
                        t.row(v.toArray(String[]::new));
                    });
            return Exit.OK;
        }

        private static String mib(JsonNode v) {
            return v == null || v.isNull() ? "-" : Math.round(v.asDouble()) + "Mi";
        }
    }

    /** {@code get actions}. */
    @Command(
            name = "actions",
            aliases = {"action"},
            description = "List actions (newest first) or show one with its steps.")
    static final class ActionsCmd extends Base {
        @Parameters(arity = "0..1", paramLabel = "ACTION", description = "One action id (act-...).")
        String id;

        @Option(
                names = "--kind",
                description =
                        "checkpoint-now, drain, cordon, uncordon, preempt, resume, rescale, restore, replace-pods.")
        String kind;

        @Option(names = "--state", description = "pending, running, succeeded, failed, cancelled.")
        String state;

        @Option(names = "--target", description = "A node or a job (namespace/name).")
        String target;

        @Option(names = "--requested-by", paramLabel = "WHO", description = "A token name, or policy:<name>.")
        String requestedBy;

        @Option(names = "--limit", defaultValue = "50", description = "At most this many (default: ${DEFAULT-VALUE}).")
        int limit;

        @Override
        int run() {
            Out out = out();
            if (id != null) {
                JsonNode a = api().get(Api.path("actions", id));
                if (out.structured()) {
                    out.document(a);
                } else if (out.names()) {
                    out.line("action/" + id);
                } else {
                    ActionView.describe(out, a);
                }
                return Exit.OK;
            }
            List<JsonNode> items = new ArrayList<>();
            String cursor = null;
            String ns = cli().namespaceScope();
            do {
                JsonNode page = api().get(Api.query(
                        Api.path("actions"),
                        Api.params(
                                "kind",
                                kind,
                                "state",
                                state,
                                "target",
                                target,
                                "requestedBy",
                                requestedBy,
                                "limit",
                                Math.min(500, Math.max(1, limit)),
                                "cursor",
                                cursor)));
                for (JsonNode a : Base.items(page, "items")) {
                    if (items.size() < limit && inNamespace(a, ns)) {
                        items.add(a);
                    }
                }
                cursor = Json.text(page, "nextCursor");
            } while (cursor != null && items.size() < limit);
            boolean wide = out.wide();
            print(
                    out,
                    items,
                    "action",
                    "id",
                    t -> {
                        t.column("id")
                                .column("kind")
                                .flexible("target")
                                .column("state", false, false, out::state)
                                .flexible("requested by")
                                .column("created")
                                .flexible("outcome");
                        if (wide) {
                            t.flexible("reason").column("updated").column("deadline");
                        }
                    },
                    (t, a) -> {
                        List<String> v = new ArrayList<>(List.of(
                                Json.text(a, "id"),
                                Json.text(a, "kind"),
                                Json.text(a, "target"),
                                Formats.or(Json.text(a, "state")),
                                Formats.or(Json.text(a, "requestedBy")),
                                out.time(Json.text(a, "createdAt")),
                                Formats.or(Json.text(a, "outcome"))));
                        if (wide) {
                            v.addAll(List.of(
                                    Formats.or(Json.text(a, "reason")),
                                    out.time(Json.text(a, "updatedAt")),
                                    out.time(Json.text(a, "deadline"))));
                        }
                        t.row(v.toArray(String[]::new));
                    });
            return Exit.OK;
        }

        /** Node actions concern every namespace; a job action belongs to its job's. */
        private static boolean inNamespace(JsonNode a, String ns) {
            String target = Json.text(a, "target");
            return ns == null || target == null || !target.contains("/") || target.startsWith(ns + "/");
        }
    }

    /** {@code get incidents}. */
    @Command(
            name = "incidents",
            aliases = {"incident"},
            description = "List the incidents of one job, or of every job "
                    + "in scope: cause, outcome, downtime, GPU-hours lost.")
    static final class IncidentsCmd extends Base {
        @Parameters(arity = "0..1", paramLabel = "JOB")
        String name;

        @Option(names = "--open", description = "Only open incidents.")
        boolean open;

        @Override
        int run() {
            List<String> jobs = new ArrayList<>();
            if (name != null) {
                jobs.add(job(name));
            } else {
                Jobs.all(api(), cli().namespaceScope()).forEach(j -> jobs.add(Json.text(j, "name")));
            }
            List<JsonNode> items = new ArrayList<>();
            for (String j : jobs) {
                JsonNode list = api().get(Jobs.path(j, "incidents"));
                for (JsonNode i : list) {
                    if (!open || "OPEN".equalsIgnoreCase(Json.text(i, "outcome"))) {
                        items.add(i);
                    }
                }
            }
            items.sort((a, b) ->
                    String.valueOf(Json.text(b, "openedAt")).compareTo(String.valueOf(Json.text(a, "openedAt"))));
            Out out = out();
            boolean wide = out.wide();
            print(
                    out,
                    items,
                    "incident",
                    "id",
                    t -> {
                        t.flexible("id")
                                .column("cause")
                                .column("outcome", false, false, out::state)
                                .column("opened")
                                .number("downtime")
                                .number("lost gpu-h")
                                .column("node")
                                .flexible("detail");
                        if (wide) {
                            t.column("pool")
                                    .column("notice")
                                    .number("lead")
                                    .column("ckpt before exit")
                                    .column("restored")
                                    .number("world before")
                                    .number("world after");
                        }
                    },
                    (t, i) -> {
                        List<String> v = new ArrayList<>(List.of(
                                Json.text(i, "id"),
                                Formats.wire(Json.text(i, "cause")),
                                Formats.wire(Json.text(i, "outcome")),
                                out.time(Json.text(i, "openedAt")),
                                Formats.millis(i, "downtimeMillis"),
                                Formats.hours(i, "lostGpuHours"),
                                Formats.or(Json.text(i, "originNode")),
                                Formats.or(Json.text(i, "causeDetail"))));
                        if (wide) {
                            v.addAll(List.of(
                                    Formats.or(Json.text(i, "pool")),
                                    Formats.wire(Json.text(i, "noticeKind")),
                                    Formats.millis(i, "actualLeadMillis"),
                                    Formats.yesNo(i, "checkpointBeforeExit"),
                                    Formats.or(Json.text(i, "restoredCheckpoint")),
                                    Formats.num(i, "worldSizeBefore"),
                                    Formats.num(i, "worldSizeAfter")));
                        }
                        t.row(v.toArray(String[]::new));
                    });
            return Exit.OK;
        }
    }

    /** {@code get alerts}. */
    @Command(
            name = "alerts",
            aliases = {"alert"},
            description = "List alerts: firing first, then pending and recently "
                    + "resolved, with the silences muting them.")
    static final class AlertsCmd extends Base {
        @Option(names = "--state", description = "pending, firing or resolved.")
        String state;

        @Option(names = "--rule", description = "A rule key, e.g. checkpoint-stale, fatal-xid.")
        String rule;

        @Override
        int run() {
            List<JsonNode> all = Base.items(
                    api().get(Api.query(Api.path("alerts"), Api.params("state", state, "rule", rule))), "alerts");
            String ns = cli().namespaceScope();
            List<JsonNode> items = new ArrayList<>();
            for (JsonNode a : all) {
                if (ns == null || Json.text(a, "namespace") == null || ns.equals(Json.text(a, "namespace"))) {
                    items.add(a);
                }
            }
            Out out = out();
            boolean wide = out.wide();
            print(
                    out,
                    items,
                    "alert",
                    "fingerprint",
                    t -> {
                        t.column("alert")
                                .column("state", false, false, out::state)
                                .column("severity", false, false, out::state)
                                .flexible("subject")
                                .column("since")
                                .column("silenced")
                                .flexible("summary");
                        if (wide) {
                            t.column("fingerprint")
                                    .column("rule")
                                    .number("value")
                                    .flexible("description");
                        }
                    },
                    (t, a) -> {
                        JsonNode labels = a.get("labels");
                        String subject = Formats.or(first(
                                Json.text(labels, "job"),
                                Json.text(labels, "node"),
                                Json.text(a, "namespace"),
                                Json.text(labels, "pool")));
                        String since = Json.text(a, "startsAt") != null
                                ? Json.text(a, "startsAt")
                                : Json.text(a, "activeSince");
                        List<String> v = new ArrayList<>(List.of(
                                Formats.or(Json.text(a, "alertname")),
                                Formats.or(Json.text(a, "state")),
                                Formats.or(Json.text(a, "severity")),
                                subject,
                                out.time(since),
                                Formats.list(a.get("silencedBy")),
                                Formats.or(Json.at(a, "annotations", "summary"))));
                        if (wide) {
                            v.addAll(List.of(
                                    Json.text(a, "fingerprint"),
                                    Formats.or(Json.text(a, "rule")),
                                    Formats.num(a, "value"),
                                    Formats.or(Json.at(a, "annotations", "description"))));
                        }
                        t.row(v.toArray(String[]::new));
                    });
            return Exit.OK;
        }

        private static String first(String... v) {
            for (String s : v) {
                if (s != null) {
                    return s;
                }
            }
            return null;
        }
    }
}
